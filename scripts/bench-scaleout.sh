#!/usr/bin/env bash
# Scale-out: the same array served by 1, 2 and 3 proxy processes, driven as one round-robin
# target (racs bench object --endpoint a,b,c: each request to the next proxy) at a fixed client
# count. For each proxy count it reports the bench's throughput (mean and 95% CI of the measured
# iterations) and the proxies' CPU per request: the CPU seconds (utime + stime from
# /proc/<pid>/stat, summed over every proxy process and its children) consumed between two
# samples, divided by the S3 requests the proxies answered between the same two samples (their
# /metrics racs_s3_requests_total). Both samples bracket the whole bench run, preparation and
# cleanup included, so the two counts cover the same requests.
#
# The array: 4x2 over six fs repositories (directories on this disk), or with REPOS=minio over six
# MinIO servers on this machine (their CPU is not counted as the proxies'), emptied for each proxy
# count; the proxies run without coordination (the data path takes no cross-proxy lock, so
# ZooKeeper would change nothing measured here).
#
# Usage: scripts/bench-scaleout.sh [OUT_DIR] [extra racs bench object options...]
# Environment (defaults in brackets):
#   PROXIES     the proxy counts to run, in order ["1 2 3"]
#   REPOS       fs or minio [fs]
#   CLIENTS     bench clients, the same for every count [8]
#   SIZES       object sizes [1MiB]
#   MIX         the operation mix [put=30,get=70]
#   DURATION    iteration length [10s]
#   ITERATIONS  measured iterations [5]
#   WARMUP      length of the unmeasured run that warms the proxies' JVMs up first [20s]
#   IDLE        how long the warm proxies' CPU is sampled with no load, before the run [10s]
#   PROXY_CPUS, BENCH_CPUS   taskset CPU lists for the proxies and for the bench (unset: no pinning)
# Writes OUT_DIR/<N>-proxies/ (the bench's report), OUT_DIR/cpu.tsv and OUT_DIR/summary.md, and
# prints the summary table.
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

PROXY_PIDS=()
stop_proxies() {
  if [ "${#PROXY_PIDS[@]}" -gt 0 ]; then
    kill "${PROXY_PIDS[@]}" 2>/dev/null || true
    wait "${PROXY_PIDS[@]}" 2>/dev/null || true
  fi
  PROXY_PIDS=()
}
init_work scaleout
trap 'stop_proxies; cleanup' EXIT
mkdir -p "$OUT"

if [ "$REPOS" = minio ]; then
  find_minio
  start_minio_servers 6
  wait_minio_servers
fi

# fresh_array N: six empty repositories (directories, or a new bucket "racs-N" on each MinIO
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

