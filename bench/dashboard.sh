#!/usr/bin/env bash
# Dashboard page times on a store with a million clicks, and the link path while the dashboard is used.
#
#   bench/dashboard.sh                        from the repository root
#   PAGES=api bench/dashboard.sh              time the JSON API routes instead of the pages (a build without them)
#   REQUESTS=100 ROUNDS=20 bench/dashboard.sh more timed requests per page, more link rounds
#   CLICKS=200000 bench/dashboard.sh          a smaller store (also PARTNERS, CUSTOMERS, DAYS)
#   BUILD_DIR=/work/build-bench bench/dashboard.sh   SwiftPM scratch path of the release build
#   STORE=postgres bench/dashboard.sh         the same on a throwaway PostgreSQL cluster (filled each run, not cached)
#
# 1. The store: `tolt-edge bench-fill` (one organization, pk_bench / sk_bench_secret, CLICKS clicks over DAYS days
#    with their hourly counts, PARTNERS partners, CUSTOMERS customers, their purchases and commissions), cached in
#    bench/.cache/ by its parameters and the day it was made (its clicks end at that day, so the next day fills
#    anew; CACHE=0 always fills), and copied for the run so the server's writes never touch the cache.
# 2. `tolt-edge serve --threads THREADS` on it; sign-in with the form's token and `POST /dashboard/sign-in` (`secret_key`), keeping the
#    `tolt_session` cookie. PAGES=auto (the default) falls back to the API routes, with a note, when the sign-in
#    route is not there (404); PAGES=dashboard fails instead.
# 3. Each page (the dashboard contract's routes; cursors and ids read from the API) answered REQUESTS times in a
#    row by one curl over one connection, after 2 unmeasured: p50, p95 and max of curl's time_total, and whether
#    p95 is under 50 ms. Any answer but 200 stops the run.
# 4. The link path: `wrk -t1 -c64 -d${DURATION}s` on an iPhone tap (302 with a click) alone, then while one curl
#    walks the pages at DASH_RATE requests a second (a person is about 1; 20 is a busy team), alternating the order
#    every other round (so a drift over the run cancels). Per round: req/s, p50, p99, the loop threads' CPU per
#    link request and the rest of the server's CPU (the pages). Over the run: the ratio of summed req/s with the
#    dashboard to without, the median of the round pairs' ratios, p99 and loop CPU per request by mode, and the
#    page times seen under that load. Rounds swing by ±10% on a 2-core VM: use ROUNDS=10 DURATION=5 or more.
# Everything listens on 127.0.0.1 only. KEEP=1 keeps the work directory.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

clicks="${CLICKS:-1000000}"
partners="${PARTNERS:-200}"
customers="${CUSTOMERS:-20000}"
days="${DAYS:-60}"
requests="${REQUESTS:-50}"
rounds="${ROUNDS:-10}"
duration="${DURATION:-5}"
threads="${THREADS:-2}"
dash_rate="${DASH_RATE:-20}"
pages_mode="${PAGES:-auto}"
secret=sk_bench_secret
ua_ios='Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1'

prepare

# --- 1. The store, from the cache or filled now (STORE=postgres: filled now into a throwaway cluster).
choose_store
data="$work/data"
mkdir -p "$data"
if [[ "${STORE:-sqlite}" == postgres ]]; then
    echo "== store: filling $clicks clicks into PostgreSQL (tolt-edge bench-fill)" >&2
    "$bin" bench-fill "${store_args[@]}" --clicks "$clicks" --partners "$partners" --customers "$customers" \
        --days "$days" 2>/dev/null >&2
