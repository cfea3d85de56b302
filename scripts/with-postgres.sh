#!/usr/bin/env bash
# Runs a command with a throwaway PostgreSQL cluster: TOLT_TEST_POSTGRES holds its URL while the command runs, and
# the cluster is stopped and removed afterwards, whether the command succeeded or not.
#   scripts/with-postgres.sh swift test --filter Store
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: $0 COMMAND [ARGUMENT...]" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d "${TMPDIR:-/tmp}/tolt-postgres.XXXXXX")
cleanup() {
  "$here/postgres-cluster.sh" stop "$dir" || true
  rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
TOLT_TEST_POSTGRES=$("$here/postgres-cluster.sh" start "$dir")
export TOLT_TEST_POSTGRES
"$@"
