#!/usr/bin/env bash
# A throwaway PostgreSQL server on loopback for the store tests.
#   eval "$(scripts/pg-test-server.sh start)"   prints PLANGATE_TEST_DATABASE_URL and PLANGATE_TEST_PG_DIR exports
#   scripts/pg-test-server.sh stop DIR          stops it and removes DIR
# initdb and pg_ctl refuse to run as root: as root they run as the postgres user. Fails (exit 1) when the
# server cannot start.
set -euo pipefail

as_owner() {
  if [ "$(id -u)" = "0" ]; then
    if command -v runuser >/dev/null 2>&1; then runuser -u postgres -- "$@"; else su postgres -s /bin/sh -c "$(printf '%q ' "$@")"; fi
  else
    "$@"
  fi
}

find_bin() {
  local name=$1
  if command -v "$name" >/dev/null 2>&1; then command -v "$name"; return; fi
  for d in /usr/lib/postgresql/*/bin; do [ -x "$d/$name" ] && { echo "$d/$name"; return; }; done
  echo "pg-test-server: $name not found (install PostgreSQL 15)" >&2
  exit 1
}

case "${1:-}" in
  start)
    initdb=$(find_bin initdb)
    pg_ctl=$(find_bin pg_ctl)
    dir=$(mktemp -d /tmp/plangate-pg.XXXXXX)
    chmod 0700 "$dir"
    [ "$(id -u)" = "0" ] && chown postgres: "$dir"
    as_owner "$initdb" -D "$dir/data" -U postgres --auth=trust --no-sync -E UTF8 >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; exit 1; }
    # A free port: ask the kernel for one.
    port=$(node -e 'const s=require("node:net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
    as_owner "$pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
      -o "-k $dir -h 127.0.0.1 -p $port -c fsync=off -c max_connections=200" start >/dev/null \
      || { cat "$dir/server.log" >&2; exit 1; }
    echo "export PLANGATE_TEST_DATABASE_URL=postgres://postgres@127.0.0.1:$port/postgres"
    echo "export PLANGATE_TEST_PG_DIR=$dir"
    ;;
  stop)
    dir=${2:?usage: pg-test-server.sh stop DIR}
    pg_ctl=$(find_bin pg_ctl)
    as_owner "$pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    rm -rf "$dir"
    ;;
  *)
    echo "usage: pg-test-server.sh start | stop DIR" >&2
    exit 2
    ;;
esac