# start_proxies N: N `racs server` processes over the same configuration, each on free S3 and
# admin ports; sets PROXY_PIDS, PROXY_PORTS and ADMIN_PORTS, and returns once all are ready.
start_proxies() {
  local count="$1" i port admin log
  PROXY_PORTS=()
  ADMIN_PORTS=()
  for ((i = 1; i <= count; i++)); do
    port="$(free_port)"
    admin="$(free_port)"
    log="$WORK/proxy-$count-$i.log"
    (pin "${PROXY_CPUS:-}" "$ROOT/racs" server --config "$WORK/racs.yaml" \
      --listen "127.0.0.1:$port" --admin-listen "127.0.0.1:$admin" --access-log off) >"$log" 2>&1 &
    PROXY_PIDS+=("$!")
    PROXY_PORTS+=("$port")
    ADMIN_PORTS+=("$admin")
  done
  for ((i = 1; i <= count; i++)); do
    log="$WORK/proxy-$count-$i.log"
    for _ in $(seq 1 600); do
      grep -q '^ready' "$log" && continue 2
      sleep 0.1
    done
    cat "$log" >&2
    echo "bench-scaleout.sh: proxy $i of $count did not start" >&2
    exit 1
  done
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

# cpu_ticks PID...: utime + stime, in clock ticks, of the processes and all their descendants.
cpu_ticks() {
  local total=0 pid stat fields
  for pid in $(descendants "$@"); do
    stat="$(cat "/proc/$pid/stat" 2>/dev/null)" || continue
    # Fields after the command name, which is in parentheses and may hold spaces: state is the
    # first, utime the 12th and stime the 13th (fields 14 and 15 of proc(5)).
    read -r -a fields <<<"${stat##*) }"
    total=$((total + fields[11] + fields[12]))
  done
  echo "$total"
}

# context_switches PID...: voluntary + involuntary context switches of every thread of the
# processes and all their descendants (/proc/<pid>/task/<tid>/status): how often the proxies'
# threads were put to sleep and woken, which grows with the number of JVMs sharing the cores.
context_switches() {
  local pid
  for pid in $(descendants "$@"); do
    cat /proc/"$pid"/task/*/status 2>/dev/null || true
  done | awk '/^(voluntary|nonvoluntary)_ctxt_switches:/ { s += $2 } END { printf "%d", s }'
}

# requests_served: the S3 requests all running proxies have answered (their /metrics).
requests_served() {
  local total=0 port count
  for port in "${ADMIN_PORTS[@]}"; do
    count="$(curl -fsS "http://127.0.0.1:$port/metrics" |
      awk '/^racs_s3_requests_total\{/ { s += $NF } END { printf "%d", s }')"
    total=$((total + count))
  done
  echo "$total"
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

# calls_delta BEFORE AFTER: "op=N ..." of the calls made between the two samples, sorted by name.
calls_delta() {
  python3 - "$1" "$2" <<'PY'
import sys
before = dict(kv.split("=") for kv in sys.argv[1].split())
after = dict(kv.split("=") for kv in sys.argv[2].split())
print(" ".join(f"{op}={int(after[op]) - int(before.get(op, 0))}" for op in sorted(after)
               if int(after[op]) - int(before.get(op, 0)) > 0))
PY
}

TICKS="$(getconf CLK_TCK)"
printf 'proxies\tcpu_seconds\trequests\tper_proxy_requests\trepository_calls\tidle_cpu_seconds\tidle_seconds\tbench_seconds\tcontext_switches\n' \
  >"$OUT/cpu.tsv"
for n in $PROXIES; do
  fresh_array "$n"
  start_proxies "$n"
  endpoints=""
  for port in "${PROXY_PORTS[@]}"; do endpoints="${endpoints:+$endpoints,}http://127.0.0.1:$port"; done
  # A throwaway run first: each proxy's JVM compiles its hot paths during its first seconds under
  # load, and that CPU would count against the larger proxy counts (more JVMs to warm up).
  (pin "${BENCH_CPUS:-}" "$ROOT/racs" bench object \
    --endpoint "$endpoints" --access-key "$ACCESS_KEY" --secret-key "$SECRET_KEY" \
    --name "warmup-${n}p" --mix "$MIX" --sizes "$SIZES" --clients "$CLIENTS" \
    --warmup 1 --iterations 1 --duration "$WARMUP" --quiet --out "$WORK/warmup-$n" "$@") >/dev/null
  # The proxies' CPU while idle (warm, no request): what N JVMs cost by just running (GC and JIT
  # threads, timers, the scrub), counted apart so that it is not mistaken for work per request.
  idle_before="$(cpu_ticks "${PROXY_PIDS[@]}")"
  sleep "$IDLE"
  idle_ticks=$(($(cpu_ticks "${PROXY_PIDS[@]}") - idle_before))
  per_before=()
  for port in "${ADMIN_PORTS[@]}"; do
    per_before+=("$(curl -fsS "http://127.0.0.1:$port/metrics" | awk '/^racs_s3_requests_total\{/ { s += $NF } END { printf "%d", s }')")
  done
  ticks_before="$(cpu_ticks "${PROXY_PIDS[@]}")"
  requests_before="$(requests_served)"
  calls_before="$(repository_calls)"
  switches_before="$(context_switches "${PROXY_PIDS[@]}")"
  started="$(date +%s.%N)"
  echo "bench-scaleout.sh: $n proxies: $endpoints" >&2
  (pin "${BENCH_CPUS:-}" "$ROOT/racs" bench object \
    --endpoint "$endpoints" --access-key "$ACCESS_KEY" --secret-key "$SECRET_KEY" \
    --name "racs-${n}p" --mix "$MIX" --sizes "$SIZES" --clients "$CLIENTS" \
    --warmup 1 --iterations "$ITERATIONS" --duration "$DURATION" --confidence 95 \
    --quiet --out "$OUT/$n-proxies" "$@")
  ticks_after="$(cpu_ticks "${PROXY_PIDS[@]}")"
  requests_after="$(requests_served)"
  calls="$(calls_delta "$calls_before" "$(repository_calls)")"
  switches=$(($(context_switches "${PROXY_PIDS[@]}") - switches_before))
  bench_seconds="$(awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')"
  split=""
  for i in "${!ADMIN_PORTS[@]}"; do
    after="$(curl -fsS "http://127.0.0.1:${ADMIN_PORTS[$i]}/metrics" | awk '/^racs_s3_requests_total\{/ { s += $NF } END { printf "%d", s }')"
    split="${split:+$split/}$((after - per_before[i]))"
  done
  cpu_seconds="$(awk -v t=$((ticks_after - ticks_before)) -v hz="$TICKS" 'BEGIN { printf "%.2f", t / hz }')"
  idle_seconds="$(awk -v t="$idle_ticks" -v hz="$TICKS" 'BEGIN { printf "%.2f", t / hz }')"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$n" "$cpu_seconds" $((requests_after - requests_before)) \
    "$split" "$calls" "$idle_seconds" "${IDLE%s}" "$bench_seconds" "$switches" >>"$OUT/cpu.tsv"
  stop_proxies
done

python3 - "$OUT" "$PROXIES" "$CLIENTS" <<'PY' | tee "$OUT/summary.md"
import csv, json, os, sys
out, counts, clients = sys.argv[1], sys.argv[2].split(), sys.argv[3]
cpu = {row["proxies"]: row for row in csv.DictReader(open(os.path.join(out, "cpu.tsv")), delimiter="\t")}
print(f"| proxies | ops/s (95% CI) | MB/s | p99 ms | errors | requests (per proxy) | proxy CPU s | proxy CPU ms/request |")
print("|---|---|---|---|---|---|---|---|")
for n in counts:
    points = json.load(open(os.path.join(out, f"{n}-proxies", "results.json")))["points"]
    p = points[0]
    t = p["throughput"]["opsPerSecond"]
    mb = p["throughput"]["megabytesPerSecond"]["mean"]
    p99 = (p.get("latencyMillis") or {}).get("p99")
    c = cpu[n]
    requests = int(c["requests"])
    seconds = float(c["cpu_seconds"])
    per = 1000 * seconds / requests if requests else float("nan")
    ci = "n/a" if t.get("halfWidth") is None else f"{t['halfWidth']:.1f}"
    print(f"| {n} | {t['mean']:.1f} ± {ci} | {mb:.1f} | "
          f"{'n/a' if p99 is None else f'{p99:.1f}'} | {p['errorsTotal']} | "
          f"{requests} ({c['per_proxy_requests']}) | {seconds:.1f} | {per:.2f} |")
print()
ops = sorted({kv.split("=")[0] for n in counts for kv in cpu[n]["repository_calls"].split()})
print("| proxies | idle proxy CPU ms/s | CPU ms/request, idle taken out | context switches/request | "
      + " | ".join(f"repository {op}/request" for op in ops) + " | repository calls/request |")
print("|---|---|---|---|" + "---|" * (len(ops) + 1))
for n in counts:
    c = cpu[n]
    requests = int(c["requests"]) or 1
    idle_rate = float(c["idle_cpu_seconds"]) / float(c["idle_seconds"])
    busy = float(c["cpu_seconds"]) - idle_rate * float(c["bench_seconds"])
    calls = {kv.split("=")[0]: int(kv.split("=")[1]) for kv in c["repository_calls"].split()}
    print(f"| {n} | {1000 * idle_rate:.1f} | {1000 * busy / requests:.2f} | "
          f"{int(c['context_switches']) / requests:.1f} | "
          + " | ".join(f"{calls.get(op, 0) / requests:.2f}" for op in ops)
          + f" | {sum(calls.values()) / requests:.2f} |")
print()
print(f"{clients} clients, one round-robin target over the proxies; CPU per request counts every")
print("request the proxies answered between two samples around the whole bench run.")
PY
echo "reports: $(for n in $PROXIES; do printf '%s ' "$OUT/$n-proxies/report.html"; done)"
