#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for tests and benches: never for production data (fsync is off).
#
#   scripts/postgres-cluster.sh start DIR   creates the cluster in DIR when DIR holds none (initdb, trust auth on
#                                           127.0.0.1 only, a free port, database `tolt`), starts it, and prints
#                                           its URL: postgres://tolt@127.0.0.1:PORT/tolt. On a DIR that holds a
#                                           stopped cluster, starts it again on the same port.
#   scripts/postgres-cluster.sh stop DIR    stops it (fast mode); removes nothing.
#   scripts/postgres-cluster.sh url DIR     prints the URL again.
#
# initdb refuses to run as root: as root, the server runs as the Debian `postgres` user (runuser) and DIR is
# handed to it. Only TCP on 127.0.0.1 is opened (no Unix socket, whose path length a deep DIR could exceed).
set -euo pipefail

usage() { echo "usage: $0 start|stop|url DIR" >&2; exit 2; }
[ $# -eq 2 ] || usage
command=$1
dir=$(cd "$2" 2>/dev/null && pwd) || { mkdir -p "$2" && dir=$(cd "$2" && pwd); }
data=$dir/data
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -n "$bin" ] && [ -x "$bin/initdb" ] || { echo "no PostgreSQL under /usr/lib/postgresql (install postgresql)" >&2; exit 1; }

as_owner() {
  # From / as postgres: a checkout under /root is not postgres's to enter, and runuser would say so.
  if [ "$(id -u)" -eq 0 ]; then (cd / && runuser -u postgres -- "$@"); else "$@"; fi
}

url() { echo "postgres://tolt@127.0.0.1:$(cat "$dir/port")/tolt"; }

port_is_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

start() {
  if [ ! -f "$data/PG_VERSION" ]; then
    [ "$(id -u)" -eq 0 ] && chown postgres: "$dir"
    as_owner "$bin/initdb" -D "$data" -U tolt -A trust -E UTF8 --no-locale >"$dir/initdb.log" 2>&1 \
      || { cat "$dir/initdb.log" >&2; exit 1; }
    # Trust on 127.0.0.1 only: the cluster listens nowhere else.
    printf 'host all all 127.0.0.1/32 trust\n' | as_owner tee "$data/pg_hba.conf" >/dev/null
    printf "%s\n" "listen_addresses = '127.0.0.1'" "unix_socket_directories = ''" "fsync = off" \
      "synchronous_commit = off" "full_page_writes = off" "max_connections = 400" \
      | as_owner tee -a "$data/postgresql.conf" >/dev/null
    fresh=1
  fi
  local attempt port
  for attempt in $(seq 1 20); do
    if [ -f "$dir/port" ] && [ -z "${fresh:-}" ]; then port=$(cat "$dir/port"); else port=$((20000 + RANDOM % 40000)); fi
    port_is_free "$port" || { [ -z "${fresh:-}" ] && { echo "port $port is taken" >&2; exit 1; }; continue; }
    if as_owner "$bin/pg_ctl" -D "$data" -l "$dir/server.log" -o "-p $port" -w -t 30 start >/dev/null; then
      echo "$port" >"$dir/port"
      if [ -n "${fresh:-}" ]; then
        as_owner "$bin/psql" -h 127.0.0.1 -p "$port" -U tolt -d postgres -q -c "CREATE DATABASE tolt" >/dev/null
      fi
      url
      return
    fi
    [ -z "${fresh:-}" ] && break
  done
  tail -n 20 "$dir/server.log" >&2 || true
  echo "cannot start PostgreSQL in $dir" >&2
  exit 1
}

case "$command" in
  start) start ;;
  stop) [ -f "$data/postmaster.pid" ] && as_owner "$bin/pg_ctl" -D "$data" -m fast -w stop >/dev/null; true ;;
  url) [ -f "$dir/port" ] || { echo "no cluster in $dir" >&2; exit 1; }; url ;;
  *) usage ;;
esac
