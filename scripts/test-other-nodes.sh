#!/usr/bin/env bash
# Runs the unit suite under other Node majors, then (when `npm run test:package` left them in .tmp/consumer-deps) the
# packed package's CommonJS and ES module consumers, each making one call through the mock. The binaries come from
# the npm registry's `node` package (the only place this project may download from); each is installed once into
# .tmp/node-<version>. Every version runs even when one fails; the exit status says whether any failed.
# PACKAGE_ONLY=1 skips the unit suite (e.g. Node 20.18, the last 20.x that cannot require() an ES module).
#   bash scripts/test-other-nodes.sh 22 24 26
#   PACKAGE_ONLY=1 bash scripts/test-other-nodes.sh 20.18
set -uo pipefail
cd "$(dirname "$0")/.."
failed=()
for major in "$@"; do
  prefix=".tmp/node-$major"
  if [ ! -x "$prefix/node_modules/.bin/node" ]; then
    if ! npm install --no-save --no-audit --no-fund --silent --prefix "$prefix" "node@$major" >/dev/null; then
      echo "== Node $major: could not install node@$major from the npm registry"
      failed+=("Node $major (install)")
      continue
    fi
  fi
  node_bin="$(cd "$prefix/node_modules/.bin" && pwd)/node"
  if [ "${PACKAGE_ONLY:-}" != 1 ]; then
    echo "== unit tests on Node $("$node_bin" --version)"
    "$node_bin" node_modules/vitest/vitest.mjs run --reporter=dot ||
      failed+=("Node $major (unit tests)")
  fi
  if [ -f .tmp/consumer-deps/cjs.cjs ]; then
    echo "== the packed package from CommonJS and ES modules on Node $("$node_bin" --version)"
    # The CJS build must not rely on require() of an ES module (Node 20.19 / 22.12 and later only): switch it off.
    flags=()
    if [ "$("$node_bin" -p 'process.allowedNodeEnvironmentFlags.has("--no-experimental-require-module")')" = true ]; then
      flags=(--no-experimental-require-module)
    fi
    for probe in esm.mjs cjs.cjs; do
      out="$(cd .tmp/consumer-deps && "$node_bin" "${flags[@]}" "$probe" 2>&1)"
      if [ "$out" = ok ]; then echo "ok: $probe"; else echo "$out"; failed+=("Node $major ($probe)"); fi
    done
  else
    echo "== no .tmp/consumer-deps: the packed package was not checked (npm run test:package makes it)"
  fi
done
if [ "${#failed[@]}" -gt 0 ]; then
  echo "== failed: ${failed[*]}"
  exit 1
fi
