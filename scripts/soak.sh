#!/usr/bin/env bash
# soak.sh: runs the proxy over real MinIO servers under a steady mixed load for a long time and
# fails if it gives a wrong answer, any unexpected error, or grows after warm-up.
#
#   scripts/soak.sh                 # 10 minutes
#   SOAK_SECONDS=90 scripts/soak.sh
#
# What it starts (all on 127.0.0.1, all gone when it exits): SOAK_MINIO_SERVERS MinIO servers
# (the pinned build of scripts/provision.sh), one repository bucket on each, and `racs server` as a
# 4x2 array over them, with a fixed heap (SOAK_HEAP, committed and touched at start, so that what
# the resident set does afterwards is the proxy's own growth, not the heap being filled in).
#
# The load is two `racs bench object` runs side by side, each one measured iteration as long as the
# soak after writing its objects:
#   - verify: GET 55, PUT 25, HEAD 10, LIST 10 on SOAK_OBJECTS keys of 1 KiB to 1 MiB, with
#     --verify (every GET compared byte for byte with the content of a version that may be current;
#     the bench accepts the versions written concurrently), AWS SDK payloads (CRC32 trailers);
#   - churn: PUT 50, DELETE 50 on keys of its own (1 KiB to 256 KiB), aws-chunked signed payloads.
# Neither has a race that could make a correct proxy fail one of its requests (the verify run never
# deletes, so a GET never races a DELETE), so any error counts.
#
# Every SOAK_SAMPLE_SECONDS it records the proxy's resident set (VmRSS) and open file descriptors,
# from the start of the bench runs (which first write their objects) to their end (they keep their
# objects, so the last samples are of the steady load, not of a clean-up). Warm-up is the first
# fifth of that time (at least 60 s). Growth is the smallest of the last three
# samples minus the largest of the first three after warm-up, so a single spike neither hides nor
# fakes a trend.
#
# Exit status: 0 when all of these hold, else 1 (with the summary saying which failed):
#   - no VERIFY_MISMATCH (a wrong answer) and no other error in either bench run;
#   - resident set growth after warm-up <= SOAK_RSS_GROWTH_MIB (default 64);
#   - open file descriptor growth after warm-up <= SOAK_FD_GROWTH (default 32);
#   - the proxy is still running at the end and logged no ERROR line.
# A failure to set up (the build, MinIO, the proxy) exits 2.
#
# Environment (defaults in brackets): SOAK_SECONDS [600], SOAK_SAMPLE_SECONDS [5],
# SOAK_MINIO_SERVERS [6], SOAK_CLIENTS [4] (verify run; the churn run has half),
# SOAK_OBJECTS [200], SOAK_HEAP [512m], SOAK_RSS_GROWTH_MIB [64], SOAK_FD_GROWTH [32],
# SOAK_SEED [a fresh one, printed], SOAK_KEEP (set: keep the work directory and print its path).
set -euo pipefail

. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

SOAK_SECONDS="${SOAK_SECONDS:-600}"
SOAK_SAMPLE_SECONDS="${SOAK_SAMPLE_SECONDS:-5}"
SOAK_MINIO_SERVERS="${SOAK_MINIO_SERVERS:-6}"
SOAK_CLIENTS="${SOAK_CLIENTS:-4}"
SOAK_OBJECTS="${SOAK_OBJECTS:-200}"
SOAK_HEAP="${SOAK_HEAP:-512m}"
SOAK_RSS_GROWTH_MIB="${SOAK_RSS_GROWTH_MIB:-64}"
SOAK_FD_GROWTH="${SOAK_FD_GROWTH:-32}"
SOAK_SEED="${SOAK_SEED:-$((RANDOM * 32768 + RANDOM))}"

setup_failed() {
  echo "soak: $*" >&2
  exit 2
}

for name in SOAK_SECONDS SOAK_SAMPLE_SECONDS SOAK_MINIO_SERVERS SOAK_CLIENTS SOAK_OBJECTS \
  SOAK_RSS_GROWTH_MIB SOAK_FD_GROWTH SOAK_SEED; do
  [[ "${!name}" =~ ^[0-9]+$ ]] || setup_failed "$name: ${!name} (expected: a whole number)"
done
[ "$SOAK_SECONDS" -ge 60 ] || setup_failed "SOAK_SECONDS: $SOAK_SECONDS (expected: at least 60)"
[ "$SOAK_MINIO_SERVERS" -eq 6 ] || [ "$SOAK_MINIO_SERVERS" -eq 3 ] ||
  setup_failed "SOAK_MINIO_SERVERS: $SOAK_MINIO_SERVERS (expected: 6, or 3 with two buckets each)"

init_work soak
[ -z "${SOAK_KEEP:-}" ] || KEEP_WORK=1
BENCH_PIDS=()
trap 'cleanup ${BENCH_PIDS[@]+"${BENCH_PIDS[@]}"}' EXIT

