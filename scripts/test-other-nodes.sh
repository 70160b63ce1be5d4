#!/usr/bin/env bash
# Runs the unit suite under other Node majors. The binaries come from the npm registry's `node` package
# (the only place this project may download from); each is installed once into .tmp/node-<major>.
set -euo pipefail
cd "$(dirname "$0")/.."
for major in "$@"; do
  prefix=".tmp/node-$major"
  if [ ! -x "$prefix/node_modules/.bin/node" ]; then
    npm install --no-save --no-audit --no-fund --silent --prefix "$prefix" "node@$major" >/dev/null
  fi
  node_bin="$(cd "$prefix/node_modules/.bin" && pwd)/node"
  echo "== unit tests on Node $("$node_bin" --version)"
  "$node_bin" node_modules/vitest/vitest.mjs run --reporter=dot
done
