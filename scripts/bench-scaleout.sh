#!/usr/bin/env bash
# Scale-out: the same array served by 1, 2 and 3 proxy processes, driven as one target (racs
# bench object --endpoint a,b,c: by default round robin, each request to the next proxy; see
# --host-select below) at a fixed client count. For each proxy count it reports the bench's
# throughput (mean and 95% CI of the measured iterations) and the proxies' CPU per request: the
# bench samples the user and system CPU of every proxy process and its descendants over each
# measured iteration (racs bench object --sample-pid) and divides it by the requests the
# iteration completed, with the interval over the iterations (racs-bench/RESULTS-SCHEMA.md,
# sampledCpu).
#
# Where that CPU goes: the same samples, thread by thread, split into groups by the thread's name:
# the JIT compilers, the GC (and "VM Thread", which runs its pauses), the Netty event loops (the S3
# wire), the ForkJoinPool threads (the carriers of the virtual threads the store and the
# repository I/O run on) and the other threads; a thread that ended between two samples is
# "unattributed". Beside them, from this script: the proxies' idle CPU (racs bench cpu over IDLE,
# warm and with no load), the S3 requests and repository calls they answered over the whole bench
# run (their /metrics), and the JVMs' own counters (jstat of the JDK that `./racs java-home`
# prints, read around the bench run): GC events and pause time, JIT compilations and compile time.
#
# The array: 4x2 over six fs repositories (directories under TMPDIR, by default /tmp), or with
# REPOS=minio over six MinIO servers on this machine (their CPU is not counted as the proxies'),
# emptied for each proxy count; the proxies run without coordination (the data path takes no
# cross-proxy lock, so ZooKeeper would change nothing measured here). Over fs, the kernel's work for
# the repositories is the proxies' system time, and on ext4 without a journal a file's creation
# costs more the more files were deleted nearby in the last minutes (the inode allocator checks
# each free inode it meets for a recent deletion), so what ran before a count moves its CPU per
# request: TMPDIR=/dev/shm (tmpfs) takes that out (docs/bench/scaleout.md).
#
# Usage: scripts/bench-scaleout.sh [OUT_DIR] [extra racs bench object options...]
# The extra options go to every bench run, e.g. --host-select sticky: each bench client sends all
# its requests to one proxy (client i to proxy i mod N), as a keep-alive load balancer would,
# instead of each request to the next proxy. The bench's clients share one key space either way,
# so a key one client wrote through one proxy is still read by the others through the others,
# unless --prefix-per-client is added too: each client then has its own keys (c<i>/), prepared,
# read, written, listed and deleted through its own proxy only, so no proxy serves a key another
# stored (work duplicated across proxies vs per-JVM overhead, issue #19). --objects then counts
# per client: --objects 8 at CLIENTS=8 keeps the 64 objects of the shared default, e.g.
#   scripts/bench-scaleout.sh OUT --host-select sticky --prefix-per-client --objects 8
# Environment (defaults in brackets):
#   PROXIES     the proxy counts to run, in order ["1 2 3"]
#   REPOS       fs or minio [fs]
#   CLIENTS     bench clients, the same for every count [8]
#   CLIENTS_PER_PROXY  C: C x N bench clients at N proxies instead (and C per companion), so that
#               with --host-select sticky every proxy holds C clients' connections at every count
#               (with a fixed CLIENTS each holds CLIENTS / N, and its event loops batch less)
#   SIZES       object sizes [1MiB]
#   MIX         the operation mix [put=30,get=70]
#   DURATION    iteration length [10s]
#   ITERATIONS  measured iterations [5]
#   WARMUP      length of the unmeasured run that warms the proxies' JVMs up first [20s]
#   IDLE        how long the warm proxies' CPU is sampled with no load, before the run [10s]
#   RATE_PER_PROXY  unset: closed loop, every client as fast as it can, so 2 cores' worth of load is
#               split N ways. A number R: open loop at R x N requests per second in total (--rate),
#               so every proxy answers R per second whatever N is: the load each proxy of a fleet
#               with a machine each would see, held below what the two cores can do. Each JVM then
#               reaches its compile thresholds as soon as a single proxy does, and its event loops
#               wake as often per request.
#   ROUNDS      how many times the whole sequence of counts runs, interleaved (1 2 3 1 2 3 ...) [1]:
#               with more than one, the summary adds each count's mean CPU per request over the
#               rounds with its 95% interval (racs bench table --merge: Student's t), so that a
#               difference between counts can be told from the run-to-run noise of a shared machine
#   COMPANIONS  with RATE_PER_PROXY, 1 holds the machine's load the same at every count: beside a
#               count N below the largest M, M - N companion proxies run over an array of their own
#               (six more fs directories), driven by a second bench at R x (M - N) requests a
#               second, so that M proxies busy at R each share the two cores at every count, and
#               only the N measured ones share one array. Their CPU is sampled apart (racs bench
#               cpu over the measured run), as companion CPU per request, and not counted as the
#               measured ones'. Then what
#               grows with N is the cost of sharing one array, not the cost of sharing two cores
#               among more busy JVMs, which a fleet with a machine per proxy does not pay [0]
#   PROFILE     where the measured proxies' CPU goes, recorded over the measured run only (started
#               before the CPU samples, stopped after them), into OUT_DIR/<run>/ [unset: none]:
#               jfr: JDK Flight Recorder in each (jcmd JFR.start settings=profile: Java method
#               samples every 10 ms, allocation and lock events), proxy-<i>.jfr, e.g.
#               `jfr view --width 160 hot-methods FILE`;
#               perf: `perf record -e cpu-clock -g` of all of them, perf.data: their time in the
#               kernel by kernel function (Java frames are not resolved), which JFR does not see,
#               e.g. `perf report -i FILE --no-children --sort sym`
#               The recorder's own cost counts, the same at every count.
#   PROXY_CPUS, BENCH_CPUS   taskset CPU lists for the proxies and for the bench (unset: no pinning)
# Writes OUT_DIR/<N>-proxies/ (the bench's report; its results.json holds the sampled CPU),
# OUT_DIR/cpu.tsv (one row per proxy count: requests and repository calls from /metrics, the idle
# CPU, the jstat counters, the companions' requests and CPU seconds) and OUT_DIR/summary.md, and
# prints the summary tables (racs bench table).
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
OUT="${1:-$ROOT/bench-out/scaleout-$(date +%Y%m%d-%H%M%S)}"
shift || true
PROXIES="${PROXIES:-1 2 3}"
REPOS="${REPOS:-fs}"
CLIENTS="${CLIENTS:-8}"
SIZES="${SIZES:-1MiB}"
MIX="${MIX:-put=30,get=70}"
DURATION="${DURATION:-10s}"
ITERATIONS="${ITERATIONS:-5}"
WARMUP="${WARMUP:-20s}"
IDLE="${IDLE:-10s}"
ACCESS_KEY=benchracs
SECRET_KEY=benchracs-secret

