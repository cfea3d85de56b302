#!/usr/bin/env bash
# POST /webhooks/revenuecat/<public_key>: RevenueCat events per second and latency, and the link path while
# webhooks arrive.
#
#   bench/webhook.sh                           from the repository root
#   ROUNDS=5 DURATION=20 bench/webhook.sh      more and longer rounds
#   BUILD_DIR=/work/build-bench bench/webhook.sh   SwiftPM scratch path of the release build
#
# Webhook scenarios, each `wrk -t1 -c16 -d${DURATION}s --latency` with RevenueCat-shaped bodies (the documented
# INITIAL_PURCHASE sample's fields, about 1 KiB) and the organization's Authorization value:
#   new          every request a new event id and transaction of one of 1,000 claimed users: a commission each
#                (one SQLite write transaction: the event, its transaction, its commission);
#   redelivery   64 events stored before the run, delivered again and again: `duplicate`, nothing written;
#   mix          every other request new, the others redeliveries.
# Link scenarios, `wrk -t1 -c64` on GET /a/<key>/<code> with an iPhone User-Agent (a 302 to the deep-link
# template, a click recorded):
#   link         alone;
#   link+paced   while a second wrk sends new webhook events, 4 connections each waiting 10 ms between
#                requests (a few hundred events a second, far above what RevenueCat sends one app);
#   link+flood   while a second wrk sends new webhook events as fast as the server takes them (-c8).
# The webhook scenarios run first, in rounds, then the link scenarios (see below); the tables show medians. The link rows also
# give the CPU the server's loop threads spent per link request: the link path's own cost, which webhooks
# (answered on worker threads) should not raise. On this 2-core machine the server, wrk and the webhook wrk
# share the cores, so req/s beside a flood also shows plain CPU contention.
# After SIGTERM the store must hold every event answered and one commission per new purchase.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

rounds="${ROUNDS:-3}"
duration="${DURATION:-10}"
threads="${THREADS:-2}"
users=1000
seeds=64
authorization="Bearer rc_bench_hook_value"
iphone='Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1'

prepare

data="$work/data"
cat >"$work/config.json" <<JSON
{"organizations":[
  {"id":"org_bench","name":"Bench","public_key":"pk_bench","secret_key":"sk_bench_secret",
   "revenuecat":{"authorization":"$authorization"},
   "programs":[{"id":"prg_bench","name":"Bench App",
     "app_links":{"deep_link_template":"benchapp://claim?tolt_code={code}&tolt_click={click_id}"},
     "commission":{"percent":20,"recurring":true},
     "partners":[{"id":"part_sam","name":"Sam","status":"active","codes":[{"code":"SAM20","active":true}]}]}]}]}
JSON
"$bin" import "$work/config.json" --data "$data" >/dev/null 2> >(grep -v "^warning: " >&2 || true)
port=$(free_port)
start_server "$port" "$data" --threads "$threads" --trusted-proxy 127.0.0.1/32
base="http://127.0.0.1:$port"
hook="$base/webhooks/revenuecat/pk_bench"

# event_body TYPE EVENT_ID USER TRANSACTION: RevenueCat's documented INITIAL_PURCHASE sample with our ids.
event_body() {
    local now
    now="$(date +%s)000"
    printf '{"api_version":"1.0","event":{"event_timestamp_ms":%s,"product_id":"com.subscription.weekly",' "$now"
    printf '"period_type":"NORMAL","purchased_at_ms":%s,"expiration_at_ms":1659331174000,' "$now"
    printf '"environment":"PRODUCTION","entitlement_id":null,"entitlement_ids":["pro"],"presented_offering_id":null,'
    printf '"transaction_id":"%s","original_transaction_id":"%s","is_family_share":false,"country_code":"US",' "$4" "$4"
    printf '"app_user_id":"%s","aliases":["%s"],"original_app_user_id":"%s","currency":"USD","price":9.99,' "$3" "$3" "$3"
    printf '"price_in_purchased_currency":9.99,"subscriber_attributes":{"$email":{"updated_at_ms":1662955084635,'
    printf '"value":"firstlast@gmail.com"}},"store":"APP_STORE","takehome_percentage":0.7,"tax_percentage":0.0,'
    printf '"commission_percentage":0.3,"offer_code":null,"type":"%s","id":"%s","app_id":"1234567890"}}' "$1" "$2"
}

# post_event BODY → "<status> <body>"
post_event() {
    local response
    response=$(curl -s -w '\n%{http_code}' -H 'Content-Type: application/json' -H "Authorization: $authorization" \
        --data "$1" "$hook")
    echo "${response##*$'\n'} $(tr -d '\n' <<<"${response%$'\n'*}")"
}

