#!/usr/bin/env bash
# POST /client/claims on the embedded SQLite store: claims per second, p50 and p99.
#
#   bench/claims.sh                          from the repository root
#   ROUNDS=5 DURATION=20 bench/claims.sh     more and longer rounds
#   BUILD_DIR=/work/build-bench bench/claims.sh   SwiftPM scratch path of the release build
#
# Two scenarios, each hit by `wrk -t1 -c64 -d${DURATION}s --latency` once per round, the order reversed
# every other round:
#   new-users     every request a new app_user_id: a `claimed` answer, one SQLite write transaction each;
#   repeat-users  eight app_user_ids claimed before the run: `already_claimed`, one indexed read each.
# The 30 claims/min/IP limit would cap the run at 30 requests, so the server trusts X-Forwarded-For from
# 127.0.0.1/32 (--trusted-proxy) and every request carries its own 10.x.y.z. A check first shows the limit
# is live (the 31st claim from one address gets 429). Prints medians over rounds, the CPU seconds of the
# server's threads per scenario, and after SIGTERM the customers in the store against the `claimed`
# answers. Everything listens on 127.0.0.1 only.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

rounds="${ROUNDS:-3}"
duration="${DURATION:-10}"
threads="${THREADS:-2}"
repeat_users=8

prepare

data="$work/data"
cat >"$work/config.json" <<'EOF'
{"organizations":[
  {"id":"org_acme","name":"Acme","public_key":"pk_acme","secret_key":"sk_acme_secret",
   "programs":[{"id":"prg_acme","name":"Acme Pro","claim_window_days":30,
     "app_links":{"deep_link_template":"myapp://claim?tolt_code={code}&tolt_click={click_id}",
                  "google_play_url":"https://play.google.com/store/apps/details?id=com.acme",
                  "app_store_url":"https://apps.apple.com/app/id123456789"},
     "partners":[{"id":"part_sam","name":"Sam","status":"active","codes":[{"code":"SAM20","active":true}]}]}]}]}
EOF
"$bin" import "$work/config.json" --data "$data" >/dev/null 2> >(grep -v "^warning: " >&2 || true)
port=$(free_port)
start_server "$port" "$data" --threads "$threads" --trusted-proxy 127.0.0.1/32
url="http://127.0.0.1:$port/client/claims"
seen="$(date -u +%Y-%m-%dT%H:%M:%SZ)"

# claim USER [X-Forwarded-For] → "<status> <body>"
claim() {
    local response
    response=$(curl -s -w '\n%{http_code}' -H 'Content-Type: application/json' -H "X-Forwarded-For: ${2:-192.0.2.1}" \
        --data "{\"public_id\":\"pk_acme\",\"app_user_id\":\"$1\",\"code\":\"SAM20\",\"first_seen_at\":\"$seen\"}" \
        "$url")
    echo "${response##*$'\n'} $(tr -d '\n' <<<"${response%$'\n'*}")"
}

# --- checks: the answers, and that the rate limit is real (so the bench has to step around it).
answer=$(claim u_check 192.0.2.10)
[[ "$answer" == 200*'"status":"claimed"'* ]] || die "a new user's claim answered: $answer"
answer=$(claim u_check 192.0.2.11)
[[ "$answer" == 200*'"status":"already_claimed"'* ]] || die "a repeated claim answered: $answer"
for index in $(seq 0 $((repeat_users - 1))); do
    answer=$(claim "u_repeat_$index" "192.0.2.$((20 + index))")
    [[ "$answer" == 200*'"status":"claimed"'* ]] || die "seeding u_repeat_$index answered: $answer"
done
for attempt in $(seq 30); do
    answer=$(claim u_check 198.51.100.7)
    [[ "$answer" == 200* ]] || die "claim $attempt of 30 from one address answered: $answer"
done
answer=$(claim u_check 198.51.100.7)
[[ "$answer" == 429* ]] || die "the 31st claim in a minute from one address answered: $answer"
echo "ok  new user → claimed, repeat → already_claimed, 31st claim a minute from one address → 429" >&2
checked_new=$((1 + repeat_users))