else
    cache_dir="$root/bench/.cache"
    store_name="dashboard-c$clicks-p$partners-u$customers-d$days-$(date -u +%Y%m%d)"
    if [[ "${CACHE:-1}" == 1 && -f "$cache_dir/$store_name/tolt-edge.sqlite" ]]; then
        echo "== store: cached $cache_dir/$store_name" >&2
    else
        echo "== store: filling $clicks clicks (tolt-edge bench-fill)" >&2
        rm -rf "${cache_dir:?}/$store_name.tmp"
        mkdir -p "$cache_dir/$store_name.tmp"
        "$bin" bench-fill --data "$cache_dir/$store_name.tmp" --clicks "$clicks" --partners "$partners" \
            --customers "$customers" --days "$days" 2>/dev/null >&2
        rm -rf "${cache_dir:?}/$store_name"
        mv "$cache_dir/$store_name.tmp" "$cache_dir/$store_name"
        # Older stores of other days or parameters are not reused: keep the cache to the newest few.
        find "$cache_dir" -maxdepth 1 -name 'dashboard-*' -type d | sort | head -n -3 | xargs -r rm -rf
    fi
    cp --reflink=auto "$cache_dir/$store_name/tolt-edge.sqlite" "$data/tolt-edge.sqlite"
fi

# --- 2. The server and the session.
port=$(free_port)
base="http://127.0.0.1:$port"
start_server "$port" "$data" --threads "$threads" "${store_args[@]}"
cookies="$work/cookies.txt"
# The form first: its token goes back in the post, its cookie (tolt_signin) in the jar.
token=$(curl -s -c "$cookies" "$base/dashboard/sign-in" | sed -n 's/.*name="csrf_token" value="\([0-9a-f]*\)".*/\1/p' | head -n 1)
sign_in=$(curl -s -o /dev/null -w '%{http_code}' -b "$cookies" -c "$cookies" --data-urlencode "csrf_token=$token" \
    --data-urlencode "secret_key=$secret" "$base/dashboard/sign-in")
if [[ "$sign_in" == 303 ]]; then
    grep -q tolt_session "$cookies" || die "sign-in answered 303 without a tolt_session cookie"
    pages_mode=dashboard
elif [[ "$pages_mode" == dashboard ]]; then
    die "POST /dashboard/sign-in answered $sign_in, not 303"
else
    [[ "$pages_mode" == api ]] || echo "== no dashboard in this build (sign-in answered $sign_in): timing the API routes" >&2
    pages_mode=api
fi

# Ids and cursors for the pages, read from the API: a partner, a customer's app user id, the 100th click, customer
# and commission (the second page of each list).
api() { curl -sf -H "Authorization: Bearer $secret" "$base$1"; }
json_field() { python3 -c "import json, sys; d = json.load(sys.stdin)['data']; print(d[$1]['$2'] if len(d) > $1 else '')"; }
partner=part_bench_00001
customer_user=$(api "/v1/customers?limit=1" | json_field 0 customer_id)
click_cursor=$(api "/v1/clicks?limit=100" | json_field 99 id)
customer_cursor=$(api "/v1/customers?limit=100" | json_field 99 id)
commission_cursor=$(api "/v1/commissions?limit=100" | json_field 99 id)
[[ -n "$customer_user" && -n "$click_cursor" && -n "$commission_cursor" ]] || die "the store lists no customers, clicks or commissions"

declare -a names paths
page() { names+=("$1"); paths+=("$2"); }
if [[ "$pages_mode" == dashboard ]]; then
    page overview /dashboard
    page tracking /dashboard/programs/prg_bench_1/tracking
    page partners /dashboard/partners
    page partner "/dashboard/partners/$partner"
    page customers /dashboard/customers
    page customers-page2 "/dashboard/customers?starting_after=$customer_cursor"
    page customer-search "/dashboard/customers?q=$customer_user"
    page commissions /dashboard/commissions
    page commissions-page2 "/dashboard/commissions?starting_after=$commission_cursor"
    page commissions-filtered "/dashboard/commissions?partner_id=$partner&status=pending"
    page clicks /dashboard/clicks
    page clicks-page2 "/dashboard/clicks?starting_after=$click_cursor"
    page clicks-partner "/dashboard/clicks?partner_id=$partner"
    page integrations /dashboard/settings/integrations
    auth=(-b "$cookies")
