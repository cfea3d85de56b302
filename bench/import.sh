#!/usr/bin/env bash
# `tolt-edge import` and `export` with many partners: seconds for a first import, the same file again (no
# change), and an export, for each size. No baseline: the numbers show how the time grows with the partners.
#
#   bench/import.sh                          5,000, 20,000 and 50,000 partners (SIZES="5000 20000 50000")
#   BIN=/path/to/tolt-edge bench/import.sh   another build (default: this one, built in release)
#
# One organization, one program, each partner with one code; a fresh SQLite data directory per size, in a temp
# directory removed on exit (KEEP=1 keeps it).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
if [[ -z "${BIN:-}" ]]; then
    echo "== building tolt-edge (release)" >&2
    swift build -c release --product tolt-edge >&2
    BIN="$(swift build -c release --show-bin-path)/tolt-edge"
fi
work="$(mktemp -d "${TMPDIR:-/tmp}/tolt-bench-import.XXXXXX")"
trap '[[ "${KEEP:-0}" == 1 ]] && echo "kept $work" >&2 || rm -rf "$work"' EXIT

# The seconds `"$@"` took, with its output thrown away (it fails the script if it fails).
seconds() {
    local start end
    start=$(date +%s.%N)
    "$@" >/dev/null
    end=$(date +%s.%N)
    awk -v s="$start" -v e="$end" 'BEGIN { printf "%.2f", e - s }'
}

printf '%9s %14s %16s %10s\n' partners "first import" "import again" export
for size in ${SIZES:-5000 20000 50000}; do
    file="$work/partners-$size.json"
    awk -v n="$size" 'BEGIN {
        printf "{\"organizations\":[{\"id\":\"org_bench\",\"name\":\"Bench\",\"public_key\":\"pk_bench\","
        printf "\"secret_key\":\"sk_bench_secret\",\"programs\":[{\"id\":\"prg_bench\",\"name\":\"Bench\",\"partners\":["
        for (i = 0; i < n; i++) {
            printf "%s{\"id\":\"part_%d\",\"name\":\"Partner %d\",\"status\":\"active\",", (i ? "," : ""), i, i
            printf "\"codes\":[{\"code\":\"CODE%d\",\"active\":true}]}\n", i
        }
        printf "]}]}]}\n"
    }' >"$file"
    data="$work/data-$size"
    first=$(seconds "$BIN" import "$file" --data "$data")
    again=$(seconds "$BIN" import "$file" --data "$data")
    exported=$(seconds "$BIN" export --data "$data")
    printf '%9d %14s %16s %10s\n' "$size" "$first" "$again" "$exported"
done
