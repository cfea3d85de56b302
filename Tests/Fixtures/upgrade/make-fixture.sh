#!/usr/bin/env bash
# Writes an upgrade fixture: the data directory an older tolt-edge build leaves when it is SIGKILLed right after a
# burst of taps (its SQLite store, with the write-ahead log as the kill left it, and journal segments holding clicks
# not yet stored), and answered.tsv, every tap that build answered. Not run by the tests: it needs the older build.
#
#   make-fixture.sh OLD_TOLT_EDGE_BINARY OUT_DIR full|basic
#
# full: the build has webhooks (2026-12-01 and later): RevenueCat events from Tests/Fixtures/revenuecat too.
set -euo pipefail
bin=$1; out=$2; level=$3
here=$(cd "$(dirname "$0")" && pwd)
revenuecat=$here/../revenuecat
work=$(mktemp -d); data=$work/data; mkdir -p "$data"
pid=
cleanup() { [ -n "$pid" ] && kill -9 "$pid" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
sk=sk_upgrade_fixture; auth="Bearer whsec-upgrade-fixture"
commission=; revenuecat_member=
if [ "$level" = full ]; then
  commission=',"commission":{"percent":20,"recurring":true}'; revenuecat_member=',"revenuecat":{"authorization":"'$auth'"}'
fi
cat >"$work/config.json" <<JSON
{"organizations":[{"id":"org_acme","name":"Acme","public_key":"pk_acme","secret_key":"$sk"$revenuecat_member,
  "programs":[{"id":"prg_acme","name":"Acme Pro","claim_window_days":30$commission,
    "app_links":{"deep_link_template":"myapp://claim?tolt_code={code}&tolt_click={click_id}"},
    "partners":[{"id":"part_sam","name":"Sam","status":"active","codes":[{"code":"SAM20","active":true}]},
                {"id":"part_lee","name":"Lee","status":"active","codes":[{"code":"LEE10","active":true}]}]}]}]}
JSON
"$bin" import "$work/config.json" --data "$data" >/dev/null
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$bin" serve --host 127.0.0.1 --port "$port" --threads 1 --data "$data" >"$work/serve.log" 2>&1 &
pid=$!
for _ in $(seq 100); do curl -fs "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done
base=http://127.0.0.1:$port
: >"$work/answered.tsv"
# tap VISITOR CODE: one tap by an iPhone visitor; appends "click_id<TAB>visitor<TAB>code<TAB>phase" when answered
# 302 (phase: stored, the taps the store held before the burst; journal, the burst's).
phase=stored
tap() {
  local ua="Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile/15E148 Safari/604.1 visitor-$1"
  local location
  location=$(curl -s -o /dev/null -w '%{redirect_url}' -A "$ua" "$base/a/pk_acme/$2")
  [[ $location == *tolt_click=* ]] && printf '%s\t%s\t%s\t%s\n' "${location##*tolt_click=}" "$1" "$2" "$phase" >>"$work/answered.tsv"
}
for visitor in 1 2 3; do tap "$visitor" SAM20; done
tap 1 SAM20; tap 4 LEE10
now=$(date -u +%Y-%m-%dT%H:%M:%SZ)
first_click=$(head -n 1 "$work/answered.tsv" | cut -f 1)
claim() { curl -fs -H 'Content-Type: application/json' --data "$1" "$base/client/claims" >/dev/null; }
claim '{"public_id":"pk_acme","app_user_id":"user_8412","code":"SAM20","first_seen_at":"'"$now"'"}'
claim '{"public_id":"pk_acme","app_user_id":"user_click","click_id":"'"$first_click"'","first_seen_at":"'"$now"'"}'
if [ "$level" = full ]; then
  ms=$(($(date +%s) * 1000))
  for event in initial_purchase renewal cancellation_refund; do
    ms=$((ms + 1000))
    jq -c ".event.purchased_at_ms = $ms | .event.event_timestamp_ms = $ms" "$revenuecat/$event.json" \
      | curl -fs -H "Authorization: $auth" -H 'Content-Type: application/json' --data @- \
        "$base/webhooks/revenuecat/pk_acme" >/dev/null
  done
fi
# Wait until the store lists the five answered taps' distinct clicks, so that the burst is what the journal holds.
want=$(cut -f 1 "$work/answered.tsv" | sort -u | wc -l)
for _ in $(seq 100); do
  got=$(curl -fs -H "Authorization: Bearer $sk" "$base/v1/clicks?limit=100" | jq '.data | length')
  [ "$got" -ge "$want" ] && break; sleep 0.1
done
# The burst: new visitors, a repeat of a stored visitor, a repeat of a burst visitor; then SIGKILL at once. Another
# connection holds the store's write lock meanwhile, so the burst's clicks are in the journal only, as they would be
# had the kill come a few milliseconds sooner.
python3 -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1], isolation_level=None); c.execute("BEGIN IMMEDIATE"); print("locked", flush=True)
sys.stdin.read()' "$data/tolt-edge.sqlite" < <(sleep 30) > "$work/locked" &
locker=$!
for _ in $(seq 100); do [ -s "$work/locked" ] && break; sleep 0.05; done
phase=journal
for visitor in 5 6 2 7 5 8; do tap "$visitor" SAM20; done
kill -9 "$pid"; wait "$pid" 2>/dev/null || true; pid=
kill "$locker"; wait "$locker" 2>/dev/null || true
mkdir -p "$out"
cp "$data"/tolt-edge.sqlite* "$out"/ 2>/dev/null || true
rm -f "$out"/tolt-edge.sqlite-shm
[ -f "$data/node-id" ] && cp "$data/node-id" "$out/"
mkdir -p "$out/journal"; cp "$data"/journal/*.journal "$out/journal/"
cp "$work/answered.tsv" "$out/answered.tsv"
cp "$data"/tolt-edge.sqlite* "$work/" && sqlite3 "$work/tolt-edge.sqlite" 'SELECT count(*) FROM clicks' \
  | sed 's/^/clicks in the store at the kill: /'
ls -l "$out" "$out/journal"