else
    page stats-30-days /v1/stats/clicks
    page stats-partner "/v1/stats/clicks?partner_id=$partner"
    page customers /v1/customers
    page customers-page2 "/v1/customers?starting_after=$customer_cursor"
    page customer-search "/v1/customers?customer_id=$customer_user"
    page commissions /v1/commissions
    page commissions-page2 "/v1/commissions?starting_after=$commission_cursor"
    page commissions-filtered "/v1/commissions?partner_id=$partner&status=pending"
    page clicks /v1/clicks
    page clicks-page2 "/v1/clicks?starting_after=$click_cursor"
    page clicks-partner "/v1/clicks?partner_id=$partner"
    auth=(-H "Authorization: Bearer $secret")
fi

# fetch_times COUNT PATH: "<status> <seconds>" per request, COUNT requests over one connection (curl takes one
# -o per URL).
fetch_times() {
    local count=$1 path=$2 args=() i
    for ((i = 0; i < count; i++)); do args+=(-o /dev/null "$base$path"); done
    curl -s "${auth[@]}" -w '%{http_code} %{time_total}\n' "${args[@]}"
}

# "p50 p95 max" in milliseconds of the seconds on standard input.
percentiles() {
    sort -g | awk '{ v[NR] = $1 * 1000 } END {
        if (NR == 0) { print "nan nan nan"; exit }
        printf "%.1f %.1f %.1f\n", v[int((NR - 1) * 0.5) + 1], v[int((NR - 1) * 0.95) + 1], v[NR] }'
}

# --- 3. Page times with nothing else running.
results="$work/pages.txt"
echo "== $pages_mode pages, $requests requests each (p50 / p95 / max ms; under 50 ms judged on p95)" >&2
printf '%-22s %8s %8s %8s  %s\n' page p50 p95 max "under 50 ms" | tee -a "$results"
slow=0
for i in "${!names[@]}"; do
    fetch_times 2 "${paths[$i]}" >/dev/null
    out=$(fetch_times "$requests" "${paths[$i]}")
    bad=$(awk '$1 != 200 { print; exit }' <<<"$out")
    [[ -z "$bad" ]] || die "${paths[$i]} answered ${bad%% *}"
    read -r p50 p95 max < <(awk '{ print $2 }' <<<"$out" | percentiles)
    under=$(awk -v p="$p95" 'BEGIN { print (p < 50 ? "yes" : "NO") }')
    [[ "$under" == yes ]] || slow=$((slow + 1))
    printf '%-22s %8s %8s %8s  %s\n' "${names[$i]}" "$p50" "$p95" "$max" "$under" | tee -a "$results"
done

