#!/usr/bin/env bash
# User-Agent classifier vs crawlerdetect (PyPI), side by side, one thread each.
#
#   bench/ua.sh            from the repository root
#   bench/ua.sh --folds    instead: the source-grouped fold scores (whole corpus, then each
#                          fold with all rules and with the rules only its rows touch held out;
#                          see Tests/LinkCoreTests/UserAgent/UserAgentFoldTests.swift)
#
# Input: the UA column of Tests/Fixtures/corpus/ua-dev.tsv (10,778 strings).
# Ours:  `tolt-edge ua --bench` (release build): ~1 s of in-order passes for
#        UAs/s, then ~1 s of per-UA samples (16 calls per clock_gettime pair)
#        for the median ns/UA.
# Theirs: crawlerdetect's isCrawler over the same strings, timed the same two
#        ways with time.perf_counter_ns (single-threaded CPython).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
if [[ "${1:-}" == "--folds" ]]; then
    # Debug build, like `swift test`. The scores are printed whether or not every fold meets its
    # targets; the exit status is the test's.
    status=0
    out="$(swift test --filter UserAgentFoldTests 2>&1)" || status=$?
    grep -E '^(whole corpus|fold |  line |  ✗ |↳ fold )' <<<"$out" || true
    exit "$status"
fi
corpus="$root/Tests/Fixtures/corpus/ua-dev.tsv"
[[ -f "$corpus" ]] || { echo "error: $corpus not found" >&2; exit 1; }

work="$root/.build/bench-ua"
mkdir -p "$work"
tail -n +2 "$corpus" | cut -f4 >"$work/uas.txt"

echo "== building tolt-edge (release)" >&2
swift build -c release --product tolt-edge >&2
bin="$(swift build -c release --show-bin-path)/tolt-edge"

venv="$work/venv"  # under .build/, so nothing new to ignore
if [[ ! -x "$venv/bin/python" ]]; then
    if ! python3 -m venv "$venv" >&2 2>/dev/null; then
        echo "== installing python3-venv (Debian)" >&2
        rm -rf "$venv"
        apt-get update >&2 && apt-get install -y python3-venv >&2
        python3 -m venv "$venv" >&2
    fi
fi
if ! "$venv/bin/python" -c 'import crawlerdetect' 2>/dev/null; then
    echo "== installing crawlerdetect into .build/bench-ua/venv" >&2
    "$venv/bin/pip" install --quiet crawlerdetect >&2
fi

ours="$("$bin" ua --bench <"$work/uas.txt")"

theirs="$("$venv/bin/python" - "$work/uas.txt" <<'PY'
import statistics, sys, time
from importlib.metadata import version
from crawlerdetect import CrawlerDetect

uas = [line.rstrip("\n") for line in open(sys.argv[1], encoding="utf-8", errors="replace")]
detector = CrawlerDetect()
for ua in uas[:200]:  # warm the compiled regexes
    detector.isCrawler(ua)

count, start = 0, time.perf_counter_ns()
while time.perf_counter_ns() - start < 2_000_000_000:
    for ua in uas:
        detector.isCrawler(ua)
    count += len(uas)
elapsed = (time.perf_counter_ns() - start) / 1e9

samples, start = [], time.perf_counter_ns()
for ua in uas:
    before = time.perf_counter_ns()
    detector.isCrawler(ua)
    samples.append(time.perf_counter_ns() - before)
print(f"crawlerdetect {version('crawlerdetect')} on Python {sys.version.split()[0]}")
print(f"throughput: {count / elapsed:.0f} UAs/s (one thread)")
print(f"median: {statistics.median(samples):.1f} ns/UA")
PY
)"

rate() { sed -n 's/^throughput: \([0-9.]*\) UAs\/s.*/\1/p' <<<"$1"; }
median() { sed -n 's/^median: \([0-9.]*\) ns\/UA.*/\1/p' <<<"$1"; }

echo "## tolt-edge ua --bench"
echo "$ours"
echo
echo "## $(head -n1 <<<"$theirs")"
tail -n +2 <<<"$theirs"
echo
awk -v a="$(rate "$ours")" -v b="$(rate "$theirs")" -v c="$(median "$ours")" -v d="$(median "$theirs")" \
    'BEGIN { printf "ratio: %.0fx the throughput, %.0fx lower median latency\n", a / b, d / c }'
