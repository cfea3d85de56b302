#!/usr/bin/env bash
# Installs the Debian packages a target needs, only those missing, so `make serve` and `make test` work on a
# bare Debian 12 machine with Swift. Usage: scripts/install-deps.sh build|test|bench
set -euo pipefail
# tzdata: /usr/share/zoneinfo, which GET /v1/stats/clicks reads for its timezone parameter (slim images lack it).
# libpq-dev: the PostgreSQL store's client library (CPostgreSQL).
# curl: the quick start's commands (README) tap the links and call the API with it.
need=(pkg-config libh2o-evloop-dev libsqlite3-dev libpq-dev libssl-dev libmaxminddb-dev libqrencode-dev tzdata curl)
case "${1:-build}" in
  build) ;;
  # The browser tests drive headless Chromium through chromedriver; fonts-liberation (only a Recommends of
  # chromium-common, skipped by --no-install-recommends) gives pages real sans and monospace faces.
  # TLS and HTTP/2 tests make certificates with openssl and tap links with curl (HTTP/2 through nghttp2).
  # zbar-tools' zbarimg decodes the desktop page's QR code from a browser screenshot (it reads PNG itself).
  # postgresql: the throwaway cluster the store tests run against (scripts/with-postgres.sh).
  test) need+=(postgresql sqlite3 chromium chromium-driver fonts-liberation openssl zbar-tools) ;;
  bench) need+=(wrk nginx-light python3-venv sqlite3 valgrind openssl nghttp2-client) ;;
  *) echo "usage: $0 build|test|bench" >&2; exit 2 ;;
esac
missing=()
for package in "${need[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  # A minimal Debian has no sudo: say what to run rather than fail with "sudo: command not found".
  if ! command -v sudo >/dev/null 2>&1; then
    echo "$0: these Debian packages are missing and installing them needs root, but sudo is not installed." >&2
    echo "Run as root: apt-get update && apt-get install -y --no-install-recommends ${missing[*]}" >&2
    echo "(or install sudo and run this again)." >&2
    exit 1
  fi
  sudo="sudo"
fi
echo "installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