# --- 4. The link path alone and with the dashboard in use, alternating.
link_url="$base/a/pk_bench/P1"
dash_times="$work/dash-under-load.txt"
: >"$dash_times"
# Walks the pages at DASH_RATE requests a second for DURATION seconds (then ends by itself: curl's output would be
# lost if it were killed), appending "<status> <seconds>" lines.
walk_pages() {
    local args=() i
    for ((i = 0; i < dash_rate * duration; i++)); do args+=(-o /dev/null "$base${paths[i % ${#paths[@]}]}"); done
    exec curl -s "${auth[@]}" --rate "$dash_rate/s" -w '%{http_code} %{time_total}\n' "${args[@]}" >>"$dash_times"
}
# Clock ticks the server has used so far: "loops other". The loops are the tolt-loop-N threads; other is the rest of
# the process (mostly Dispatch's API workers, where the pages are rendered; the ingester stands aside under load),
# taken from the process's own total, which keeps the ticks of worker threads that have exited.
thread_ticks() {
    local loops total
    loops=$(task_ticks "$server_pid" | awk '$1 ~ /^tolt-loop/ { s += $2 } END { print s + 0 }')
    read -r -a stat <<<"$(sed 's/.*) //' /proc/"$server_pid"/stat)"
    total=$((stat[11] + stat[12]))
    echo "$loops $((total - loops))"
}
link_round() {
    local out
    out=$(wrk -t1 -c64 -d"${duration}s" --latency -H "User-Agent: $ua_ios" "$link_url")
    wrk_numbers <<<"$out"
}
# One line per measured round: "mode req/s p50 p99 loop-µs-per-request other-cpu-seconds".
rounds_file="$work/rounds.txt"
: >"$rounds_file"
hz=$(getconf CLK_TCK)
echo "== link path: wrk -t1 -c64 -d${duration}s, alone and with the dashboard walked at $dash_rate req/s" >&2
for ((round = 1; round <= rounds; round++)); do
    # alone-dashboard, then dashboard-alone: a drift over the run (it is there: the journal grows) cancels in sums.
    order=(alone dashboard)
    ((round % 2)) || order=(dashboard alone)
    for mode in "${order[@]}"; do
        walker=""
        if [[ "$mode" == dashboard ]]; then
            walk_pages &
            walker=$!
            cleanup_pids+=("$walker")
        fi
        read -r loops0 other0 < <(thread_ticks)
        read -r r p50 p99 n bad errors < <(link_round)
        read -r loops1 other1 < <(thread_ticks)
        [[ -z "$walker" ]] || wait "$walker" || die "curl walking the pages failed"
        ((bad == 0)) || die "the link answered $bad error statuses ($mode, round $round)"
        read -r loop_us other_s < <(awk -v l=$((loops1 - loops0)) -v o=$((other1 - other0)) -v n="$n" -v hz="$hz" \
            'BEGIN { printf "%.2f %.2f\n", l * 1e6 / hz / n, o / hz }')
        echo "$mode $r $p50 $p99 $loop_us $other_s" >>"$rounds_file"
        printf 'round %2d  %-10s %9.0f req/s  p50 %6.3f ms  p99 %6.3f ms  loops %5.2f µs/req  other %4.2f s CPU\n' \
            "$round" "$mode" "$r" "$p50" "$p99" "$loop_us" "$other_s" >&2
    done
done
bad_pages=$(awk '$1 != 200' "$dash_times" | wc -l)
((bad_pages == 0)) || die "$bad_pages dashboard requests under load answered other than 200"
read -r lp50 lp95 lmax < <(awk '{ print $2 }' "$dash_times" | percentiles)
# Per round pair, dashboard over alone; and over the whole run, the sums' ratio (the order alternates, so a steady
# drift cancels) and the medians of p99 and of the loops' CPU per request by mode.
ratios=$(awk '{ v[$1] = $2 } NR % 2 == 0 { printf "%.3f ", v["dashboard"] / v["alone"] }' "$rounds_file")
summary=$(awk '{ s[$1] += $2 } END { printf "%.3f", s["dashboard"] / s["alone"] }' "$rounds_file")
column_median() { awk -v mode="$1" -v c="$2" '$1 == mode { print $c }' "$rounds_file" | median; }
ratio=$(printf '%s\n' $ratios | median)

echo
echo "store: ${STORE:-sqlite}, $clicks clicks, $partners partners, $customers customers over $days days; $threads server threads"
echo "pages ($pages_mode): $((${#names[@]} - slow)) of ${#names[@]} with p95 under 50 ms"
echo "pages under link load: $(wc -l <"$dash_times") requests, p50 $lp50 ms, p95 $lp95 ms, max $lmax ms"
echo "link req/s with the dashboard in use / alone: $summary over the run, median $ratio (round pairs: ${ratios% })"
echo "link p99 (median of rounds): alone $(column_median alone 4) ms, with the dashboard $(column_median dashboard 4) ms"
echo "loop CPU per link request (median of rounds): alone $(column_median alone 5) µs," \
    "with the dashboard $(column_median dashboard 5) µs"
other_note="the pages, on the API workers"
[[ "${STORE:-sqlite}" != postgres ]] || other_note="$other_note; PostgreSQL's own processes not counted"
echo "other server CPU per round (median; $other_note): alone $(column_median alone 6) s," \
    "with the dashboard $(column_median dashboard 6) s"
