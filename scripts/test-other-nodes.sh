#!/usr/bin/env bash
# Runs the unit project of the suite (`vitest --project unit`) under other Node majors, then the packed package's
# CommonJS and ES module consumers that `KEEP_PACKED_CONSUMER=1 npm run test:package` left in .tmp/consumer-deps
# (missing: a failure), each making one call through the mock, and removes them at the end. The binaries come from
# the npm registry's `node` package (the only place this project may download from); each is installed once into
# .tmp/node-<version>. Every version runs even when one fails; the exit status says whether any failed.
# A version before 22 (20) runs only the consumers, which must stop with the SDK's own "needs Node 22.12" message.
#   KEEP_PACKED_CONSUMER=1 npm run test:package && bash scripts/test-other-nodes.sh 22 24 26 20
set -uo pipefail
cd "$(dirname "$0")/.."
# No version named is nothing checked, which must not pass.
[ "$#" -gt 0 ] || { echo "usage: bash scripts/test-other-nodes.sh <major>..." >&2; exit 2; }
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
  if [ "${major%%.*}" -lt 22 ]; then
    # An unsupported Node: the packed package must say so in its own words, from ESM and CommonJS alike.
    for probe in esm.mjs cjs.cjs; do
      out="$(cd .tmp/consumer-deps && "$node_bin" "$probe" 2>&1)"
      if grep -q "needs Node 22.12 or later" <<<"$out"; then echo "ok: $probe on Node $major says it needs 22.12"
      else echo "$out" | tail -5; failed+=("Node $major ($probe: no clear message)"); fi
    done
    continue
  fi
  echo "== unit tests on Node $("$node_bin" --version)"
  "$node_bin" node_modules/vitest/vitest.mjs run --project unit --reporter=dot ||
    failed+=("Node $major (unit tests)")
  if [ -f .tmp/consumer-deps/cjs.cjs ]; then
    echo "== the packed package from CommonJS and ES modules on Node $("$node_bin" --version)"
    for probe in esm.mjs cjs.cjs; do
      out="$(cd .tmp/consumer-deps && "$node_bin" "$probe" 2>&1)"
      if [ "$out" = ok ]; then echo "ok: $probe"; else echo "$out"; failed+=("Node $major ($probe)"); fi
    done
  else
    echo "== no .tmp/consumer-deps: the packed package could not be checked (npm run test:package makes it)"
    failed+=("Node $major (packed package not checked)")
  fi
done
# The consumer was kept for this script (KEEP_PACKED_CONSUMER=1); it lives in the system's temp folder.
if [ -L .tmp/consumer-deps ]; then rm -rf "$(readlink -f .tmp/consumer-deps)"; fi
rm -rf .tmp/consumer-deps
if [ "${#failed[@]}" -gt 0 ]; then
  echo "== failed: ${failed[*]}"
  exit 1
fi
