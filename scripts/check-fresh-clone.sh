#!/usr/bin/env bash
# The README's commands, run as a newcomer runs them: on a fresh clone of this repository's HEAD in a temporary
# folder, with whatever `node` the machine has (20 included: the README's commands bring Node 24). One line per
# command; a failing command prints the end of its output. Every command is bounded in time; the whole check is
# bounded too. Everything the commands write to a temporary folder goes to one folder of ours (TMPDIR), checked for
# leftovers and removed at the end, with the clone: nothing is left behind.
#
#   bash scripts/check-fresh-clone.sh               the README's install, the test loop on an old node (stops at
#                                                   once), demo, demo --serve (SIGTERM to npm), each example's
#                                                   `npm run example:…`, the pre-publish install (npm pack) with the
#                                                   README's hello world against `npx merchant-payments-mock`
#   FRESH_CLONE_INSTALL="npm ci" bash scripts/...   another install command (the README's is `npm install`)
#   bash scripts/check-fresh-clone.sh --npm-test    also the README's test command, `npm test` (CI runs it on its
#                                                   own clone already, so it is off by default)
#
# Exit status: 0 when every command did what the README says, 1 otherwise.
set -uo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
head="$(git -C "$root" rev-parse HEAD)"
install_cmd="${FRESH_CLONE_INSTALL:-npm install --no-audit --no-fund}"
work="$(mktemp -d "${TMPDIR:-/tmp}/merchant-payments-fresh-clone.XXXXXX")"
repo="$work/repo"
logs="$work/logs"
export TMPDIR="$work/tmp" TEMP="$work/tmp" TMP="$work/tmp"
mkdir -p "$logs" "$TMPDIR"
started=$SECONDS
failures=0
count=0
bg_pids=()

cleanup() {
  for pid in "${bg_pids[@]}"; do kill -KILL -- "-$pid" 2>/dev/null; done
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

commands=0
say() {
  commands=$((commands + 1))
  printf '%-4s %5ss  %s\n' "$1" "$2" "$3"
}

fail() { # name, seconds, log, why
  say FAIL "$2" "$1${4:+ ($4)}"
  [ -f "$3" ] && tail -n 25 "$3" | sed 's/^/      | /'
  failures=$((failures + 1))
  return 1
}

# step NAME LIMIT_SECONDS COMMAND: runs COMMAND (a shell line, as the README writes it) in the clone.
step() {
  local name="$1" limit="$2" cmd="$3" log="$logs/$((++count)).log" start=$SECONDS
  if (cd "$repo" && timeout --kill-after=10 "$limit" bash -c "$cmd") >"$log" 2>&1; then
    say ok $((SECONDS - start)) "$name"
  else
    local rc=$?
    fail "$name" $((SECONDS - start)) "$log" "exit $rc$([ "$rc" = 124 ] && echo ", over ${limit}s")"
  fi
}

# start NAME COMMAND [DIR]: starts a server in the background (in the clone, or DIR), in its own process group;
# sets $pid and $log.
start() {
  log="$logs/$((++count)).log"
  : >"$log"
  (cd "${3:-$repo}" && exec setsid bash -c "exec $2") >"$log" 2>&1 &
  pid=$!
  bg_pids+=("$pid")
}

# await_line PATTERN LIMIT: waits until the background server's log matches, or it exits, or LIMIT seconds pass.
await_line() {
  local deadline=$((SECONDS + $2))
  while [ $SECONDS -lt $deadline ]; do
    grep -qE "$1" "$log" && return 0
    kill -0 "$pid" 2>/dev/null || return 1
    sleep 0.5
  done
  return 1
}

# await_group_end LIMIT: waits, bounded, until every process of the server's group has ended; after LIMIT seconds
# kills what is left and returns 124.
await_group_end() {
  local deadline=$((SECONDS + $1))
  while kill -0 -- "-$pid" 2>/dev/null; do
    if [ $SECONDS -ge $deadline ]; then
      kill -KILL -- "-$pid" 2>/dev/null
      return 124
    fi
    sleep 0.2
  done
}

# stop_with_sigterm LIMIT: SIGTERM to the server's process group (what Ctrl+C, a terminal closing, or a supervisor
# stopping a service does: npm, tsx and node each get it), then waits until every process of the group has ended.
# Returns 0 when the first process ended by the signal or with status 0, 124 when the group did not end in time.
stop_with_sigterm() {
  kill -TERM -- "-$pid" 2>/dev/null
  await_group_end "$1" || return 124
  wait "$pid"
  local rc=$?
  [ "$rc" = 0 ] || [ "$rc" = 143 ]
}

# stop_npm_with_sigterm LIMIT: SIGTERM to npm alone (`kill -TERM <npm pid>`, as a supervisor that knows one pid
# does), then waits until every process of its group has ended: npm and the launcher must pass it down the chain.
stop_npm_with_sigterm() {
  kill -TERM "$pid" 2>/dev/null
  await_group_end "$1" || return 124
  wait "$pid" 2>/dev/null
  return 0
}

free_port() { node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }

# What the commands left in the temp dir, tools' own caches aside (tsx's and Node's compile caches).
leftovers() { ls -A "$TMPDIR" | grep -vE '^(tsx-|node-compile-cache$)' || true; }

# --- the commands --------------------------------------------------------------------------------------------------
start_step=$SECONDS
if git clone --quiet "$root" "$repo" >"$logs/clone.log" 2>&1 && git -C "$repo" checkout --quiet "$head" 2>>"$logs/clone.log"; then
  say ok $((SECONDS - start_step)) "git clone (HEAD ${head:0:12})"
else
  fail "git clone" $((SECONDS - start_step)) "$logs/clone.log"
  exit 1
fi

step "$install_cmd (node $(node --version))" 900 "$install_cmd" || exit 1
# The README's test loop on the machine's own node, when it is older than supported: it stops at once and names the
# fix (a bounded wait: 20 s, for a loaded machine; it takes about a second).
if ! node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>22||(a===22&&b>=12)?0:1)'; then
  step "npx vitest run --project unit on node $(node --version): stops at once, names the fix" 20 \
    "npx vitest run --project unit 2>&1 | tee /dev/stderr | grep -q 'npm run test:unit' && ! npx vitest run --project unit >/dev/null 2>&1"