cat >"$work/claims.lua" <<'EOF'
-- args: mode ("new" or "repeat"), run tag, first_seen_at, repeat user count
local counter = 0
local mode, tag, seen, repeats
function init(args)
    mode, tag, seen, repeats = args[1], args[2], args[3], tonumber(args[4])
end
function request()
    counter = counter + 1
    local user
    if mode == "new" then user = "u_" .. tag .. "_" .. counter else user = "u_repeat_" .. (counter % repeats) end
    -- a distinct client address per request: the server trusts X-Forwarded-For from 127.0.0.1
    local ip = string.format("10.%d.%d.%d", math.floor(counter / 65536) % 256, math.floor(counter / 256) % 256,
        counter % 256)
    local body = '{"public_id":"pk_acme","app_user_id":"' .. user .. '","code":"SAM20","first_seen_at":"'
        .. seen .. '"}'
    return wrk.format("POST", "/client/claims",
        { ["Content-Type"] = "application/json", ["X-Forwarded-For"] = ip }, body)
end
EOF

targets=(new-users repeat-users)
echo "== $rounds rounds of wrk -t1 -c64 -d${duration}s --latency per scenario, X-Forwarded-For 10.x.y.z" \
    "distinct per request (server started with --trusted-proxy 127.0.0.1/32); load before:" \
    "$(cut -d' ' -f1-3 /proc/loadavg)" >&2
results="$work/results"
: >"$results"
declare -A cpu_before
for round in $(seq "$rounds"); do
    order=("${targets[@]}")
    ((round % 2 == 0)) && order=(repeat-users new-users)
    for target in "${order[@]}"; do
        out="$work/wrk-$target-$round.txt"
        thread_cpu "$server_pid" >"$work/cpu-before"
        wrk -t1 -c64 -d"${duration}s" --latency -s "$work/claims.lua" "$url" \
            -- "${target%-users}" "r$round" "$seen" "$repeat_users" >"$out"
        thread_cpu "$server_pid" >"$work/cpu-after"
        join -a2 "$work/cpu-before" "$work/cpu-after" |
            awk -v t="$target" '{ before = NF == 3 ? $2 : 0; print t, $1, $NF - before }' >>"$work/cpu"
        record_round "$target" "$round" "$out"
    done
done

echo
echo "claims, median of $rounds rounds, wrk -t1 -c64 -d${duration}s, tolt-edge --threads $threads," \
    "$(nproc) cores, SQLite store in WAL mode; X-Forwarded-For distinct per request (--trusted-proxy" \
    "127.0.0.1/32) so the 30/min/IP limit does not apply"
printf '%-13s %9s %10s %10s %9s\n' scenario req/s p50 p99 non-2xx
for target in "${targets[@]}"; do
    printf '%-13s %9.0f %8.3fms %8.3fms %9d\n' "$target" "$(column_median "$target" 3)" \
        "$(column_median "$target" 4)" "$(column_median "$target" 5)" \
        "$(awk -v t="$target" '$1 == t { s += $7 } END { print s + 0 }' "$results")"
done

echo
echo "server CPU per thread name, seconds over all rounds ($((rounds * duration)) s of load per scenario;" \
    "'tolt-loop-N': the h2o loops; 'tolt-ingest': the journal ingester; '…default-qos': the Dispatch workers that run" \
    "claims against the store's one connection):"
for target in "${targets[@]}"; do
    awk -v t="$target" -v wall=$((rounds * duration)) '$1 == t && $3 > 0.05 { s[$2] += $3; total += $3 }
        END { printf "  %-13s total %.1f s (%.2f cores):", t, total, total / wall
              for (n in s) printf " %s %.1f", n, s[n]; print "" }' "$work/cpu"
done

# --- every `claimed` answer must be a customer in the store.
claimed=$(awk '$1 == "new-users" { s += $6 - $7 } END { print s + 0 }' "$results")
claimed=$((claimed + checked_new))
stop_server
stored=$(sqlite3 "$data/tolt-edge.sqlite" 'select count(*) from customers')
echo
echo "customers: $claimed claims answered 200 for new users (wrk's count plus $checked_new checks)," \
    "$stored in the store after SIGTERM"
((stored >= claimed)) || die "$((claimed - stored)) claimed customers are missing from the store"