# --- claims for the users, and the events that will be redelivered.
seen="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
for index in $(seq 0 $((users - 1))); do
    answer=$(curl -s -H 'Content-Type: application/json' -H "X-Forwarded-For: 10.9.$((index / 256)).$((index % 256))" \
        --data "{\"public_id\":\"pk_bench\",\"app_user_id\":\"u_$index\",\"code\":\"SAM20\",\"first_seen_at\":\"$seen\"}" \
        "$base/client/claims")
    [[ "$answer" == *'"status":"claimed"'* ]] || die "claim u_$index answered: $answer"
done
for index in $(seq 0 $((seeds - 1))); do
    event_body RENEWAL "evt-seed-$index" "u_$((index % users))" "tx-seed-$index" >"$work/seed-$index.json"
    answer=$(post_event "$(cat "$work/seed-$index.json")")
    [[ "$answer" == 200*'"outcome":"commission_created"'* ]] || die "seed event $index answered: $answer"
done
answer=$(post_event "$(cat "$work/seed-0.json")")
[[ "$answer" == 200*'"status":"duplicate"'* ]] || die "a redelivery answered: $answer"
answer=$(curl -s -o /dev/null -w '%{http_code}' -H 'Authorization: Bearer wrong' --data '{}' "$hook")
[[ "$answer" == 401 ]] || die "a wrong authorization answered $answer"
echo "ok  $users users claimed; $seeds events stored (commission_created), a redelivery → duplicate," \
    "a wrong authorization → 401" >&2

# New events are the first seed with its ids replaced; redeliveries are the seeds as stored.
cat >"$work/webhook.lua" <<'LUA'
-- args: mode ("new", "redelivery" or "mix"), run tag, user count, seed directory, seed count, delay ms
local counter = 0
local mode, tag, users, seeds, pause
local seed_bodies = {}
function init(args)
    mode, tag, users, pause, seeds = args[1], args[2], tonumber(args[3]), tonumber(args[6]), tonumber(args[5])
    for i = 0, seeds - 1 do
        local file = io.open(args[4] .. "/seed-" .. i .. ".json")
        seed_bodies[i] = file:read("*a")
        file:close()
    end
end
local headers = { ["Content-Type"] = "application/json", ["Authorization"] = os.getenv("HOOK_AUTHORIZATION") }
function delay() return pause end
function request()
    counter = counter + 1
    local body
    if mode == "redelivery" or (mode == "mix" and counter % 2 == 0) then
        body = seed_bodies[counter % seeds]
    else
        local id = tag .. "-" .. counter
        body = seed_bodies[0]:gsub('"id":"evt%-seed%-0"', '"id":"evt-' .. id .. '"')
            :gsub('tx%-seed%-0', 'tx-' .. id)
            :gsub('"u_0"', '"u_' .. (counter % users) .. '"')
    end
    return wrk.format("POST", "/webhooks/revenuecat/pk_bench", headers, body)
end
LUA
export HOOK_AUTHORIZATION="$authorization"

# run_hooks MODE TAG CONNECTIONS DELAY_MS OUTPUT: one webhook wrk run of $duration seconds.
run_hooks() {
    wrk -t1 -c"$3" -d"${duration}s" --latency -s "$work/webhook.lua" "$hook" \
        -- "$1" "$2" "$users" "$work" "$seeds" "$4" >"$5"
}

