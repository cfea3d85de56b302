#!/usr/bin/env bash
# One organization's partner list on a shared store: `GET /v1/partners?limit=100` and `GET /dashboard/partners` for
# an organization of OWN partners on a store that also holds OTHERS partners of other organizations, REQUESTS of
# each over one connection (curl), after 2 unmeasured: p50 and p99 of curl's time_total.
#
#   bench/shared-store.sh                              OWN=50 OTHERS=120000 REQUESTS=200, this build (release)
#   BASELINE=/path/to/older/tolt-edge bench/shared-store.sh   that build first, on the same store, then this one
#   STORE=postgres bench/shared-store.sh               a throwaway PostgreSQL cluster (scripts/postgres-cluster.sh)
#   BIN=/path/to/tolt-edge bench/shared-store.sh       another build as "this build" (no release build made)
#
# The store is filled by one `tolt-edge import` (of BASELINE when given, so that it is that build's store, which
# this build then migrates at its start): `org_bench` (pk_bench / sk_bench_secret, one program, OWN partners of one
# code each) and OTHERS partners of one code each spread over organizations of 10,000 partners. With BASELINE, each
# route's answer from both builds is compared (the dashboard's without its CSRF tokens and script nonces, which
# differ per server and request) and the run fails when they differ. Everything listens on 127.0.0.1 only; KEEP=1
# keeps the work directory.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

own="${OWN:-50}"
others="${OTHERS:-120000}"
requests="${REQUESTS:-200}"
secret=sk_bench_secret

if [[ -n "${BIN:-}" ]]; then
    bin="$BIN"
else
    echo "== building tolt-edge (release, scratch path $build_dir)" >&2
    swift build -c release --product tolt-edge --scratch-path "$build_dir" >&2
    bin="$(swift build -c release --product tolt-edge --scratch-path "$build_dir" --show-bin-path)/tolt-edge"
fi
[[ -x "$bin" ]] || die "no binary at $bin"
work="$(mktemp -d "${TMPDIR:-/tmp}/tolt-bench-shared.XXXXXX")"
trap cleanup EXIT
trap 'exit 130' INT TERM
choose_store
data="$work/data"
mkdir -p "$data"

# --- The import document: the measured organization first, then the others, 10,000 partners each.
document="$work/config.json"
awk -v own="$own" -v others="$others" 'BEGIN {
    printf "{\"organizations\":[{\"id\":\"org_bench\",\"name\":\"Bench\",\"public_key\":\"pk_bench\","
    printf "\"secret_key\":\"sk_bench_secret\",\"programs\":[{\"id\":\"prg_bench\",\"name\":\"Bench\",\"partners\":["
    for (i = 0; i < own; i++) {
        printf "%s{\"id\":\"part_b%05d\",\"name\":\"Partner %d\",\"status\":\"active\",", (i ? "," : ""), i, i
        printf "\"codes\":[{\"code\":\"BENCH%d\",\"active\":true}]}\n", i
    }
    printf "]}]}"
    for (o = 0; o * 10000 < others; o++) {
        printf ",\n{\"id\":\"org_o%02d\",\"name\":\"Other %d\",\"public_key\":\"pk_o%02d\",", o, o, o
        printf "\"secret_key\":\"sk_o%02d_secret\",\"programs\":[{\"id\":\"prg_o%02d\",\"name\":\"Other\",", o, o
        printf "\"partners\":["
        for (i = o * 10000; i < others && i < (o + 1) * 10000; i++) {
            # Ids that sort before and after the measured ones (part_a…, part_z…), as on any shared store.
            printf "%s{\"id\":\"part_%s%06d\",\"name\":\"Other %d\",\"status\":\"active\",", \
                (i > o * 10000 ? "," : ""), (i % 2 ? "a" : "z"), i, i
            printf "\"codes\":[{\"code\":\"O%d\",\"active\":true}]}\n", i
        }
        printf "]}]}"
    }
    printf "]}\n"
}' >"$document"
filler="${BASELINE:-$bin}"
echo "== store: importing $own + $others partners ($(basename "$filler"), ${STORE:-sqlite})" >&2
start=$(date +%s.%N)
"$filler" import "$document" --data "$data" "${store_args[@]}" >/dev/null
echo "   imported in $(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }') s" >&2