for n in $PROXIES; do
  [[ "$n" =~ ^[1-9]$ ]] || {
    echo "bench-scaleout.sh: PROXIES: $PROXIES (expected: counts from 1 to 9, e.g. \"1 2 3\")" >&2
    exit 2
  }
done
[ "$REPOS" = fs ] || [ "$REPOS" = minio ] || {
  echo "bench-scaleout.sh: REPOS: $REPOS (expected: fs or minio)" >&2
  exit 2
}
[[ "$IDLE" =~ ^[0-9]+s$ ]] || {
  echo "bench-scaleout.sh: IDLE: $IDLE (expected seconds, e.g. 10s)" >&2
  exit 2
}
[[ "$CLIENTS" =~ ^[1-9][0-9]*$ ]] || {
  echo "bench-scaleout.sh: CLIENTS: $CLIENTS (expected: a positive number)" >&2
  exit 2
}
CLIENTS_PER_PROXY="${CLIENTS_PER_PROXY:-}"
[ -z "$CLIENTS_PER_PROXY" ] || [[ "$CLIENTS_PER_PROXY" =~ ^[1-9][0-9]*$ ]] || {
  echo "bench-scaleout.sh: CLIENTS_PER_PROXY: $CLIENTS_PER_PROXY (expected: a positive number)" >&2
  exit 2
}
# clients_for N: the bench clients that drive N proxies.
clients_for() {
  if [ -n "$CLIENTS_PER_PROXY" ]; then echo $((CLIENTS_PER_PROXY * $1)); else echo "$CLIENTS"; fi
}
ROUNDS="${ROUNDS:-1}"
[[ "$ROUNDS" =~ ^[1-9][0-9]*$ ]] || {
  echo "bench-scaleout.sh: ROUNDS: $ROUNDS (expected: a positive number)" >&2
  exit 2
}
RATE_PER_PROXY="${RATE_PER_PROXY:-}"
[ -z "$RATE_PER_PROXY" ] || [[ "$RATE_PER_PROXY" =~ ^[1-9][0-9]*$ ]] || {
  echo "bench-scaleout.sh: RATE_PER_PROXY: $RATE_PER_PROXY (expected: requests per second, a positive number)" >&2
  exit 2
}
COMPANIONS="${COMPANIONS:-0}"
case "$COMPANIONS" in
  0) ;;
  1)
    [ -n "$RATE_PER_PROXY" ] || {
      echo "bench-scaleout.sh: COMPANIONS=1 needs RATE_PER_PROXY (the companions' load is R each)" >&2
      exit 2
    }
    [ "$REPOS" = fs ] || {
      echo "bench-scaleout.sh: COMPANIONS=1 needs REPOS=fs" >&2
      exit 2
    }
    for value in "$WARMUP" "$DURATION"; do
      [[ "$value" =~ ^[1-9][0-9]*s$ ]] || {
        echo "bench-scaleout.sh: COMPANIONS=1 needs WARMUP and DURATION in seconds (e.g. 20s): $value" >&2
        exit 2
      }
    done
    ;;
  *)
    echo "bench-scaleout.sh: COMPANIONS: $COMPANIONS (expected: 0 or 1)" >&2
    exit 2
    ;;
