#!/usr/bin/env bash
# Runs every test that uses msw against msw 2 (the project's own devDependency is msw 3; the package's peer range is
# `^2.7.0 || ^3`). msw 2 is installed apart, into .tmp/msw-2, and vitest resolves `msw` there (MSW_PACKAGE_DIR, read
# by vitest.config.ts), so the project's node_modules stay as `npm ci` made them.
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=.tmp/msw-2
if [ ! -f "$prefix/node_modules/msw/package.json" ]; then
  npm install --no-save --no-audit --no-fund --silent --prefix "$prefix" "msw@^2.7.0" >/dev/null
fi
version="$(node -p "require('./$prefix/node_modules/msw/package.json').version")"
case "$version" in 2.*) ;; *) echo "expected msw 2 in $prefix, found $version"; exit 1 ;; esac
echo "== the unit suite on msw $version"
MSW_PACKAGE_DIR="$prefix/node_modules/msw" npx vitest run --project unit --reporter=dot
echo "== the documentation's code blocks on msw $version"
MSW_PACKAGE_DIR="$prefix/node_modules/msw" npx vitest run --project slow test/docs/code-blocks.test.ts --reporter=dot