echo "soak: seed $SOAK_SEED (replay with SOAK_SEED=$SOAK_SEED), ${SOAK_SECONDS}s, work $WORK"
# The launcher builds the jars when the sources are newer; do it now, not inside a timed wait.
"$ROOT/racs" server --help >/dev/null 2>&1 || setup_failed "cannot build or run ./racs"
find_minio

start_minio_servers "$SOAK_MINIO_SERVERS"
(wait_minio_servers) || setup_failed "a MinIO server did not start"

RACS_PORT="$(free_port)"
{
  echo "array:"
  echo "  geometry: 4x2"
  echo "server:"
  echo "  listen: 127.0.0.1:$RACS_PORT"
  echo "  adminListen: off"
  echo "  credentials:"
  echo "    - {accessKey: soakracs, secretKey: soakracs-secret-key}"
  echo "repositories:"
  for slot in 0 1 2 3 4 5; do
    i=$((slot % SOAK_MINIO_SERVERS))
    bucket="racs-slot-$slot"
    create_minio_bucket "${MINIO_PORTS[$i]}" "$bucket" ||
      setup_failed "cannot create bucket $bucket on MinIO at 127.0.0.1:${MINIO_PORTS[$i]}"
    echo "  - name: minio-$slot"
    echo "    type: minio"
    echo "    endpoint: http://127.0.0.1:${MINIO_PORTS[$i]}"
    echo "    bucket: $bucket"
    echo "    credentials: {accessKey: $MINIO_ACCESS_KEY, secretKey: $MINIO_SECRET_KEY}"
  done
} >"$WORK/racs.yaml"

RACS_NO_BUILD=1 RACS_JAVA_OPTS="-Xms$SOAK_HEAP -Xmx$SOAK_HEAP -XX:+AlwaysPreTouch" \
  "$ROOT/racs" server --config "$WORK/racs.yaml" >"$WORK/racs.log" 2>&1 &
RACS_PID=$!
(wait_racs_ready) || setup_failed "the proxy did not start"
kill -0 "$RACS_PID" 2>/dev/null || setup_failed "the proxy exited; log: $WORK/racs.log"
echo "soak: proxy pid $RACS_PID on 127.0.0.1:$RACS_PORT over $SOAK_MINIO_SERVERS MinIO servers"

# bench NAME BUCKET ARGS...: one bench run as long as the soak, in the background.
bench() {
  local name="$1" bucket="$2"
  shift 2
  RACS_NO_BUILD=1 "$ROOT/racs" bench object --endpoint "http://127.0.0.1:$RACS_PORT" \
    --access-key soakracs --secret-key soakracs-secret-key --bucket "$bucket" --name "$name" \
    --warmup 0 --iterations 1 --duration "${SOAK_SECONDS}s" --quiet --keep --out "$WORK/bench-$name" \
    "$@" >"$WORK/bench-$name.log" 2>&1 &
  BENCH_PIDS+=($!)
}
bench verify soak-verify --op mixed --mix get=55,put=25,head=10,list=10 \
  --sizes uniform:1KiB-1MiB --objects "$SOAK_OBJECTS" --clients "$SOAK_CLIENTS" --verify \
  --payload sdk --seed "$SOAK_SEED"
bench churn soak-churn --op mixed --mix put=50,delete=50 --sizes uniform:1KiB-256KiB \
  --objects "$((SOAK_OBJECTS / 2))" --clients "$(((SOAK_CLIENTS + 1) / 2))" --payload signed \
  --seed "$((SOAK_SEED + 1))"

# Samples until both bench runs have ended: seconds since start, VmRSS in KiB, open descriptors.
SAMPLES="$WORK/samples.tsv"
started=$SECONDS
while :; do
  running=0
  for pid in "${BENCH_PIDS[@]}"; do
    kill -0 "$pid" 2>/dev/null && running=1
  done
  [ -r "/proc/$RACS_PID/status" ] || break
  rss="$(awk '/^VmRSS:/ {print $2}' "/proc/$RACS_PID/status")"
  fds="$(find "/proc/$RACS_PID/fd" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l)"
  printf '%s\t%s\t%s\n' "$((SECONDS - started))" "$rss" "$fds" >>"$SAMPLES"
  [ "$running" -eq 1 ] || break
  sleep "$SOAK_SAMPLE_SECONDS"
done

bench_status=0
for pid in "${BENCH_PIDS[@]}"; do
  wait "$pid" || bench_status=1
done
BENCH_PIDS=()
proxy_alive=1
kill -0 "$RACS_PID" 2>/dev/null || proxy_alive=0

# The summary and the verdict (exit 1 when the soak failed).
verdict=()
[ "$proxy_alive" -eq 1 ] || verdict+=(--proxy-gone)
[ "$bench_status" -eq 0 ] || verdict+=(--bench-failed)
RACS_NO_BUILD=1 "$ROOT/racs" bench soak-verdict "$WORK" --samples "$SAMPLES" --seconds "$SOAK_SECONDS" \
  --rss-growth-mib "$SOAK_RSS_GROWTH_MIB" --fd-growth "$SOAK_FD_GROWTH" ${verdict[@]+"${verdict[@]}"}