# p50 and p99 (nearest rank) of the seconds on standard input, in milliseconds.
percentiles() {
    sort -n | awk '{ v[NR] = $1 } END {
        p50 = v[int((NR + 1) / 2)]; r = int(NR * 0.99 + 0.999); if (r < 1) r = 1
        printf "p50 %6.1f ms   p99 %6.1f ms   (%d requests)", p50 * 1000, v[r] * 1000, NR
    }'
}

# measure LABEL BINARY: serves the store with BINARY, signs in, times both routes, keeps one answer of each.
measure() {
    local label=$1 binary=$2 port pid cookies token url path route times
    port=$(free_port)
    "$binary" serve --data "$data" "${store_args[@]}" --host 127.0.0.1 --port "$port" \
        >"$work/serve-$label.log" 2>&1 &
    pid=$!
    cleanup_pids+=("$pid")
    wait_http "$port" /healthz "$pid"
    local base="http://127.0.0.1:$port"
    cookies="$work/cookies-$label.txt"
    token=$(curl -s -c "$cookies" "$base/dashboard/sign-in" |
        sed -n 's/.*name="csrf_token" value="\([0-9a-f]*\)".*/\1/p' | head -n 1)
    [[ $(curl -s -o /dev/null -w '%{http_code}' -b "$cookies" -c "$cookies" --data-urlencode "csrf_token=$token" \
        --data-urlencode "secret_key=$secret" "$base/dashboard/sign-in") == 303 ]] || die "$label: sign-in failed"
    for route in api dashboard; do
        if [[ $route == api ]]; then
            path="/v1/partners?limit=100"
            auth=(-H "Authorization: Bearer $secret")
        else
            path="/dashboard/partners"
            auth=(-b "$cookies")
        fi
        curl -sf "${auth[@]}" "$base$path" >"$work/answer-$label-$route" || die "$label: GET $path failed"
        local args=()  # curl takes one -o per URL
        for _ in $(seq $((requests + 2))); do args+=(-o /dev/null "$base$path"); done
        times=$(curl -s "${auth[@]}" -w '%{http_code} %{time_total}\n' "${args[@]}")
        ! grep -vq '^200 ' <<<"$times" || die "$label: GET $path answered other than 200"
        printf '%-9s %-26s %s\n' "$label" "GET $path" "$(tail -n "$requests" <<<"$times" | cut -d' ' -f2 | percentiles)"
    done
    kill -TERM "$pid"
    wait "$pid" || die "$label: serve exited $?"
}

echo "store: $own partners of org_bench, $others of other organizations (${STORE:-sqlite}); $requests requests each"
if [[ -n "${BASELINE:-}" ]]; then
    measure before "$BASELINE"
    # This build's steps on the baseline's store (the indexes, when the baseline is older), timed; serve would run
    # them at its start.
    start=$(date +%s.%N)
    "$bin" migrate --data "$data" "${store_args[@]}"
    echo "migrate: $(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.2f", e - s }') s"
fi
measure after "$bin"
if [[ -n "${BASELINE:-}" ]]; then
    cmp "$work/answer-before-api" "$work/answer-after-api" || die "GET /v1/partners answers differ"
    for label in before after; do
        sed -e 's/name="csrf_token" value="[0-9a-f]*"/name="csrf_token"/g' -e 's/ nonce="[0-9a-f]*"/ nonce=""/g' \
            "$work/answer-$label-dashboard" \
            >"$work/answer-$label-dashboard.cut"
    done
    cmp "$work/answer-before-dashboard.cut" "$work/answer-after-dashboard.cut" ||
        die "GET /dashboard/partners answers differ"
    echo "answers: the same bytes from both builds (the dashboard's without its CSRF tokens and nonces)"
fi
