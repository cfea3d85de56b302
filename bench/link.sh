#!/usr/bin/env bash
# The link path (GET /a/<key>/<code>) against nginx answering a fixed 302, side by side, in one run.
#
#   bench/link.sh                          from the repository root
#   ROUNDS=9 DURATION=20 bench/link.sh     more and longer rounds
#   BUILD_DIR=/work/build-bench bench/link.sh   SwiftPM scratch path of the release build
#   TARGETS="ios-template preview-bot" bench/link.sh   only these tolt-edge targets (nginx always runs)
#   BASELINE=/path/to/older/tolt-edge bench/link.sh    also run another build (say, before a change) as
#                                                       base-<target>, in the same rounds, and compare
#   TLS=0 bench/link.sh                    skip the TLS rounds
#   SERVE_ARGS="--dedupe-window 0" bench/link.sh        extra `serve` options for the measured tolt-edge
#   BASELINE=$PWD/.build/release/tolt-edge BASE_ARGS="--dedupe-window 0" bench/link.sh
#                                          this build with repeat taps on (the default, 1 h) against itself with
#                                          them off, side by side in the same rounds
#   STORE=postgres TLS=0 TARGETS="ios-template desktop-fallback" BASELINE=$PWD/.build/release/tolt-edge bench/link.sh
#                                          the measured tolt-edge on PostgreSQL (a throwaway cluster made by
#                                          scripts/postgres-cluster.sh, --store) against the same build on SQLite
#                                          (base-<target>), side by side in the same rounds
#   TLS=0 TARGETS="desktop-fallback desktop-qr" BASELINE=/path/to/older/tolt-edge bench/link.sh
#                                          the desktop page with its QR code against the older build's page
#                                          without one (base-desktop-fallback), paired per round
#
# wrk taps from one address with one User-Agent, so with repeat taps on (the default) every tap of a target after
# its first is a repeat: the table lookup answers it with the first tap's id and it is journaled as a repeat frame
# (the path a repeat costs). ios-visitors is the same iPhone tap with a User-Agent that changes every request (wrk's
# Lua request(), which costs wrk some speed of its own), so every tap is a first tap: minted, journaled as a click and
# remembered, evicting the oldest once the tables are full, as under a load test of many visitors. The check at the
# end counts taps in the store's hourly click counts, which count repeats, not listed clicks.
#
# Targets, each hit by `wrk -t1 -c64 -d${DURATION}s --latency` once per round, the order reversed every
# other round: nginx with access_log off, nginx with a buffered access log (both `worker_processes` =
# THREADS), and tolt-edge (--threads THREADS) for an iPhone on a program with a deep-link template (302,
# click), an Android phone on a program with only a Google Play URL (302 to Play, click), desktop Chrome
# on that program (200 fallback page, click) and Slack's link expander (200 preview page, no click); and
# desktop-qr: the same desktop tap on a second tolt-edge started with --public-url, whose page carries the QR code
# of the link (drawn once per loop, then cached), measured in the same rounds while the first is stopped (and it
# while the others run), so its ratio to desktop-fallback is the QR code's cost.
# Prints the median req/s, p50, p99 and server CPU per request of each target and its ratio to both nginx
# variants, then the median of the per-round ratios (each target against the nginx rounds of the same round,
# which cancels the drift of a shared machine), and how many rounds' p99 were no worse than nginx's. Then it
# stops tolt-edge with SIGTERM and compares the clicks in its store with the clicking requests wrk counted.
#
# Before that, unless TLS=0, the same over TLS (a self-signed ECDSA P-256 certificate made here with openssl), side by
# side: nginx (ssl, http2, access_log off, the same ciphers) answering the fixed 302, and a second tolt-edge with
# --tls-cert (its own data directory) answering the iPhone tap, each over HTTP/1.1 (wrk, 64 connections) and HTTP/2
# (h2load -t1 -c64 -m1: 64 connections, one stream in flight each; p50/p99 from its per-request log). The cleartext
# tolt-edge is stopped meanwhile, and the TLS one while nginx runs; its clicks are checked after its own SIGTERM.
# Everything listens on 127.0.0.1 only.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

rounds="${ROUNDS:-5}"
duration="${DURATION:-10}"
threads="${THREADS:-2}"