esac
MAX_PROXIES=0
for n in $PROXIES; do
  [ "$n" -le "$MAX_PROXIES" ] || MAX_PROXIES="$n"
done

PROXY_PIDS=()
COMPANION_PIDS=()
LAUNCHED_PIDS=()
COMPANION_BENCH=""
PERF_PID=""
stop_proxies() {
  if [ "${#PROXY_PIDS[@]}" -gt 0 ]; then
    kill "${PROXY_PIDS[@]}" 2>/dev/null || true
    wait "${PROXY_PIDS[@]}" 2>/dev/null || true
  fi
  PROXY_PIDS=()
}
# stop_companions: the companions' bench (with the JVM under its launcher), then the companions.
stop_companions() {
  if [ -n "$COMPANION_BENCH" ]; then
    # shellcheck disable=SC2046
    kill $(descendants "$COMPANION_BENCH") 2>/dev/null || true
    wait "$COMPANION_BENCH" 2>/dev/null || true
  fi
  COMPANION_BENCH=""
  if [ "${#COMPANION_PIDS[@]}" -gt 0 ]; then
    kill "${COMPANION_PIDS[@]}" 2>/dev/null || true
    wait "${COMPANION_PIDS[@]}" 2>/dev/null || true
  fi
  COMPANION_PIDS=()
}
init_work scaleout
trap '[ -z "$PERF_PID" ] || kill -INT "$PERF_PID" 2>/dev/null; stop_companions; stop_proxies; [ "${#LAUNCHED_PIDS[@]}" = 0 ] || kill "${LAUNCHED_PIDS[@]}" 2>/dev/null; cleanup' EXIT
mkdir -p "$OUT"

if [ "$REPOS" = minio ]; then
  find_minio
  start_minio_servers 6
  wait_minio_servers
fi

# fresh_array RUN: six empty repositories (directories, or a new bucket "racs-RUN" on each MinIO
# server), and the configuration every proxy of the run shares.
fresh_array() {
  local n="$1" i
  rm -rf "$WORK/repos"
  {
    printf 'array:\n  geometry: 4x2\nserver:\n  credentials:\n'
    printf '    - {accessKey: %s, secretKey: %s}\nrepositories:\n' "$ACCESS_KEY" "$SECRET_KEY"
    for i in 0 1 2 3 4 5; do
      if [ "$REPOS" = minio ]; then
        create_minio_bucket "${MINIO_PORTS[$i]}" "racs-$n"
        printf '  - {name: repo-%d, type: minio, endpoint: "http://127.0.0.1:%s", bucket: racs-%s,' \
          "$i" "${MINIO_PORTS[$i]}" "$n"
        printf ' credentials: {accessKey: %s, secretKey: %s}}\n' "$MINIO_ACCESS_KEY" "$MINIO_SECRET_KEY"
      else
        mkdir -p "$WORK/repos/repo-$i"
        printf '  - {name: repo-%d, type: fs, path: %s}\n' "$i" "$WORK/repos/repo-$i"
      fi
    done
  } >"$WORK/racs.yaml"
  sync
}

