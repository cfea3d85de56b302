#!/usr/bin/env bash
# Instructions per link request on the loop thread, counted by valgrind's callgrind (repeatable to a few
# instructions, whatever else the machine does), for this build and optionally a BASELINE build in the same run.
#
#   bench/instructions.sh                                   this build
#   BASELINE=/path/to/older/tolt-edge bench/instructions.sh  and another build, with the ratio
#   SCENARIOS="ios android" bench/instructions.sh            only these (ios android desktop preview)
#
# Each build serves one loop thread (--threads 1) under callgrind, counting only inside h2o_evloop_run (the loop:
# parsing, routing, the handler, the journal write, the response). A Python client sends N taps one after another
# on one keep-alive connection; the count for 2,000 taps is taken from the count for 12,000, so start-up, the first
# requests and the shutdown cancel out, and the rest divided by 10,000 is the cost of one request. The ingester and
# the config watcher run on other threads and are not counted. Everything listens on 127.0.0.1 only.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
prepare

cat >"$work/config.json" <<'JSON'
{"organizations":[
  {"id":"org_acme","name":"Acme","public_key":"pk_acme","secret_key":"sk_acme_secret",
   "programs":[{"id":"prg_acme","name":"Acme Pro",
     "app_links":{"deep_link_template":"myapp://claim?tolt_code={code}&tolt_click={click_id}"},
     "partners":[{"id":"part_sam","name":"Sam","status":"active","codes":[{"code":"SAM20","active":true}]}]}]},
  {"id":"org_beta","name":"Beta","public_key":"pk_beta","secret_key":"sk_beta_secret",
   "programs":[{"id":"prg_beta","name":"Beta Plus",
     "app_links":{"google_play_url":"https://play.google.com/store/apps/details?id=com.beta",
                  "app_store_url":"https://apps.apple.com/app/id987654321"},
     "partners":[{"id":"part_lee","name":"Lee","status":"active","codes":[{"code":"LEE10","active":true}]}]}]}]}
JSON
cat >"$work/client.py" <<'PY'
import socket, sys
port, path, agent, count = int(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4])
connection = socket.create_connection(("127.0.0.1", port))
request = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: {agent}\r\n\r\n".encode()
buffer = b""
for _ in range(count):
    connection.sendall(request)
    while True:
        end = buffer.find(b"\r\n\r\n")
        if end >= 0:
            length = 0
            for line in buffer[:end].decode().split("\r\n")[1:]:
                name, _, value = line.partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            if len(buffer) >= end + 4 + length:
                buffer = buffer[end + 4 + length:]
                break
        chunk = connection.recv(65536)
        if not chunk:
            raise SystemExit("the server closed the connection")
        buffer += chunk
PY

declare -A path agent
path[ios]=/a/pk_acme/SAM20
agent[ios]='Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1'
path[android]=/a/pk_beta/LEE10
agent[android]='Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.6367.82 Mobile Safari/537.36'
path[desktop]=/a/pk_beta/LEE10
agent[desktop]='Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36'
path[preview]=/a/pk_acme/SAM20
agent[preview]='Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)'

# count BINARY SCENARIO TAPS: the instructions callgrind counted inside h2o_evloop_run.
count() {
    local binary=$1 scenario=$2 taps=$3 data port pid
    data="$work/data-$RANDOM$RANDOM"
    # valgrind cannot read the DWARF 5 that clang writes for C targets: count a copy without debug info.
    strip --strip-debug -o "$data.bin" "$binary"
    "$data.bin" import "$work/config.json" --data "$data" >/dev/null 2> >(grep -v "^warning: " >&2 || true)
    port=$(free_port)
    valgrind --tool=callgrind --toggle-collect=h2o_evloop_run --callgrind-out-file="$data.out" \
        "$data.bin" serve --host 127.0.0.1 --port "$port" --data "$data" --threads 1 >"$data.log" 2>&1 &
    pid=$!
    cleanup_pids+=("$pid")
    for _ in $(seq 200); do curl -s -o /dev/null "http://127.0.0.1:$port/healthz" && break; sleep 0.2; done
    python3 "$work/client.py" "$port" "${path[$scenario]}" "${agent[$scenario]}" "$taps"
    kill -TERM "$pid"
    wait "$pid" || die "the server under callgrind exited with an error (log: $data.log)"
    awk '/^summary:/ { print $2 }' "$data.out"
}

# per_request BINARY SCENARIO: instructions of one request.
per_request() {
    local small large
    small=$(count "$1" "$2" 2000)
    large=$(count "$1" "$2" 12000)
    echo $(((large - small) / 10000))
}

baseline="${BASELINE:-}"
printf '%-9s %14s' scenario "this build"
[[ -z "$baseline" ]] || printf ' %14s %8s' baseline ratio
echo
for scenario in ${SCENARIOS:-ios android desktop preview}; do
    ours=$(per_request "$bin" "$scenario")
    printf '%-9s %14d' "$scenario" "$ours"
    if [[ -n "$baseline" ]]; then
        theirs=$(per_request "$baseline" "$scenario")
        printf ' %14d %7.3fx' "$theirs" "$(awk -v a="$ours" -v b="$theirs" 'BEGIN { print a / b }')"
    fi
    echo
done
echo "(instructions per request on the loop thread, callgrind, 12,000 minus 2,000 taps on one connection)"