ua_ios='Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1'
ua_android='Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.6367.82 Mobile Safari/537.36'
ua_desktop='Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36'
ua_preview='Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)'
nginx_location='myapp://claim?tolt_code=SAM20&tolt_click=clk_x'

prepare

# --- nginx, two variants, each with its own prefix, pid, logs and temp paths under $work.
start_nginx() {
    local name=$1 port=$2 access_log=$3
    local dir="$work/$name"
    mkdir -p "$dir"
    cat >"$dir/nginx.conf" <<EOF
worker_processes $threads;
daemon off;
pid $dir/nginx.pid;
error_log $dir/error.log warn;
events { worker_connections 1024; }
http {
    $access_log
    keepalive_requests 1000000;
    client_body_temp_path $dir/client_body;
    proxy_temp_path $dir/proxy;
    fastcgi_temp_path $dir/fastcgi;
    uwsgi_temp_path $dir/uwsgi;
    scgi_temp_path $dir/scgi;
    server {
        listen 127.0.0.1:$port reuseport;
        location /a/ { return 302 "$nginx_location"; }
    }
}
EOF
    nginx -p "$dir" -e "$dir/error.log" -c "$dir/nginx.conf" &
    local pid=$!
    cleanup_pids+=("$pid")
    wait_http "$port" /a/x/y "$pid"
    nginx_pid[$name]=$pid
}
declare -A nginx_pid

nolog_port=$(free_port)
start_nginx nginx-nolog "$nolog_port" "access_log off;"
buffered_port=$(free_port)
start_nginx nginx-buffered "$buffered_port" "access_log $work/nginx-buffered/access.log combined buffer=64k;"

# --- tolt-edge with two organizations: one program with a deep-link template, one with only store URLs.
data="$work/data"
cat >"$work/config.json" <<'EOF'
{"organizations":[
  {"id":"org_acme","name":"Acme","public_key":"pk_acme","secret_key":"sk_acme_secret",
   "programs":[{"id":"prg_acme","name":"Acme Pro","claim_window_days":30,
     "app_links":{"deep_link_template":"myapp://claim?tolt_code={code}&tolt_click={click_id}",
                  "google_play_url":"https://play.google.com/store/apps/details?id=com.acme",
                  "app_store_url":"https://apps.apple.com/app/id123456789"},
     "partners":[{"id":"part_sam","name":"Sam","status":"active","codes":[{"code":"SAM20","active":true}]}]}]},
  {"id":"org_beta","name":"Beta","public_key":"pk_beta","secret_key":"sk_beta_secret",
   "programs":[{"id":"prg_beta","name":"Beta Plus","claim_window_days":30,
     "app_links":{"google_play_url":"https://play.google.com/store/apps/details?id=com.beta",
                  "app_store_url":"https://apps.apple.com/app/id987654321"},
     "partners":[{"id":"part_lee","name":"Lee","status":"active","codes":[{"code":"LEE10","active":true}]}]}]}]}
EOF
choose_store
"$bin" import "$work/config.json" --data "$data" "${store_args[@]}" >/dev/null 2> >(grep -v "^warning: " >&2 || true)
port=$(free_port)
# shellcheck disable=SC2086 # SERVE_ARGS is a list of options
start_server "$port" "$data" --threads "$threads" "${store_args[@]}" ${SERVE_ARGS:-}

# target → URL, User-Agent (nginx gets the desktop one), whether tolt-edge records a click for it.
# TARGETS picks tolt-edge's targets (default all five); both nginx variants always run.
server_targets=(${TARGETS:-ios-template ios-visitors android-play desktop-fallback desktop-qr preview-bot})
targets=(nginx-nolog nginx-buffered "${server_targets[@]}")
declare -A url ua clicks
url[nginx-nolog]="http://127.0.0.1:$nolog_port/a/pk_acme/SAM20"
url[nginx-buffered]="http://127.0.0.1:$buffered_port/a/pk_acme/SAM20"
url[ios-template]="http://127.0.0.1:$port/a/pk_acme/SAM20"
url[ios-visitors]="http://127.0.0.1:$port/a/pk_acme/SAM20"
url[android-play]="http://127.0.0.1:$port/a/pk_beta/LEE10"
url[desktop-fallback]="http://127.0.0.1:$port/a/pk_beta/LEE10"
url[preview-bot]="http://127.0.0.1:$port/a/pk_acme/SAM20"
ua[nginx-nolog]="$ua_desktop"
ua[nginx-buffered]="$ua_desktop"
ua[ios-template]="$ua_ios"
ua[ios-visitors]="$ua_ios"
ua[android-play]="$ua_android"
ua[desktop-fallback]="$ua_desktop"
ua[preview-bot]="$ua_preview"
clicks=([nginx-nolog]=0 [nginx-buffered]=0 [ios-template]=1 [ios-visitors]=1 [android-play]=1 [desktop-fallback]=1
    [preview-bot]=0)