# Two phases, each in rounds with the order reversed every other round: the webhook scenarios first, then the
# link scenarios. The link rounds record over a million clicks each, which the ingester writes to the same SQLite
# file for a while after: webhook rounds placed after them would measure that backlog, not the webhook.
echo "== $rounds rounds of ${duration}s per scenario; load before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
results="$work/results"
: >"$results"
: >"$work/cpu"
: >"$work/background"
# measure TARGET ROUND: one scenario's run, its loop CPU and its numbers.
measure() {
    local target=$1 round=$2 out="$work/wrk-$1-$2.txt" background=""
    thread_cpu "$server_pid" >"$work/cpu-before"
    case "$target" in
        new | redelivery | mix) run_hooks "$target" "r$round-$target" 16 0 "$out" ;;
        link | link+paced | link+flood)
            if [[ "$target" == link+paced ]]; then
                run_hooks new "r$round-paced" 4 10 "$work/bg-$target-$round.txt" &
                background=$!
            elif [[ "$target" == link+flood ]]; then
                run_hooks new "r$round-flood" 8 0 "$work/bg-$target-$round.txt" &
                background=$!
            fi
            wrk -t1 -c64 -d"${duration}s" --latency -H "User-Agent: $iphone" "$base/a/pk_bench/SAM20" >"$out"
            ;;
    esac
    if [[ -n "$background" ]]; then
        wait "$background"
        read -r bg_rps _ bg_p99 bg_requests bg_bad _ < <(wrk_numbers <"$work/bg-$target-$round.txt")
        ((bg_bad == 0)) || die "$target: the background webhooks saw $bg_bad error answers"
        echo "$target $round $bg_rps $bg_p99 $bg_requests" >>"$work/background"
        printf '         %-17s webhooks beside it: %6.0f events/s  p99 %7.3f ms\n' "$target" "$bg_rps" "$bg_p99" >&2
    fi
    thread_cpu "$server_pid" >"$work/cpu-after"
    join -a2 "$work/cpu-before" "$work/cpu-after" |
        awk -v t="$target" '$1 ~ /^tolt-loop/ { before = NF == 3 ? $2 : 0; s += $NF - before }
            END { printf "%s %.3f\n", t, s }' >>"$work/cpu"
    record_round "$target" "$round" "$out"
}
hook_targets=(new redelivery mix)
link_targets=(link link+paced link+flood)
for phase in hooks links; do
    for round in $(seq "$rounds"); do
        if [[ $phase == hooks ]]; then order=("${hook_targets[@]}"); else order=("${link_targets[@]}"); fi
        if ((round % 2 == 0)); then
            for ((i = ${#order[@]} - 1, j = 0; i > j; i--, j++)); do
                swap=${order[i]}
                order[i]=${order[j]}
                order[j]=$swap
            done
        fi
        for target in "${order[@]}"; do measure "$target" "$round"; done
    done
done

echo
echo "webhooks, median of $rounds rounds, wrk -t1 -c16 -d${duration}s, tolt-edge --threads $threads," \
    "$(nproc) cores, SQLite store in WAL mode, bodies of $(wc -c <"$work/seed-0.json") bytes"
printf '%-11s %11s %10s %10s\n' scenario events/s p50 p99
for target in new redelivery mix; do
    printf '%-11s %11.0f %8.3fms %8.3fms\n' "$target" "$(column_median "$target" 3)" \
        "$(column_median "$target" 4)" "$(column_median "$target" 5)"
done

echo
echo "the link path (wrk -t1 -c64, iPhone → 302), alone and with webhooks arriving, median of $rounds rounds;" \
    "loop CPU/req: CPU of the server's tolt-loop threads per link request, over all rounds"
printf '%-11s %9s %10s %10s %13s %17s %9s\n' scenario req/s p50 p99 'loop CPU/req' 'webhooks beside' 'vs alone'
alone=$(column_median link 3)
for target in link link+paced link+flood; do
    rps=$(column_median "$target" 3)
    requests=$(awk -v t="$target" '$1 == t { s += $6 } END { print s + 0 }' "$results")
    loop_cpu=$(awk -v t="$target" '$1 == t { s += $2 } END { print s + 0 }' "$work/cpu")
    beside=$(awk -v t="$target" '$1 == t { print $3 }' "$work/background" | median)
    [[ "$beside" == nan ]] && beside=0
    printf '%-11s %9.0f %8.3fms %8.3fms %11.2fus %11.0f ev/s %8.2fx\n' "$target" "$rps" \
        "$(column_median "$target" 4)" "$(column_median "$target" 5)" \
        "$(awk -v c="$loop_cpu" -v r="$requests" 'BEGIN { print r ? c * 1e6 / r : 0 }')" "$beside" \
        "$(awk -v a="$rps" -v b="$alone" 'BEGIN { print b ? a / b : 0 }')"
done

# --- every event wrk counted as answered is in the store, with its commission.
answered=$(awk '$1 == "new" { s += $6 } $1 == "mix" { s += int(($6 + 1) / 2) } END { print s + 0 }' "$results")
answered=$((answered + $(awk '{ s += $5 } END { print s + 0 }' "$work/background") + seeds))
stop_server
stored=$(sqlite3 "$data/tolt-edge.sqlite" 'select count(*) from webhook_events')
commissions=$(sqlite3 "$data/tolt-edge.sqlite" 'select count(*) from commissions')
echo
echo "store after SIGTERM: $stored webhook events, $commissions commissions; wrk counted $answered new events" \
    "answered (a request wrk cuts off at the end of a run may be stored without being counted)"
((stored == commissions)) || die "$stored events but $commissions commissions: every event here is a paid purchase"
((stored >= answered)) || die "$((answered - stored)) events answered 200 are missing from the store"
