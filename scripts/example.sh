#!/usr/bin/env bash
# Builds the `Tolt` product alone (`swift build --product Tolt`), then Examples/ToltExample, a separate package that
# depends on this one by path and does `import Tolt`, and runs it against a real `tolt-edge serve --demo` on a free
# port: a code, a deep link and a link that is not Tolt's, each a new process, then an unknown code. `Tolt` is a
# dynamic library: the example loads the libTolt.so built beside it (SwiftPM links executables with an $ORIGIN
# run path), so these runs show it is found. The runs share one application-support directory ($XDG_DATA_HOME), so
# the first open the first run stored is what the later ones send; the store is checked for it. Quick: the example
# builds only the SDK. `make test` runs it after the build; SWIFT overrides the `swift` command.
set -euo pipefail
cd "$(dirname "$0")/.."
swift=${SWIFT:-swift}

$swift build --product tolt-edge
# The SDK alone, as an app's build gets it: the `Tolt` product (a dynamic library, libTolt.so here).
$swift build --product Tolt
$swift build --package-path Examples/ToltExample
example=Examples/ToltExample/.build/debug/ToltExample
edge=.build/debug/tolt-edge

scratch=$(mktemp -d)
server=""
cleanup() {
  if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  rm -rf "$scratch"
}
trap cleanup EXIT
fail() { echo "example: $*" >&2; exit 1; }

"$edge" serve --demo --host 127.0.0.1 --port 0 --threads 1 --data "$scratch/data" >"$scratch/serve.log" 2>&1 &
server=$!
port=""
for _ in $(seq 100); do
  port=$(sed -n 's|^tolt-edge listening on http://127.0.0.1:\([0-9]*\) .*|\1|p' "$scratch/serve.log")
  [ -n "$port" ] && break
  kill -0 "$server" 2>/dev/null || fail "tolt-edge serve stopped: $(cat "$scratch/serve.log")"
  sleep 0.1
done
[ -n "$port" ] || fail "tolt-edge serve did not say its port in 10 s: $(cat "$scratch/serve.log")"
url=http://127.0.0.1:$port

# Each run is a new process: the app launched again.
run() { XDG_DATA_HOME="$scratch/xdg" "$example" "$url" pk_demo "$@"; }
expect() {
  local want=$1 got
  shift
  got=$(run "$@") || fail "ToltExample $* failed"
  [ "$got" = "$want" ] || fail "ToltExample $*: '$got', expected '$want'"
}
expect "claimed example-1" SAM20 example-1
stored=$scratch/xdg/ToltExample/Tolt/first-open
[ -s "$stored" ] || fail "no first open in $stored"
first_open=$(tr -d '\n' <"$stored")
expect "claimed example-2" 'demoapp://open?tolt_code=sam20' example-2
expect "already_claimed example-2" SAM20 example-2
expect "no claim" 'demoapp://open?ref=newsletter' example-3
if run NOPE example-4 2>"$scratch/error"; then fail "an unknown code was claimed"; fi
grep -q "unknown_code, HTTP 404" "$scratch/error" || fail "unknown code: $(cat "$scratch/error")"
[ "$(tr -d '\n' <"$stored")" = "$first_open" ] || fail "the first open changed: $(cat "$stored")"

customers=$("$edge" customers --data "$scratch/data" --org org_demo)
for user in example-1 example-2; do
  grep -q "\"customer_id\":\"$user\"" <<<"$customers" || fail "no customer $user: $customers"
done
seen=$(grep -o '"first_seen_at":"[^"]*"' <<<"$customers" | sort -u)
[ "$seen" = "\"first_seen_at\":\"$first_open\"" ] || fail "first_seen_at: $seen, expected $first_open"
echo "example: ToltExample (import Tolt from a package that depends on this one) claimed against tolt-edge;" \
  "first open $first_open kept across 5 launches"