# launch_servers CONFIG NAME COUNT: COUNT `racs server` processes over CONFIG, each on free S3 and
# admin ports, logging to WORK/NAME-<i>.log; sets LAUNCHED_PIDS (as each starts, so that the exit
# trap stops them), LAUNCHED_PORTS and LAUNCHED_ADMIN, and returns once all are ready.
launch_servers() {
  local config="$1" name="$2" count="$3" i port admin log
  LAUNCHED_PIDS=()
  LAUNCHED_PORTS=()
  LAUNCHED_ADMIN=()
  for ((i = 1; i <= count; i++)); do
    port="$(free_port)"
    admin="$(free_port)"
    log="$WORK/$name-$i.log"
    (pin "${PROXY_CPUS:-}" "$ROOT/racs" server --config "$config" \
      --listen "127.0.0.1:$port" --admin-listen "127.0.0.1:$admin" --access-log off) >"$log" 2>&1 &
    LAUNCHED_PIDS+=("$!")
    LAUNCHED_PORTS+=("$port")
    LAUNCHED_ADMIN+=("$admin")
  done
  for ((i = 1; i <= count; i++)); do
    log="$WORK/$name-$i.log"
    for _ in $(seq 1 600); do
      grep -q '^ready' "$log" && continue 2
      sleep 0.1
    done
    cat "$log" >&2
    echo "bench-scaleout.sh: $name $i of $count did not start" >&2
    exit 1
  done
}

# start_proxies N: N proxies over the run's configuration (launch_servers); sets PROXY_PIDS,
# PROXY_PORTS and ADMIN_PORTS.
start_proxies() {
  launch_servers "$WORK/racs.yaml" "proxy-$1" "$1"
  PROXY_PIDS=("${LAUNCHED_PIDS[@]}")
  PROXY_PORTS=("${LAUNCHED_PORTS[@]}")
  ADMIN_PORTS=("${LAUNCHED_ADMIN[@]}")
  LAUNCHED_PIDS=()
}

# start_companions N: N `racs server` processes over an array of their own (six more fs
# directories), and a second bench that drives them, open loop, at RATE_PER_PROXY x N requests a
# second with the same options as the measured one, until stop_companions; returns once they are
# ready and the bench has started.
start_companions() {
  local count="$1" i port endpoints=""
  shift
  rm -rf "$WORK/companion"
  {
    printf 'array:\n  geometry: 4x2\nserver:\n  credentials:\n'
    printf '    - {accessKey: %s, secretKey: %s}\nrepositories:\n' "$ACCESS_KEY" "$SECRET_KEY"
    for i in 0 1 2 3 4 5; do
      mkdir -p "$WORK/companion/repo-$i"
      printf '  - {name: repo-%d, type: fs, path: %s}\n' "$i" "$WORK/companion/repo-$i"
    done
  } >"$WORK/companion.yaml"
  launch_servers "$WORK/companion.yaml" companion "$count"
  COMPANION_PIDS=("${LAUNCHED_PIDS[@]}")
  COMPANION_ADMIN=("${LAUNCHED_ADMIN[@]}")
  LAUNCHED_PIDS=()
  for port in "${LAUNCHED_PORTS[@]}"; do
    endpoints="${endpoints:+$endpoints,}http://127.0.0.1:$port"
  done
  # Longer than everything it must run beside (the warmup, the idle sample, the measured run);
  # stop_companions ends it.
  (pin "${BENCH_CPUS:-}" "$ROOT/racs" bench object \
    --endpoint "$endpoints" --access-key "$ACCESS_KEY" --secret-key "$SECRET_KEY" \
    --name "companions" --mix "$MIX" --sizes "$SIZES" --clients "$(clients_for "$count")" \
    --rate $((RATE_PER_PROXY * count)) --warmup 1 --iterations 1 --duration 3600s --quiet \
    --out "$WORK/companions" "$@") >"$WORK/companion-bench.log" 2>&1 &
  COMPANION_BENCH="$!"
}

