# Shared by bench/link.sh and bench/claims.sh (sourced, not run): build, ports, the server, wrk's numbers.
# Everything listens on 127.0.0.1 only.

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

# BUILD_DIR: SwiftPM scratch path (default .build); set it to keep the bench's build apart from others'.
build_dir="${BUILD_DIR:-$root/.build}"
bin=""
work=""
server_pid=""
declare -a cleanup_pids=()

die() {
    echo "FAIL: $*" >&2
    exit 1
}

# Installs wrk, nginx, sqlite3 if missing and builds the release binary into $bin.
prepare() {
    scripts/install-deps.sh bench >&2
    echo "== building tolt-edge (release, scratch path $build_dir)" >&2
    swift build -c release --product tolt-edge --scratch-path "$build_dir" >&2
    bin="$(swift build -c release --product tolt-edge --scratch-path "$build_dir" --show-bin-path)/tolt-edge"
    [[ -x "$bin" ]] || die "no binary at $bin"
    work="$(mktemp -d "${TMPDIR:-/tmp}/tolt-bench.XXXXXX")"
    trap cleanup EXIT
    trap 'exit 130' INT TERM
}

# Stops what we started (by pid) and removes the temp dir, unless KEEP=1.
cleanup() {
    local pid
    for pid in "${cleanup_pids[@]}"; do
        kill -CONT "$pid" 2>/dev/null || true  # a stopped process would not act on the TERM
        kill -TERM "$pid" 2>/dev/null || true
    done
    for pid in "${cleanup_pids[@]}"; do
        wait "$pid" 2>/dev/null || true
    done
    if [[ -n "$work" && "${KEEP:-0}" != 1 ]]; then
        rm -rf "$work"
    elif [[ -n "$work" ]]; then
        echo "kept $work" >&2
    fi
}

# STORE=postgres (else sqlite): the server's store is a throwaway PostgreSQL cluster (the journal stays in the data
# directory), made by scripts/postgres-cluster.sh and stopped at exit. Sets store_args (empty for SQLite) to pass to
# tolt-edge commands. Call after prepare.
store_args=()
choose_store() {
    if [[ "${STORE:-sqlite}" == postgres ]]; then
        pg_dir="$(mktemp -d "${TMPDIR:-/tmp}/tolt-bench-pg.XXXXXX")"  # its own: as root the cluster runs as `postgres`, which cannot enter $work
        store_url="$(scripts/postgres-cluster.sh start "$pg_dir")"
        store_args=(--store "$store_url")
        stop_cluster() { scripts/postgres-cluster.sh stop "$pg_dir" >&2 || true; rm -rf "$pg_dir"; }
        # The servers first (cleanup, keeping $work), then the cluster (and its directory), then $work.
        trap 'keep=${KEEP:-0}; KEEP=1 cleanup 2>/dev/null; stop_cluster; [[ $keep == 1 ]] || rm -rf "$work"' EXIT
    elif [[ "${STORE:-sqlite}" != sqlite ]]; then
        die "STORE must be sqlite or postgres"
    fi
}

# A free TCP port on 127.0.0.1 (the kernel picks one; a tiny race with other programs is accepted).
free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Waits until http://127.0.0.1:$1$2 answers, for up to 10 s; $3 is the pid that must stay alive.
wait_http() {
    local port=$1 path=$2 pid=$3 attempt
    for attempt in $(seq 100); do
        kill -0 "$pid" 2>/dev/null || die "process $pid exited before answering on port $port"
        curl -s -o /dev/null "http://127.0.0.1:$port$path" && return 0
        sleep 0.1
    done
    die "nothing answered on 127.0.0.1:$port$path within 10 s"
}

# Starts `tolt-edge serve` on 127.0.0.1:$1 with data dir $2 and extra arguments; sets $server_pid.
start_server() {
    local port=$1 data=$2
    shift 2
    "$bin" serve --host 127.0.0.1 --port "$port" --data "$data" "$@" >"$work/server.log" 2>&1 &
    server_pid=$!
    cleanup_pids+=("$server_pid")
    wait_http "$port" /healthz "$server_pid"
}

# SIGTERM to the server; waits for it and fails unless it exits 0. Sets $stop_seconds to the time it took.
# Not for $(…): only the shell that started the server can wait for it.
stop_server() {
    local started=$SECONDS status=0
    kill -TERM "$server_pid"
    wait "$server_pid" || status=$?
    stop_seconds=$((SECONDS - started))
    [[ $status -eq 0 ]] || die "tolt-edge exited $status after SIGTERM (log: $work/server.log)"
}

