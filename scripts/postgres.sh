#!/usr/bin/env bash
# A throwaway PostgreSQL server for the settlement workers' tests and benchmark (docs/workers.md), from Debian's
# `postgresql` package: one per checkout, on a free loopback port, its data in this checkout's .tmp/postgres.
#
#   bash scripts/postgres.sh start        # starts it (installs Debian's postgresql first when root and missing)
#   bash scripts/postgres.sh url          # prints its URL: postgres://postgres@127.0.0.1:PORT/postgres
#   bash scripts/postgres.sh env          # prints `export DATABASE_URL=…` for eval
#   bash scripts/postgres.sh status       # exit 0 when it runs
#   bash scripts/postgres.sh stop         # stops it and removes its data: nothing is left behind
#   bash scripts/postgres.sh run CMD…     # start, CMD with DATABASE_URL set, stop (always), CMD's status
#
# Every command is idempotent: `start` on a running server prints nothing new, `stop` without one does nothing.
# Two checkouts never collide: each has its own data dir, socket dir and port (a free one, picked at start).
# As root (CI), the server runs as the `postgres` user (PostgreSQL refuses root); otherwise as the caller.
set -euo pipefail
cd "$(dirname "$0")/.."
root_dir="$(pwd)"
state_dir="$root_dir/.tmp/postgres"
data_dir="$state_dir/data"
port_file="$state_dir/port"

say() { echo "postgres.sh: $*" >&2; }

# The newest installed server's programs (Debian keeps them out of PATH, in /usr/lib/postgresql/N/bin).
pg_bin() {
  local dir
  dir="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)"
  if [ -n "$dir" ] && [ -x "$dir/pg_ctl" ]; then
    echo "$dir"
  elif command -v pg_ctl >/dev/null 2>&1; then
    dirname "$(command -v pg_ctl)"
  fi
}

ensure_installed() {
  [ -n "$(pg_bin)" ] && return 0
  if [ "$(id -u)" != 0 ]; then
    say "PostgreSQL is not installed: run as root, or: sudo apt-get install -y postgresql"
    return 1
  fi
  say "installing Debian's postgresql package"
  # No cluster of Debian's own (it would start on port 5432 and stay): this script makes its own.
  mkdir -p /etc/postgresql-common/createcluster.d
  echo "create_main_cluster = false" >/etc/postgresql-common/createcluster.d/no-main-cluster.conf
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql >/dev/null
  [ -n "$(pg_bin)" ]
}

# Runs a server program as its owner: `postgres` when we are root.
as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

running() {
  local bin
  bin="$(pg_bin)"
  [ -n "$bin" ] && [ -f "$data_dir/PG_VERSION" ] && as_owner "$bin/pg_ctl" status -D "$data_dir" >/dev/null 2>&1
}

url() { echo "postgres://postgres@127.0.0.1:$(cat "$port_file")/postgres"; }

free_port() {
  node -e 'const s=require("node:net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'
}

start() {
  if running && [ -f "$port_file" ]; then return 0; fi
  stop # a stale data dir (a killed run) goes first
  ensure_installed
  local bin
  bin="$(pg_bin)"
  mkdir -p "$data_dir"
  [ "$(id -u)" = 0 ] && chown postgres "$data_dir"
  chmod 700 "$data_dir"
  as_owner "$bin/initdb" -D "$data_dir" -U postgres --auth=trust -E UTF8 --no-sync >"$state_dir/initdb.log" 2>&1 ||
    { cat "$state_dir/initdb.log" >&2; return 1; }
  # A port another process takes between the pick and the listen: pick again (bounded).
  local attempt port
  for attempt in 1 2 3 4 5; do
    port="$(free_port)"
    # Loopback only, the socket in the data dir (never /var/run/postgresql), no durability: a test server. Its
    # databases are created and filled in bulk seconds before they are used: autovacuum looks every second (not
    # every minute) so that the planner has statistics, as a long-running server's tables do. Without them
    # pg-boss's settle and heartbeat statements scan every active job instead of using the primary key.
    # (docs/workers.md, "The database").
    if as_owner "$bin/pg_ctl" start -w -t 60 -D "$data_dir" -l "$data_dir/server.log" \
      -o "-p $port -c listen_addresses=127.0.0.1 -k $data_dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200 -c autovacuum_naptime=1s" \
      >/dev/null; then
      echo "$port" >"$port_file"
      say "started on 127.0.0.1:$port (attempt $attempt)"
      return 0
    fi
    say "start on port $port failed (attempt $attempt):"
    tail -n 5 "$data_dir/server.log" >&2 || true
  done
  return 1
}

stop() {
  local bin
  bin="$(pg_bin)"
  if [ -n "$bin" ] && [ -f "$data_dir/postmaster.pid" ]; then
    as_owner "$bin/pg_ctl" stop -w -t 60 -m fast -D "$data_dir" >/dev/null 2>&1 ||
      as_owner "$bin/pg_ctl" stop -w -t 30 -m immediate -D "$data_dir" >/dev/null 2>&1 || true
  fi
  rm -rf "$state_dir"
}

case "${1:-}" in
  start) start && url ;;
  stop) stop ;;
  status) running ;;
  url) running && url ;;
  env) running && echo "export DATABASE_URL=$(url)" ;;
  run)
    shift
    [ "$#" -gt 0 ] || { say "usage: run CMD…"; exit 2; }
    trap stop EXIT
    trap 'exit 130' INT TERM
    start >/dev/null
    DATABASE_URL="$(url)" "$@"
    ;;
  *)
    echo "usage: bash scripts/postgres.sh start|stop|status|url|env|run CMD…" >&2
    exit 2
    ;;
esac