# descendants PID...: the PIDs and all their descendants (the launcher, java, its stderr filter).
descendants() {
  local pid
  for pid in "$@"; do
    echo "$pid"
    # shellcheck disable=SC2046
    descendants $(ps -o pid= --ppid "$pid" 2>/dev/null || true)
  done
}

# jvm_counters PID...: the JIT's and the GC's own counters of the JVMs among the processes and
# their descendants, summed, as "gc_events gc_seconds compilations compile_seconds" (jstat of the
# JDK the launcher runs, which reads the JVM's hsperfdata without stopping it; gc_seconds is
# jstat's GCT, the time of the stop-the-world pauses, and compile_seconds its compiler Time, the
# wall time spent compiling), or nothing when jstat cannot read one of them. jstat is a JVM of
# its own: call it outside the CPU samples.
jvm_counters() {
  local pid gc jit lines=""
  for pid in $(descendants "$@"); do
    [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = java ] || continue
    gc="$("$JSTAT" -gcutil "$pid" 2>/dev/null |
      awk 'NR == 2 { print $(NF - 6) + $(NF - 4) + $(NF - 2), $NF }')" || gc=""
    jit="$("$JSTAT" -compiler "$pid" 2>/dev/null | awk 'NR == 2 { print $1, $4 }')" || jit=""
    # A JVM jstat cannot read (run with -XX:-UsePerfData) makes the sum nothing rather than a sum
    # that leaves it out.
    [ -n "$gc" ] && [ -n "$jit" ] || return 0
    lines+="$gc $jit"$'\n'
  done
  [ -n "$lines" ] || return 0
  printf '%s' "$lines" | awk '{ e += $1; s += $2; c += $3; t += $4 }
    END { printf "%d %.3f %d %.3f", e, s, c, t }'
}

# jvm_delta BEFORE AFTER: the counters of jvm_counters that grew between the two, tab-separated;
# n/a when either sample has none.
jvm_delta() {
  if [ -z "$1" ] || [ -z "$2" ]; then
    printf 'n/a\tn/a\tn/a\tn/a'
    return
  fi
  awk -v a="$1" -v b="$2" 'BEGIN {
    split(a, x, " "); split(b, y, " ")
    printf "%d\t%.3f\t%d\t%.3f", y[1] - x[1], y[2] - x[2], y[3] - x[3], y[4] - x[4]
  }'
}

# requests_served [ADMIN_PORT...]: the S3 requests the proxies on those admin ports (by default the
# measured ones, ADMIN_PORTS) have answered (their /metrics).
requests_served() {
  local total=0 port count
  [ "$#" -gt 0 ] || set -- "${ADMIN_PORTS[@]}"
  for port in "$@"; do
    count="$(curl -fsS "http://127.0.0.1:$port/metrics" |
      awk '/^racs_s3_requests_total\{/ { s += $NF } END { printf "%d", s }')"
    total=$((total + count))
  done
  echo "$total"
}

# calls_delta BEFORE AFTER: "op=N ..." of the calls made between two repository_calls samples,
# sorted by name.
calls_delta() {
  awk -v a="$1" -v b="$2" 'BEGIN {
    n = split(a, x, " "); for (i = 1; i <= n; i++) { split(x[i], kv, "="); was[kv[1]] = kv[2] }
    n = split(b, y, " ")
    for (i = 1; i <= n; i++) {
      split(y[i], kv, "="); d = kv[2] - was[kv[1]]
      if (d > 0) print kv[1] "=" d
    }
  }' | sort | paste -sd ' ' -
}

# pids_csv PID...: the PIDs joined with commas (for --sample-pid and racs bench cpu --pid).
pids_csv() {
  local IFS=,
  echo "$*"
}

# repository_calls: the repository calls of all running proxies, by operation, as
# "get=N list=N put=N ..." (their /metrics racs_repository_requests_total, summed over repositories).
repository_calls() {
  local port
  for port in "${ADMIN_PORTS[@]}"; do
    curl -fsS "http://127.0.0.1:$port/metrics"
  done | awk '/^racs_repository_requests_total\{/ {
      match($0, /operation="[a-z_]+"/)
      op = substr($0, RSTART + 11, RLENGTH - 12)
      calls[op] += $NF
    }
    END { for (op in calls) printf "%s=%d ", op, calls[op] }'
}