fi
step "npm run demo (first run)" 300 "npm run demo"

# The README: on a Node older than 22.12, put the brought Node first on PATH before running the examples.
bin_dir="$(cd "$repo" && node scripts/supported-node.mjs --bin-dir 2>/dev/null)"
if [ -n "$bin_dir" ] && [ -x "$bin_dir/node" ]; then
  export PATH="$bin_dir:$PATH"
  say ok 0 "export PATH=\"\$(node scripts/supported-node.mjs --bin-dir):\$PATH\"  (node $(node --version))"
else
  fail "node scripts/supported-node.mjs --bin-dir" 0 /dev/null "no supported node"
fi

# npm run demo -- --serve: reach the shop, then SIGTERM; it must stop and remove its database.
shop_port="$(free_port)"
mock_port="$(free_port)"
name="npm run demo -- --serve --shop-port $shop_port --mock-port $mock_port; GET /, POST /orders; SIGTERM to npm"
start_step=$SECONDS
start "demo --serve" "npm run demo -- --serve --shop-port $shop_port --mock-port $mock_port"
if ! await_line "Open http://127.0.0.1:$shop_port" 240; then
  fail "$name" $((SECONDS - start_step)) "$log" "never served"
elif ! curl -fsS "http://127.0.0.1:$shop_port/" | grep -q 'id="buy"'; then
  fail "$name" $((SECONDS - start_step)) "$log" "GET / did not show the shop"
elif [ "$(curl -s -o /dev/null -w '%{http_code}' -X POST "http://127.0.0.1:$shop_port/orders")" != 303 ]; then
  fail "$name" $((SECONDS - start_step)) "$log" "POST /orders did not redirect to the portal"
else
  if ! stop_npm_with_sigterm 60; then
    fail "$name" $((SECONDS - start_step)) "$log" "did not stop cleanly on SIGTERM to npm"
  elif curl -s -o /dev/null "http://127.0.0.1:$shop_port/" || curl -s -o /dev/null "http://127.0.0.1:$mock_port/"; then
    fail "$name" $((SECONDS - start_step)) "$log" "still listening after SIGTERM"
  elif [ -n "$(leftovers)" ]; then
    fail "$name" $((SECONDS - start_step)) "$log" "left in the temp dir: $(leftovers | tr '\n' ' ')"
  else
    say ok $((SECONDS - start_step)) "$name"
  fi
fi

# The mock the examples run against (examples/README.md).
mock_port="$(free_port)"
mock="http://127.0.0.1:$mock_port"
start_step=$SECONDS
start "mock" "npx tsx src/testing/cli.ts --port $mock_port"
mock_pid=$pid
mock_log=$log
if await_line "merchant id:" 120; then
  say ok $((SECONDS - start_step)) "npx tsx src/testing/cli.ts --port $mock_port"
  export MERCHANT_PAYMENTS_API_KEY="$(sed -n 's/^ *test key: *//p' "$log")"
  export MERCHANT_PAYMENTS_MERCHANT_ID="$(sed -n 's/^ *merchant id: *\([^ ]*\).*/\1/p' "$log")"
  export MERCHANT_PAYMENTS_BASE_URL="$mock"
else
  fail "npx tsx src/testing/cli.ts --port $mock_port" $((SECONDS - start_step)) "$log" "never listened"
fi

# serve_and_order SCRIPT: `env PORT=… npm run SCRIPT` (a shop), an order and its redirect to the portal, then SIGTERM
# to npm. Sets $location (the portal page of the order's payment).
serve_and_order() {
  local port name start_step=$SECONDS rc
  port="$(free_port)"
  name="PORT=$port npm run $1; POST /orders; SIGTERM to npm"
  location=""
  start "$1" "env PORT=$port npm run $1"
  if ! await_line "Shop on http://127.0.0.1:$port" 180; then
    fail "$name" $((SECONDS - start_step)) "$log" "never served"
    return 1
  fi
  location="$(curl -s -o /dev/null -w '%{redirect_url}' -X POST "http://127.0.0.1:$port/orders" \
    -H 'content-type: application/json' -d '{"amount":"19.99","currency":"USD"}')"
  stop_npm_with_sigterm 60
  rc=$?
  if [ -z "$location" ] || [ "${location##*/portal/}" = "$location" ]; then
    fail "$name" $((SECONDS - start_step)) "$log" "POST /orders did not redirect to the portal"
  elif [ "$rc" != 0 ]; then
    fail "$name" $((SECONDS - start_step)) "$log" "did not stop cleanly on SIGTERM to npm"
  else
    say ok $((SECONDS - start_step)) "$name"
  fi
}