# wrk output → "<req/s> <p50 ms> <p99 ms> <requests> <non-2xx/3xx> <socket errors>".
wrk_numbers() {
    awk '
        function ms(value) {
            if (value ~ /us$/) return substr(value, 1, length(value) - 2) / 1000
            if (value ~ /ms$/) return substr(value, 1, length(value) - 2) + 0
            if (value ~ /s$/) return substr(value, 1, length(value) - 1) * 1000
            return -1
        }
        $1 == "Requests/sec:" { rps = $2 }
        $1 == "50%" { p50 = ms($2) }
        $1 == "99%" { p99 = ms($2) }
        $2 == "requests" && $3 == "in" { requests = $1 }
        /Non-2xx or 3xx responses:/ { bad = $NF }
        /Socket errors:/ { gsub(",", ""); errors = $4 + $6 + $8 + $10 }
        END { printf "%s %s %s %d %d %d\n", rps, p50, p99, requests, bad, errors }
    '
}

# h2load output → the same fields as wrk_numbers; $1 is its --log-file (one line per request, the third column the
# microseconds it took), for the percentiles h2load does not print.
h2load_numbers() {
    local log=$1 p50 p99
    read -r p50 p99 < <(cut -f3 "$log" | sort -n | awk '{ v[NR] = $1 }
        END { if (NR == 0) print "-1 -1"; else printf "%.3f %.3f\n", v[int((NR - 1) * 0.5) + 1] / 1000, v[int((NR - 1) * 0.99) + 1] / 1000 }')
    awk -v p50="$p50" -v p99="$p99" '
        $1 == "finished" && $2 == "in" { rps = $4 }
        $1 == "requests:" { requests = $6; errors = $10 + $12 + $14 }
        $1 == "status" && $2 == "codes:" { bad = $7 + $9 }
        END { printf "%s %s %s %d %d %d\n", rps, p50, p99, requests, bad, errors }
    '
}

# Median of the numbers on standard input, one per line.
median() {
    sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "nan"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# "name ticks" for every thread of the processes $@: its name (spaces as _) and its CPU clock ticks so far
# (user+system).
task_ticks() {
    local pid task stat comm rest
    for pid in "$@"; do
        for task in /proc/"$pid"/task/*; do
            # comm may contain spaces; the fields after the ")" are fixed.
            stat=$(cat "$task/stat" 2>/dev/null) || continue
            comm=${stat#*(}
            comm=${comm%)*}
            rest=${stat##*) }
            read -r -a fields <<<"$rest"
            echo "${comm// /_} $((fields[11] + fields[12]))"
        done
    done
}

# CPU seconds (user+system) per thread name of process $1: "name seconds" lines, summed by name.
thread_cpu() {
    task_ticks "$1" |
        awk -v hz="$(getconf CLK_TCK)" '{ s[$1] += $2 } END { for (n in s) printf "%s %.2f\n", n, s[n] / hz }' | sort
}

# CPU clock ticks (user+system) of every thread of the processes $@, summed.
process_ticks() { task_ticks "$@" | awk '{ s += $2 } END { print s + 0 }'; }

# record_round TARGET ROUND WRK_OUTPUT [CPU_TICKS [PARSER]]: appends the round's numbers to $results, prints them,
# and stops the run when wrk saw error statuses (4xx/5xx; a 3xx is an answer here). With CPU_TICKS, the server
# CPU time the round took, it also records microseconds of server CPU per request (else 0). PARSER reads the
# output instead of wrk_numbers ("h2load_numbers LOG" for h2load).
record_round() {
    local target=$1 round=$2 out=$3 ticks=${4:-0} parser=${5:-wrk_numbers} rps p50 p99 requests bad errors cpu
    # shellcheck disable=SC2086 # PARSER is a function name and its arguments
    read -r rps p50 p99 requests bad errors < <($parser <"$out")
    cpu=$(awk -v t="$ticks" -v hz="$(getconf CLK_TCK)" -v r="$requests" 'BEGIN { printf "%.2f", r ? t * 1e6 / hz / r : 0 }')
    echo "$target $round $rps $p50 $p99 $requests $bad $errors $cpu" >>"$results"
    local cpu_text=""
    [[ -z "${4:-}" ]] || cpu_text=$(printf '  cpu %6.2f us/req' "$cpu")
    printf 'round %d  %-17s %9.0f req/s  p50 %7.3f ms  p99 %7.3f ms%s  non-2xx/3xx %d  socket errors %d\n' \
        "$round" "$target" "$rps" "$p50" "$p99" "$cpu_text" "$bad" "$errors" >&2
    ((bad == 0)) || die "$target: wrk saw $bad responses with status >= 400 (round $round)"
}

# column_median TARGET COLUMN: the median over rounds of one column of $results.
column_median() { awk -v t="$1" -v c="$2" '$1 == t { print $c }' "$results" | median; }