PROFILE="${PROFILE:-}"
case "$PROFILE" in
  "" | jfr) ;;
  perf)
    command -v perf >/dev/null || {
      echo "bench-scaleout.sh: PROFILE=perf needs perf (apt-get install linux-perf)" >&2
      exit 2
    }
    ;;
  *)
    echo "bench-scaleout.sh: PROFILE: $PROFILE (expected: jfr or perf)" >&2
    exit 2
    ;;
esac
JSTAT="$("$ROOT/racs" java-home)/bin/jstat"
JCMD="$("$ROOT/racs" java-home)/bin/jcmd"

# java_pid PID: the JVM among the process and its descendants (the launcher runs it as a child).
java_pid() {
  local pid
  for pid in $(descendants "$1"); do
    [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = java ] && echo "$pid" && return 0
  done
  echo "bench-scaleout.sh: no JVM under process $1" >&2
  return 1
}

# profiler start|stop RUN: with PROFILE=jfr, starts a recording in every measured proxy, or
# stops it into OUT/RUN/proxy-<i>.jfr (jcmd is a JVM of its own: call it outside the CPU samples);
# with PROFILE=perf, the same with one perf record of them all, into OUT/RUN/perf.data.
profiler() {
  local i pid pids=""
  [ -n "$PROFILE" ] || return 0
  mkdir -p "$OUT/$2"
  if [ "$PROFILE" = perf ]; then
    if [ "$1" = start ]; then
      for i in "${!PROXY_PIDS[@]}"; do pids="${pids:+$pids,}$(java_pid "${PROXY_PIDS[$i]}")"; done
      perf record -q -e cpu-clock -F 499 -g -p "$pids" -o "$OUT/$2/perf.data" >"$WORK/perf-$2.log" 2>&1 &
      PERF_PID="$!"
      # perf has attached once it has written its header.
      for _ in $(seq 1 100); do
        [ -s "$OUT/$2/perf.data" ] && return 0
        sleep 0.1
      done
      echo "bench-scaleout.sh: perf record did not start: $(cat "$WORK/perf-$2.log")" >&2
      exit 1
    fi
    kill -INT "$PERF_PID"
    wait "$PERF_PID" || true
    PERF_PID=""
    return 0
  fi
  for i in "${!PROXY_PIDS[@]}"; do
    pid="$(java_pid "${PROXY_PIDS[$i]}")"
    if [ "$1" = start ]; then
      "$JCMD" "$pid" JFR.start name=scaleout settings=profile >/dev/null
    else
      "$JCMD" "$pid" JFR.stop name=scaleout filename="$OUT/$2/proxy-$((i + 1)).jfr" >/dev/null
    fi
  done
}
[ -x "$JSTAT" ] || {
  echo "bench-scaleout.sh: no jstat in the JDK of ./racs java-home ($JSTAT)" >&2
  exit 1
}
{
  printf 'proxies\trequests\tper_proxy_requests\trepository_calls\tidle_cpu_seconds\tidle_seconds\tbench_seconds'
  printf '\tgc_events\tgc_pause_seconds\tcompilations\tcompile_seconds\tround\trun\tcompanions\tcompanion_requests\tcompanion_cpu_seconds\n'
} >"$OUT/cpu.tsv"
for round in $(seq 1 "$ROUNDS"); do
  for n in $PROXIES; do
    # run: the name of this count's results (OUT/<run>), "N-proxies", or "N-proxies-rR" in rounds.
    run="$n-proxies"
    [ "$ROUNDS" = 1 ] || run="$n-proxies-r$round"
    fresh_array "$n-$round"
    companions=0
    if [ "$COMPANIONS" = 1 ] && [ "$n" -lt "$MAX_PROXIES" ]; then
      companions=$((MAX_PROXIES - n))
      start_companions "$companions" "$@"
    fi
    start_proxies "$n"
    endpoints=""
    for port in "${PROXY_PORTS[@]}"; do endpoints="${endpoints:+$endpoints,}http://127.0.0.1:$port"; done
    rate=()
    [ -z "$RATE_PER_PROXY" ] || rate=(--rate $((RATE_PER_PROXY * n)))
    # A throwaway run first: each proxy's JVM compiles its hot paths during its first seconds under
    # load, and that CPU would count against the larger proxy counts (more JVMs to warm up).
    (pin "${BENCH_CPUS:-}" "$ROOT/racs" bench object \
      --endpoint "$endpoints" --access-key "$ACCESS_KEY" --secret-key "$SECRET_KEY" \
      --name "warmup-${n}p" --mix "$MIX" --sizes "$SIZES" --clients "$(clients_for "$n")" "${rate[@]}" \
      --warmup 1 --iterations 1 --duration "$WARMUP" --quiet --out "$WORK/warmup-$run" "$@") >/dev/null
    # The proxies' CPU while idle (warm, no request): what N JVMs cost by just running (GC and JIT
    # threads, timers, the scrub), counted apart so that it is not mistaken for work per request.
    idle_seconds="$("$ROOT/racs" bench cpu --pid "$(pids_csv "${PROXY_PIDS[@]}")" --duration "$IDLE" \
      --format tsv | awk -F '\t' 'NR == 2 { printf "%.2f", $2 + $3 }')"
    per_before=()
    for port in "${ADMIN_PORTS[@]}"; do
      per_before+=("$(curl -fsS "http://127.0.0.1:$port/metrics" | awk '/^racs_s3_requests_total\{/ { s += $NF } END { printf "%d", s }')")
    done
    # jcmd and jstat first: each is a JVM of its own, and its start must not fall inside the
    # measured iterations.
    profiler start "$run"
    jvm_before="$(jvm_counters "${PROXY_PIDS[@]}")"
    requests_before="$(requests_served)"
    companion_before=0
    # With companions, the measured bench runs under racs bench cpu, which samples the companions'
    # CPU over its run; the bench itself samples the measured proxies' over each iteration.
    sample_companions=()
    if [ "$companions" != 0 ]; then
      companion_before="$(requests_served "${COMPANION_ADMIN[@]}")"
      sample_companions=("$ROOT/racs" bench cpu --pid "$(pids_csv "${COMPANION_PIDS[@]}")"
        --format tsv --out "$WORK/companion-cpu-$run.tsv" --)
    fi
    calls_before="$(repository_calls)"
    started="$(date +%s.%N)"
    echo "bench-scaleout.sh: $n proxies (round $round of $ROUNDS): $endpoints" >&2
    (pin "${BENCH_CPUS:-}" ${sample_companions[@]+"${sample_companions[@]}"} "$ROOT/racs" bench object \
      --endpoint "$endpoints" --access-key "$ACCESS_KEY" --secret-key "$SECRET_KEY" \
      --name "racs-${n}p" --mix "$MIX" --sizes "$SIZES" --clients "$(clients_for "$n")" "${rate[@]}" \
      --warmup 1 --iterations "$ITERATIONS" --duration "$DURATION" --confidence 95 \
      --sample-pid "$(pids_csv "${PROXY_PIDS[@]}")" --quiet --out "$OUT/$run" "$@")
    requests_after="$(requests_served)"
    companion_requests=0
    companion_seconds=0.00
    if [ "$companions" != 0 ]; then
      companion_requests=$(($(requests_served "${COMPANION_ADMIN[@]}") - companion_before))
      companion_seconds="$(awk -F '\t' 'NR == 2 { printf "%.2f", $2 + $3 }' "$WORK/companion-cpu-$run.tsv")"
    fi
    calls="$(calls_delta "$calls_before" "$(repository_calls)")"
    jvm="$(jvm_delta "$jvm_before" "$(jvm_counters "${PROXY_PIDS[@]}")")"
    profiler stop "$run"
    bench_seconds="$(awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')"
    split=""
    for i in "${!ADMIN_PORTS[@]}"; do
      after="$(curl -fsS "http://127.0.0.1:${ADMIN_PORTS[$i]}/metrics" | awk '/^racs_s3_requests_total\{/ { s += $NF } END { printf "%d", s }')"
      split="${split:+$split/}$((after - per_before[i]))"
    done
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$n" $((requests_after - requests_before)) \
      "$split" "$calls" "$idle_seconds" "${IDLE%s}" "$bench_seconds" "$jvm" \
      "$round" "$run" "$companions" "$companion_requests" "$companion_seconds" >>"$OUT/cpu.tsv"
    if [ "$companions" -gt 0 ] && ! kill -0 "$COMPANION_BENCH" 2>/dev/null; then
      cat "$WORK/companion-bench.log" >&2
      echo "bench-scaleout.sh: the companions' bench ended before the measured run did" >&2
      exit 1
    fi
    stop_companions
    stop_proxies
  done
done

clients_label="$CLIENTS"
[ -z "$CLIENTS_PER_PROXY" ] || clients_label="$CLIENTS_PER_PROXY per proxy:"
results=()
while read -r run; do results+=("$OUT/$run/results.json"); done < <(awk -F '\t' 'NR > 1 { print $13 }' "$OUT/cpu.tsv")
selection="one target over the proxies"
if [ -n "$*" ]; then selection+=" (extra options: $*)"; else selection+=", round robin"; fi
load="closed loop"
[ -z "$RATE_PER_PROXY" ] || load="open loop at $RATE_PER_PROXY requests/s per proxy"
[ "$COMPANIONS" != 1 ] || load+=", with companion proxies over an array of their own beside each count below $MAX_PROXIES (up to $MAX_PROXIES proxies busy at $RATE_PER_PROXY/s each at every count; only the measured ones counted)"
{
  "$ROOT/racs" bench table "${results[@]}" \
    --columns run,ops,mbps,p99,errors,requests,cpuSeconds,cpuMsPerRequest,switchesPerRequest
  echo
  "$ROOT/racs" bench table "${results[@]}" --columns run,jitMsPerRequest,gcMsPerRequest,eventLoopMsPerRequest,forkJoinMsPerRequest,otherMsPerRequest,unattributedMsPerRequest,userMsPerRequest,systemMsPerRequest
  echo
  # Over the whole bench run, from the proxies' /metrics, the idle sample and jstat.
  awk -F '\t' 'NR == 1 { next }
    NR == 2 {
      print "| run | S3 requests (per proxy) | idle proxy CPU ms/s | repository calls/request | GC events | GC pause ms/request | JIT compilations | compile s | companions: requests, CPU ms/request |"
      print "|---|---|---|---|---|---|---|---|---|"
    }
    {
      r = $2 > 0 ? $2 : 1; calls = ""; total = 0
      n = split($4, kv, " ")
      for (i = 1; i <= n; i++) { split(kv[i], c, "="); total += c[2]; calls = calls sprintf("%s%s %.2f", calls ? ", " : "", c[1], c[2] / r) }
      gc = $8 == "n/a" ? "n/a | n/a | n/a | n/a" : sprintf("%d | %.3f | %d | %.2f", $8, 1000 * $9 / r, $10, $11)
      comp = $14 > 0 ? sprintf("%d, %.2f", $15, $15 > 0 ? 1000 * $16 / $15 : 0) : "none"
      printf "| %s | %d (%s) | %.1f | %.2f (%s) | %s | %s |\n", $13, $2, $3, 1000 * $5 / $6, total / r, calls, gc, comp
    }' "$OUT/cpu.tsv"
  echo
  if [ "$ROUNDS" -gt 1 ]; then
    echo "Over the $ROUNDS rounds, mean and 95% interval of the rounds' values (ms/request):"
    echo
    "$ROOT/racs" bench table "${results[@]}" --merge --confidence 95 --columns target,cpuMsPerRequest,cpuWithoutJitMsPerRequest,forkJoinMsPerRequest,eventLoopMsPerRequest,jitMsPerRequest,userMsPerRequest,systemMsPerRequest
    echo
  fi
  echo "$clients_label clients, $load, $selection. CPU per request is the proxies' CPU over each"
  echo "measured iteration (racs bench object --sample-pid: every proxy process and its descendants)"
  echo "over the requests the iteration completed; the thread groups split the same CPU by thread"
  echo "name, unattributed being the CPU of threads that ended meanwhile. S3 requests, repository"
  echo "calls and the GC and JIT counters (jstat, summed over the proxies' JVMs) cover the whole"
  echo "bench run."
} | tee "$OUT/summary.md"
echo "reports: $(awk -F '\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "run") f = i; next } { print $f }' "$OUT/cpu.tsv" |
  while read -r run; do printf '%s ' "$OUT/$run/report.html"; done)"