# Express: the buyer of its order pays on the mock, for the worker below.
if serve_and_order example:express; then
  curl -fsS -X POST -H 'content-type: application/json' -d '{}' \
    "$mock/__mock/payments/${location##*/portal/}/complete" >/dev/null || fail "complete the order's payment on the mock" 0 /dev/null
fi

# The worker settles the Express shop's order (same .data/express-shop, the shop stopped), then exits.
step "npm run example:worker" 180 "npm run example:worker | tee /dev/stderr | grep -q ': fulfilled'"
step "npm run example:setup-merchant" 120 "npm run example:setup-merchant | tee /dev/stderr | grep -q '\"merchantId\": \"mrch_'"

# Hono on @hono/node-server.
serve_and_order example:hono
step "npm run example:nextjs" 300 "npm run example:nextjs"
pid=$mock_pid log=$mock_log
start_step=$SECONDS
if stop_with_sigterm 30; then
  say ok $((SECONDS - start_step)) "the mock stops on SIGTERM"
else
  fail "the mock stops on SIGTERM" $((SECONDS - start_step)) "$mock_log"
fi
step "npx vitest run examples/testing" 300 "npx vitest run examples/testing"

# Before the package is published: the packed tarball, installed into an app of one's own.
step "npm run build && npm pack" 300 "npm run build && npm pack"
mkdir -p "$work/app"
step "npm install <the packed tarball> tsx (in a new app); import it; npx merchant-payments-mock --help" 300 \
  "cd '$work/app' && npm init -y >/dev/null && npm install --no-audit --no-fund '$repo'/merchant-payments-*.tgz tsx \
   && node --input-type=module -e \"import { MerchantPaymentsClient } from 'merchant-payments'; if (typeof MerchantPaymentsClient !== 'function') process.exit(1)\" \
   && npx merchant-payments-mock --help"

# The README's hello world, as written: the mock from the package's bin, the three variables, one file.
(cd "$repo" && node -e '
  const text = require("fs").readFileSync("README.md", "utf8");
  const at = text.indexOf("## Hello world");
  const block = /<!-- docs: run -->\n```ts\n([\s\S]*?)```/.exec(text.slice(at));
  if (!block) process.exit(1);
  process.stdout.write(block[1]);
') >"$work/app/hello.mts" || fail "the README's hello world block" 0 /dev/null
app_mock_port="$(free_port)"
start_step=$SECONDS
start "app mock" "npx merchant-payments-mock --port $app_mock_port" "$work/app"
if await_line "Press Ctrl\\+C" 60; then
  # The README: paste the `export` line the mock printed, then run the file.
  step "README hello world: the mock's export line, npx tsx hello.mts against npx merchant-payments-mock" 120 \
    "cd '$work/app' && $(sed -n 's/^ *\(export MERCHANT_PAYMENTS_BASE_URL=.*\)$/\1/p' "$log") \
     && npx tsx hello.mts | tee /dev/stderr | grep -q 'succeeded → ship the order'"
  stop_with_sigterm 30 || fail "npx merchant-payments-mock stops on SIGTERM" 0 "$log"
else
  fail "npx merchant-payments-mock --port $app_mock_port (in the new app)" $((SECONDS - start_step)) "$log" "never listened"
fi

# Nothing the commands wrote may show in git: a file they leave is in an ignored folder (.data/, .tmp/).
untracked="$(git -C "$repo" status --porcelain --untracked-files=all | grep -v '\.tgz$' || true)"
if [ -n "$untracked" ]; then
  fail "git status is clean after the commands" 0 /dev/null "$(echo "$untracked" | tr '\n' ' ')"
else
  say ok 0 "git status is clean after the commands (.data/, .tmp/ ignored)"
fi

if [ "${1:-}" = "--npm-test" ]; then
  step "npm test" 2400 "npm test"
fi

if [ -n "$(leftovers)" ]; then
  fail "nothing left in the temp dir" 0 /dev/null "$(leftovers | tr '\n' ' ')"
else
  say ok 0 "nothing left in the temp dir"
fi
echo "fresh clone: ${commands} checks, ${failures} failed, $((SECONDS - started)) s"
[ "$failures" = 0 ]