# --- desktop-qr: the desktop page with its QR code, from a second tolt-edge with --public-url (its own data
# directory). Its clicks are checked after its own SIGTERM, at the end.
qr_pid=""
if [[ " ${server_targets[*]} " == *" desktop-qr "* ]]; then
    qr_data="$work/qr-data"
    "$bin" import "$work/config.json" --data "$qr_data" >/dev/null 2> >(grep -v "^warning: " >&2 || true)
    qr_port=$(free_port)
    # shellcheck disable=SC2086 # SERVE_ARGS is a list of options, the same as the server it is compared with
    "$bin" serve --host 127.0.0.1 --port "$qr_port" --data "$qr_data" --threads "$threads" \
        --public-url "https://links.example.com" ${SERVE_ARGS:-} >"$work/qr-server.log" 2>&1 &
    qr_pid=$!
    cleanup_pids+=("$qr_pid")
    wait_http "$qr_port" /healthz "$qr_pid"
    url[desktop-qr]="http://127.0.0.1:$qr_port/a/pk_beta/LEE10"
    ua[desktop-qr]="$ua_desktop"
    clicks[desktop-qr]=0  # counted apart, against its own store
fi

# --- BASELINE: another tolt-edge build on a port and data directory of its own, measured in the same rounds as
# base-<target>. Its clicks are not checked at the end (it is killed, not drained).
baseline="${BASELINE:-}"
base_pid=""
if [[ -n "$baseline" ]]; then
    [[ -x "$baseline" ]] || die "BASELINE=$baseline is not an executable"
    "$baseline" import "$work/config.json" --data "$work/base-data" >/dev/null 2> >(grep -v "^warning: " >&2 || true)
    base_port=$(free_port)
    # shellcheck disable=SC2086 # BASE_ARGS is a list of options
    "$baseline" serve --host 127.0.0.1 --port "$base_port" --data "$work/base-data" --threads "$threads" \
        ${BASE_ARGS:-} >"$work/base-server.log" 2>&1 &
    base_pid=$!
    cleanup_pids+=("$base_pid")
    wait_http "$base_port" /healthz "$base_pid"
    for target in "${server_targets[@]}"; do
        [[ "$target" != desktop-qr ]] || continue
        targets+=("base-$target")
        url[base-$target]="${url[$target]/:$port\//:$base_port/}"
        ua[base-$target]="${ua[$target]}"
        clicks[base-$target]=0
    done
fi

# --- every target must answer what it should before anything is measured.
check() {
    local target=$1 want_status=$2 want=$3 got_status location body
    body="$work/check-$target.body"
    read -r got_status location < <(curl -s -o "$body" -w '%{http_code} %header{location}\n' \
        -A "${ua[$target]}" "${url[$target]}")
    [[ "$got_status" == "$want_status" ]] || die "$target: HTTP $got_status, expected $want_status"
    case "$want" in
        location:*) [[ "$location" == "${want#location:}"* ]] ||
            die "$target: location '$location' does not start with '${want#location:}'" ;;
        body:*) grep -qF -- "${want#body:}" "$body" || die "$target: the page lacks '${want#body:}'" ;;
    esac
    echo "ok  $target: $got_status ${location:-$(wc -c <"$body") byte page}" >&2
}
check nginx-nolog 302 "location:myapp://"
check nginx-buffered 302 "location:myapp://"
check ios-template 302 "location:myapp://claim?tolt_code=SAM20&tolt_click=clk_"
check ios-visitors 302 "location:myapp://claim?tolt_code=SAM20&tolt_click=clk_"
check android-play 302 "location:https://play.google.com/store/apps/details?id=com.beta&referrer="
check desktop-fallback 200 'body:data-code="LEE10"'
check preview-bot 200 'body:og:title'
if [[ -n "$qr_pid" ]]; then
    check desktop-qr 200 'body:<div id="qr">'
    if grep -q '<svg ' "$work/check-desktop-fallback.body" 2>/dev/null; then
        die "desktop-fallback: today's page must have no QR code"
    fi
