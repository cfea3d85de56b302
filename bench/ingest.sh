#!/usr/bin/env bash
# Clicks per second moved from the journal into the store: how fast a node catches up after its store was away.
#
#   bench/ingest.sh                            SQLite (the embedded store in the data directory)
#   STORE=postgres bench/ingest.sh             PostgreSQL: a throwaway cluster (scripts/postgres-cluster.sh)
#   ROUNDS=5 DURATION=10 bench/ingest.sh       more rounds, a fuller journal
#   BUILD_DIR=/work/build-bench bench/ingest.sh   SwiftPM scratch path of the release build
#
# Each round:
#   1. fill: a server (repeat taps off, so every tap is a click row of its own) answers `wrk -t1 -c16` on one link
#      for DURATION seconds while the store takes no clicks (SQLite: a second connection holds `BEGIN EXCLUSIVE`;
#      PostgreSQL: a session holds `LOCK TABLE clicks`), so the clicks stay in the journal; its metrics say how many
#      it journaled; then it is killed (SIGKILL: the journal stays, nothing is drained) and the lock let go;
#   2. catch up: a new server on the same data directory ingests the earlier process's segments at start, with no
#      traffic; the time from its start until the store holds every journaled click gives clicks/s (its start-up,
#      a few ms, is inside the time).
# A round fails unless the store ends with exactly the journaled clicks. The table shows the median of the rounds.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

rounds="${ROUNDS:-3}"
duration="${DURATION:-5}"
threads="${THREADS:-2}"
store_kind="${STORE:-sqlite}"
iphone='Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1'

prepare

cat >"$work/config.json" <<'JSON'
{"organizations":[
  {"id":"org_bench","name":"Bench","public_key":"pk_bench","secret_key":"sk_bench_secret",
   "programs":[{"id":"prg_bench","name":"Bench App",
     "app_links":{"deep_link_template":"benchapp://claim?tolt_code={code}&tolt_click={click_id}"},
     "partners":[{"id":"part_sam","name":"Sam","status":"active","codes":[{"code":"SAM20","active":true}]}]}]}]}
JSON

# store_args (common.sh): what `serve` and `import` are given to reach the store; count_clicks and the lock act on it.
choose_store

count_clicks() {
    local data=$1
    if [[ "$store_kind" == postgres ]]; then
        psql "$store_url" -tAc 'SELECT count(*) FROM clicks'
    else
        sqlite3 "$data/tolt-edge.sqlite" 'PRAGMA busy_timeout = 5000; SELECT count(*) FROM clicks' | tail -1
    fi
}

# Holds the store's click table against writes until lock_release; waits until the lock is held.
lock_pid=""
lock_take() {
    local data=$1 ready="$work/lock.ready"
    rm -f "$ready"
    if [[ "$store_kind" == postgres ]]; then
        # psql reads its statements from a FIFO kept open by this shell: the session, and the lock, last until
        # lock_release closes it.
        rm -f "$work/lock.fifo"
        mkfifo "$work/lock.fifo"
        psql -q "$store_url" <"$work/lock.fifo" >/dev/null &
        lock_pid=$!
        exec {lock_fd}>"$work/lock.fifo"
        printf 'BEGIN;\nLOCK TABLE clicks IN EXCLUSIVE MODE;\n\\! touch %s\n' "$ready" >&"$lock_fd"
    else
        python3 - "$data/tolt-edge.sqlite" "$ready" <<'PY' &
import sqlite3, sys, time
connection = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=30)
connection.execute("BEGIN EXCLUSIVE")
open(sys.argv[2], "w").close()
time.sleep(3600)
PY
        lock_pid=$!
    fi
    cleanup_pids+=("$lock_pid")
    for _ in $(seq 300); do
        [[ -e "$ready" ]] && return 0
        kill -0 "$lock_pid" 2>/dev/null || die "the store lock could not be taken"
        sleep 0.1
    done
    die "the store lock was not taken within 30 s"
}

lock_release() {
    if [[ "$store_kind" == postgres ]]; then
        exec {lock_fd}>&-
    else
        kill -TERM "$lock_pid" 2>/dev/null || true
    fi
    wait "$lock_pid" 2>/dev/null || true
}

metric() {
    curl -s "http://127.0.0.1:$1/metrics" | awk -v name="$2" '$1 == name { print $2 }'
}

echo "== ingest: $store_kind, $rounds rounds, ${duration}s of wrk -t1 -c16 per fill, $threads threads" >&2
echo "== load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores" >&2
rates=()
backlogs=()
for round in $(seq "$rounds"); do
    data="$work/data-$round"
    "$bin" import "$work/config.json" --data "$data" "${store_args[@]}" >/dev/null 2> >(grep -v "^warning: " >&2 || true)
    before=$(count_clicks "$data")

    port=$(free_port)
    start_server "$port" "$data" --threads "$threads" --dedupe-window 0 "${store_args[@]}"
    lock_take "$data"
    wrk -t1 -c16 -d"${duration}s" -H "User-Agent: $iphone" "http://127.0.0.1:$port/a/pk_bench/SAM20" \
        >"$work/wrk-$round.txt" 2>&1
    journaled=$(metric "$port" tolt_edge_clicks_journaled_total)
    kill -KILL "$server_pid"
    wait "$server_pid" 2>/dev/null || true
    lock_release
    held=$(count_clicks "$data")
    expected=$((before + journaled))
    backlog=$((expected - held))
    ((backlog > 0)) || die "round $round: nothing left in the journal (journaled $journaled, stored $held)"
    journal_bytes=$(du -sb "$data/journal" | cut -f1)

    port=$(free_port)
    started=$(date +%s.%N)
    "$bin" serve --host 127.0.0.1 --port "$port" --data "$data" --threads "$threads" --dedupe-window 0 \
        "${store_args[@]}" >"$work/server-$round.log" 2>&1 &
    server_pid=$!
    cleanup_pids+=("$server_pid")
    stored=$held
    while ((stored < expected)); do
        kill -0 "$server_pid" 2>/dev/null || die "round $round: the server exited (log: $work/server-$round.log)"
        sleep 0.05
        stored=$(count_clicks "$data")
    done
    finished=$(date +%s.%N)
    stop_server
    final=$(count_clicks "$data")
    ((final == expected)) || die "round $round: the store holds $final clicks, $expected were journaled"
    rate=$(awk -v n="$backlog" -v a="$started" -v b="$finished" 'BEGIN { printf "%.0f", n / (b - a) }')
    seconds=$(awk -v a="$started" -v b="$finished" 'BEGIN { printf "%.2f", b - a }')
    rates+=("$rate")
    backlogs+=("$backlog")
    printf 'round %d  %s  %7d clicks (%d journal bytes) in %6s s: %8d clicks/s\n' \
        "$round" "$store_kind" "$backlog" "$journal_bytes" "$seconds" "$rate" >&2
done
if [[ "$store_kind" == postgres ]]; then stop_cluster; fi

median_rate=$(printf '%s\n' "${rates[@]}" | median)
median_backlog=$(printf '%s\n' "${backlogs[@]}" | median)
echo
echo "| store | clicks in the journal per round (median) | ingested clicks/s (median) | each round |"
echo "| --- | --- | --- | --- |"
echo "| $store_kind | $median_backlog | $median_rate | ${rates[*]} |"