fi
checked_clicks=4  # the four clicking checks above

# --- rounds, the order reversed every other round.
for target in "${targets[@]}"; do
    # Lua long brackets need no escaping for these User-Agents.
    if [[ "$target" == *ios-visitors ]]; then
        # A new visitor every request (the User-Agent's build number counts up): every tap is a first tap, minted
        # and remembered, and once the loops' repeat-tap tables are full each one evicts the oldest.
        cat >"$work/$target.lua" <<LUA
local n = 0
request = function()
  n = n + 1
  return wrk.format(nil, nil, {["User-Agent"] = [[${ua[$target]}]] .. " v" .. n})
end
LUA
    else
        printf 'wrk.headers["User-Agent"] = [[%s]]\n' "${ua[$target]}" >"$work/$target.lua"
    fi
done
echo "== $rounds rounds of wrk -t1 -c64 -d${duration}s --latency per target; load before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
results="$work/results"
: >"$results"
for round in $(seq "$rounds"); do
    order=("${targets[@]}")
    if ((round % 2 == 0)); then
        order=()
        for ((index = ${#targets[@]} - 1; index >= 0; index--)); do order+=("${targets[index]}"); done
    fi
    for target in "${order[@]}"; do
        out="$work/wrk-$target-$round.txt"
        # While nginx is measured, tolt-edge is stopped, so that its ingester (which moves the clicks of the
        # previous rounds into SQLite whenever the link load drops) takes no CPU, disk or cache from nginx.
        # Likewise, with a BASELINE, the tolt-edge build not being measured is stopped.
        nginx=${nginx_pid[$target]:-}
        paused=()
        if [[ -n "$nginx" ]]; then
            pids=("$nginx" $(pgrep -P "$nginx"))
            paused=("$server_pid" $base_pid $qr_pid)
        elif [[ "$target" == base-* ]]; then
            pids=("$base_pid")
            paused=("$server_pid" $qr_pid)
        elif [[ "$target" == desktop-qr ]]; then
            pids=("$qr_pid")
            paused=("$server_pid" $base_pid)
        else
            pids=("$server_pid")
            paused=($base_pid $qr_pid)
        fi
        ((${#paused[@]} == 0)) || kill -STOP "${paused[@]}"
        before=$(process_ticks "${pids[@]}")
        wrk -t1 -c64 -d"${duration}s" --latency -s "$work/$target.lua" "${url[$target]}" >"$out"
        after=$(process_ticks "${pids[@]}")
        ((${#paused[@]} == 0)) || kill -CONT "${paused[@]}"
        record_round "$target" "$round" "$out" $((after - before))
    done
done

# --- medians and ratios.
declare -A rps_of
for target in "${targets[@]}"; do rps_of[$target]=$(column_median "$target" 3); done
echo
echo "link path, median of $rounds rounds, wrk -t1 -c64 -d${duration}s, tolt-edge --threads $threads," \
    "nginx worker_processes $threads, $(nproc) cores"
printf '%-17s %10s %9s %9s %10s %10s %14s\n' target req/s p50 p99 "cpu/req" "vs nolog" "vs buffered"
for target in "${targets[@]}"; do
    printf '%-17s %10.0f %7.3fms %7.3fms %8.2fus %9.2fx %13.2fx\n' "$target" "${rps_of[$target]}" \
        "$(column_median "$target" 4)" "$(column_median "$target" 5)" "$(column_median "$target" 9)" \
        "$(awk -v a="${rps_of[$target]}" -v b="${rps_of[nginx-nolog]}" 'BEGIN { print a / b }')" \
        "$(awk -v a="${rps_of[$target]}" -v b="${rps_of[nginx-buffered]}" 'BEGIN { print a / b }')"
done

# paired_ratio TARGET BASELINE COLUMN: the median over rounds of TARGET's value / BASELINE's in that round.
paired_ratio() {
    awk -v t="$1" -v b="$2" -v c="$3" '
        $1 == t { a[$2] = $c } $1 == b { z[$2] = $c }
        END { for (r in a) if (r in z && z[r] > 0) print a[r] / z[r] }' "$results" | median
}
# p99_rounds TARGET BASELINE: "k/n", the rounds in which TARGET's p99 was no worse than BASELINE's.
p99_rounds() {
    awk -v t="$1" -v b="$2" '
        $1 == t { a[$2] = $5 } $1 == b { z[$2] = $5 }
        END { for (r in a) if (r in z) { n++; if (a[r] <= z[r]) k++ } printf "%d/%d", k, n }' "$results"
}
echo
echo "per round, against the nginx rounds of the same round (median of the ratios; p99: rounds no worse):"
printf '%-17s %10s %14s %12s %14s\n' target "vs nolog" "vs buffered" "p99 nolog" "p99 buffered"
for target in "${targets[@]:2}"; do
    printf '%-17s %9.2fx %13.2fx %12s %14s\n' "$target" \
        "$(paired_ratio "$target" nginx-nolog 3)" "$(paired_ratio "$target" nginx-buffered 3)" \
        "$(p99_rounds "$target" nginx-nolog)" "$(p99_rounds "$target" nginx-buffered)"
done

if [[ -n "$qr_pid" && " ${targets[*]} " == *" desktop-fallback "* ]]; then
    echo
    echo "the desktop page with its QR code against today's page (desktop-fallback), per round:"
    printf '%-17s %10s %12s %14s\n' target "req/s" "cpu/req" "p99 no worse"
    printf '%-17s %9.2fx %11.2fx %14s\n' desktop-qr "$(paired_ratio desktop-qr desktop-fallback 3)" \
        "$(paired_ratio desktop-qr desktop-fallback 9)" "$(p99_rounds desktop-qr desktop-fallback)"
fi

if [[ -n "$qr_pid" && " ${targets[*]} " == *" base-desktop-fallback "* ]]; then
    echo
    echo "the desktop page with its QR code against the BASELINE build's page without one (base-desktop-fallback):"
    printf '%-17s %10s %12s %14s\n' target "req/s" "cpu/req" "p99 no worse"
    printf '%-17s %9.2fx %11.2fx %14s\n' desktop-qr "$(paired_ratio desktop-qr base-desktop-fallback 3)" \
        "$(paired_ratio desktop-qr base-desktop-fallback 9)" "$(p99_rounds desktop-qr base-desktop-fallback)"
fi

if [[ -n "$baseline" ]]; then
    echo
    echo "per round, against the BASELINE build in the same round ($baseline):"
    printf '%-17s %10s %12s %14s\n' target "req/s" "cpu/req" "p99 no worse"
    for target in "${targets[@]:2}"; do
        [[ "$target" == base-* || "$target" == desktop-qr ]] && continue
        printf '%-17s %9.2fx %11.2fx %14s\n' "$target" "$(paired_ratio "$target" "base-$target" 3)" \
            "$(paired_ratio "$target" "base-$target" 9)" "$(p99_rounds "$target" "base-$target")"
    done
    # Its clicks are not counted: no drain to wait for.
    kill -KILL "$base_pid" 2>/dev/null || true
    wait "$base_pid" 2>/dev/null || true
fi

# --- TLS: nginx and tolt-edge over HTTP/1.1 (wrk) and HTTP/2 (h2load), side by side.
if [[ "${TLS:-1}" != 0 ]]; then
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout "$work/tls.key" \
        -out "$work/tls.crt" -days 2 -subj /CN=localhost 2>/dev/null
    tls_ciphers="ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384"
    tls_ciphers+=":ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305"
    nginx_tls_port=$(free_port)
    tls_dir="$work/nginx-tls"
    mkdir -p "$tls_dir"
    cat >"$tls_dir/nginx.conf" <<NGINX
worker_processes $threads;
daemon off;
pid $tls_dir/nginx.pid;
error_log $tls_dir/error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    keepalive_requests 1000000;
    client_body_temp_path $tls_dir/client_body;
    proxy_temp_path $tls_dir/proxy;
    fastcgi_temp_path $tls_dir/fastcgi;
    uwsgi_temp_path $tls_dir/uwsgi;
    scgi_temp_path $tls_dir/scgi;
    server {
        listen 127.0.0.1:$nginx_tls_port ssl http2 reuseport;
        ssl_certificate $work/tls.crt;
        ssl_certificate_key $work/tls.key;
        ssl_protocols TLSv1.2 TLSv1.3;
        ssl_ciphers $tls_ciphers;
        location /a/ { return 302 "$nginx_location"; }
    }
}
NGINX
    nginx -p "$tls_dir" -e "$tls_dir/error.log" -c "$tls_dir/nginx.conf" &
    nginx_tls_pid=$!
    cleanup_pids+=("$nginx_tls_pid")
    tls_data="$work/tls-data"
    "$bin" import "$work/config.json" --data "$tls_data" >/dev/null 2> >(grep -v "^warning: " >&2 || true)
    tls_port=$(free_port)
    "$bin" serve --host 127.0.0.1 --port "$tls_port" --data "$tls_data" --threads "$threads" \
        --tls-cert "$work/tls.crt" --tls-key "$work/tls.key" >"$work/tls-server.log" 2>&1 &
    tls_pid=$!
    cleanup_pids+=("$tls_pid")
    for pid_port in "$nginx_tls_pid:$nginx_tls_port" "$tls_pid:$tls_port"; do
        for attempt in $(seq 101); do
            ((attempt <= 100)) || die "nothing answered over TLS on port ${pid_port#*:} within 10 s"
            kill -0 "${pid_port%%:*}" 2>/dev/null || die "process ${pid_port%%:*} exited before answering over TLS"
            curl -sk -o /dev/null "https://127.0.0.1:${pid_port#*:}/a/x/y" && break
            sleep 0.1
        done
    done
    tls_targets=(nginx-tls-h1 tls-h1-ios nginx-tls-h2 tls-h2-ios)
    declare -A tls_url tls_baseline
    tls_url=([nginx-tls-h1]="https://127.0.0.1:$nginx_tls_port/a/pk_acme/SAM20"
        [nginx-tls-h2]="https://127.0.0.1:$nginx_tls_port/a/pk_acme/SAM20"
        [tls-h1-ios]="https://127.0.0.1:$tls_port/a/pk_acme/SAM20"
        [tls-h2-ios]="https://127.0.0.1:$tls_port/a/pk_acme/SAM20")
    tls_baseline=([nginx-tls-h1]=nginx-tls-h1 [tls-h1-ios]=nginx-tls-h1 [nginx-tls-h2]=nginx-tls-h2
        [tls-h2-ios]=nginx-tls-h2)
    for check in "tls-h1-ios --http1.1" "tls-h2-ios --http2"; do
        target=${check% *}
        read -r version status location < <(curl -sk "${check#* }" -o /dev/null \
            -w '%{http_version} %{http_code} %header{location}\n' -A "$ua_ios" "${tls_url[$target]}")
        [[ "$status" == 302 && "$location" == "myapp://claim?tolt_code=SAM20&tolt_click=clk_"* ]] ||
            die "$target: HTTP/$version $status '$location'"
        echo "ok  $target: HTTP/$version $status $location" >&2
    done
    tls_checked_clicks=2
    printf 'wrk.headers["User-Agent"] = [[%s]]\n' "$ua_ios" >"$work/tls.lua"
    echo "== $rounds TLS rounds per target: wrk -t1 -c64 -d${duration}s (HTTP/1.1), h2load -t1 -c64 -m1" \
        "-D$duration (HTTP/2); load before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
    # The cleartext tolt-edges rest (their ingesters may still be storing earlier rounds' clicks).
    kill -STOP "$server_pid" $qr_pid
    for round in $(seq "$rounds"); do
        order=("${tls_targets[@]}")
        ((round % 2 == 1)) || order=(tls-h2-ios nginx-tls-h2 tls-h1-ios nginx-tls-h1)
        for target in "${order[@]}"; do
            out="$work/tls-$target-$round.txt"
            if [[ "$target" == nginx-* ]]; then
                pids=("$nginx_tls_pid" $(pgrep -P "$nginx_tls_pid"))
                kill -STOP "$tls_pid"
            else
                pids=("$tls_pid")
            fi
            before=$(process_ticks "${pids[@]}")
            if [[ "$target" == *-h1* ]]; then
                wrk -t1 -c64 -d"${duration}s" --latency -s "$work/tls.lua" "${tls_url[$target]}" >"$out"
            else
                rm -f "$out.log"
                h2load -t1 -c64 -m1 -D"$duration" --log-file="$out.log" -H "user-agent: $ua_ios" \
                    "${tls_url[$target]}" >"$out"
            fi
            after=$(process_ticks "${pids[@]}")
            [[ "$target" != nginx-* ]] || kill -CONT "$tls_pid"
            if [[ "$target" == *-h1* ]]; then
                record_round "$target" "$round" "$out" $((after - before))
            else
                record_round "$target" "$round" "$out" $((after - before)) "h2load_numbers $out.log"
            fi
        done
    done
    kill -CONT "$server_pid" $qr_pid
    echo
    echo "TLS, median of $rounds rounds (64 connections, one request in flight each), tolt-edge --threads $threads," \
        "nginx worker_processes $threads, $(nproc) cores"
    printf '%-17s %10s %9s %9s %10s %16s\n' target req/s p50 p99 "cpu/req" "vs nginx (paired)"
    for target in "${tls_targets[@]}"; do
        printf '%-17s %10.0f %7.3fms %7.3fms %8.2fus %15.2fx\n' "$target" "$(column_median "$target" 3)" \
            "$(column_median "$target" 4)" "$(column_median "$target" 5)" "$(column_median "$target" 9)" \
            "$(paired_ratio "$target" "${tls_baseline[$target]}" 3)"
    done
    # The TLS server's clicks: every answered tap must be in its store after its SIGTERM.
    tls_answered=$(awk '$1 == "tls-h1-ios" || $1 == "tls-h2-ios" { sum += $6 - $7 } END { print sum + 0 }' "$results")
    tls_answered=$((tls_answered + tls_checked_clicks))
    tls_started=$SECONDS
    kill -TERM "$tls_pid"
    tls_status=0
    wait "$tls_pid" || tls_status=$?
    ((tls_status == 0)) || die "the TLS tolt-edge exited $tls_status after SIGTERM (log: $work/tls-server.log)"
    tls_stored=$(sqlite3 "$tls_data/tolt-edge.sqlite" 'select coalesce(sum(clicks), 0) from click_counts')
    echo "TLS clicks: $tls_answered answered with a 2xx/3xx, $tls_stored in the store after SIGTERM (drained in" \
        "$((SECONDS - tls_started)) s)"
    ((tls_stored >= tls_answered)) || die "$((tls_answered - tls_stored)) answered TLS clicks are missing"
fi

# --- SIGTERM drains the journal into the store; every answered click must be there.
clicking=()
for target in "${targets[@]}"; do ((clicks[$target])) && clicking+=("$target"); done
answered=$(awk -v list="${clicking[*]}" '
    BEGIN { n = split(list, l, " "); for (i = 1; i <= n; i++) want[l[i]] = 1 }
    want[$1] { sum += $6 - $7 } END { print sum + 0 }' "$results")
answered=$((answered + checked_clicks))
stop_server
# Every tap the store counted, repeat taps included (a repeat is not a listed click).
if [[ ${#store_args[@]} -gt 0 ]]; then
    stored=$(psql "$store_url" -tAc 'select coalesce(sum(clicks), 0) from click_counts')
else
    stored=$(sqlite3 "$data/tolt-edge.sqlite" 'select coalesce(sum(clicks), 0) from click_counts')
fi
echo
echo "clicks: $answered answered with a 2xx/3xx (wrk's count for ${clicking[*]}," \
    "plus $checked_clicks checks), $stored in the store after SIGTERM (drained in ${stop_seconds} s)"
if ((stored < answered)); then
    die "$((answered - stored)) answered clicks are missing from the store (data kept: KEEP=1 keeps $work)"
fi
echo "no click lost; the $((stored - answered)) extra are requests the server answered after wrk stopped counting"

# --- the desktop-qr server's clicks: every answered tap must be in its own store after its SIGTERM.
if [[ -n "$qr_pid" ]]; then
    qr_answered=$(awk '$1 == "desktop-qr" { sum += $6 - $7 } END { print sum + 0 }' "$results")
    qr_answered=$((qr_answered + 1))  # its check
    qr_status=0
    kill -TERM "$qr_pid"
    wait "$qr_pid" || qr_status=$?
    ((qr_status == 0)) || die "the desktop-qr tolt-edge exited $qr_status after SIGTERM (log: $work/qr-server.log)"
    qr_stored=$(sqlite3 "$qr_data/tolt-edge.sqlite" 'select coalesce(sum(clicks), 0) from click_counts')
    echo "desktop-qr clicks: $qr_answered answered with a 2xx/3xx, $qr_stored in its store after SIGTERM"
    ((qr_stored >= qr_answered)) || die "$((qr_answered - qr_stored)) answered desktop-qr clicks are missing"
fi
