#!/usr/bin/env bash
# The RACS-vs-MinIO comparison of scripts/bench-vs-minio.sh, driven by warp instead of racs-bench:
# the proxy (4x2 over six durable fs repositories) and MinIO (EC:2 over six directories) on this
# machine, warp PUT and GET at each size, 8 concurrent clients, the two targets alternated within
# each round (MinIO first in odd rounds, RACS first in even ones) so drift hits both.
# Prints warp's own throughput (obj/s) per run and the RACS/MinIO ratio per round; writes
# OUT_DIR/summary.txt and warp's output per run.
#
# Usage: scripts/bench-vs-minio-warp.sh [OUT_DIR]
# Environment: SIZES ("4KiB 1MiB"), ROUNDS (2), DURATION_SECONDS (15), WARMUP_SECONDS (10; 0 for
#   none), CLIENTS (8), OBJECTS (GET key space, 64), WARP_BIN (default: the warp
#   scripts/bench-vs-warp.sh builds; run that once).
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
OUT="${1:-$ROOT/bench-out/vs-minio-warp-$(date +%Y%m%d-%H%M%S)}"
SIZES="${SIZES:-4KiB 1MiB}"
ROUNDS="${ROUNDS:-2}"
DURATION_SECONDS="${DURATION_SECONDS:-15}"
WARMUP_SECONDS="${WARMUP_SECONDS:-10}"
CLIENTS="${CLIENTS:-8}"
OBJECTS="${OBJECTS:-64}"
WARP_BIN="${WARP_BIN:-$CACHE/tools/warp-$WARP_VERSION/warp}"
whole_numbers ROUNDS DURATION_SECONDS CLIENTS OBJECTS
[[ "$WARMUP_SECONDS" =~ ^[0-9]+$ ]] || {
  echo "bench-vs-minio-warp.sh: WARMUP_SECONDS: $WARMUP_SECONDS (expected: a whole number; 0 for none)" >&2
  exit 2
}
[ -x "$WARP_BIN" ] || {
  echo "bench-vs-minio-warp: no warp at $WARP_BIN (scripts/bench-vs-warp.sh builds it)" >&2
  exit 1
}
mkdir -p "$OUT"
init_work vs-minio-warp

find_minio
start_racs
wait_racs_ready

# One warp run; prints its average obj/s. WARP_BUCKET: another bucket than warp-TARGET;
# WARP_EXTRA: more warp options (a word list).
warp_run() {
  local name="$1" target="$2" op="$3" size="$4" port key secret extra=()
  if [ "$target" = racs ]; then port=$RACS_PORT key=benchracs secret=benchracs-secret
  else port=$MINIO_PORT key=$MINIO_ACCESS_KEY secret=$MINIO_SECRET_KEY; fi
  [ "$op" = get ] && extra+=(--objects "$OBJECTS")
  "$WARP_BIN" "$op" --host "127.0.0.1:$port" --access-key "$key" --secret-key "$secret" \
    --bucket "${WARP_BUCKET:-warp-$target}" --obj.size "$size" --concurrent "$CLIENTS" \
    --duration "${DURATION_SECONDS}s" --no-color --benchdata "$WORK/$name" "${extra[@]}" \
    ${WARP_EXTRA:-} >"$OUT/$name.out" 2>&1 || { echo "warp failed: $OUT/$name.out" >&2; exit 1; }
  # "* Average: 1.23 MiB/s, 315.02 obj/s"
  sed -n 's/.*Average: .*, \([0-9.]*\) obj\/s.*/\1/p' "$OUT/$name.out" | head -1
}

# The proxy is a JVM: its first seconds under load run while the JIT compiles the hot paths. So
# first one unreported warp run of each operation and size against it; the rounds then compare it
# in its steady state with a MinIO warmed the same way (fresh_minio_warmed).
if [ "$WARMUP_SECONDS" -gt 0 ]; then
  for size in $SIZES; do
    for op in put get; do
      DURATION_SECONDS="$WARMUP_SECONDS" warp_run "warmup-racs-$op-$size" racs "$op" "$size" >/dev/null
    done
  done
fi

# A fresh MinIO on six empty drives (EC:2), then the same unreported warm-up run of the operation
# and size (its objects kept, --noclear, so that no deletion is left for the server to purge during
# the measured run). Every measured MinIO run gets a fresh server: MinIO purges deleted objects in
# the background (warp's clean-up after each run moves them into .minio.sys/tmp/.trash), in bursts
# of its own timing, and a long-lived server purged earlier runs' gigabytes in the middle of later
# measured runs.
fresh_minio_warmed() {
  fresh_minio 6 EC:2
  if [ "$WARMUP_SECONDS" -gt 0 ]; then
    # Its own bucket: warp clears the bucket it measures in before it starts.
    WARP_BUCKET=warp-warmup WARP_EXTRA=--noclear DURATION_SECONDS="$WARMUP_SECONDS" \
      warp_run "warmup-minio-$1-$2" minio "$1" "$2" >/dev/null
  fi
}

{
  # This group is a subshell (it is piped to tee): the MinIO servers it starts are its own to stop;
  # the script's clean-up never sees them.
  trap '[ -n "${MINIO_PID:-}" ] && kill "$MINIO_PID" 2>/dev/null; wait' EXIT
  echo "warp: $("$WARP_BIN" --version 2>&1 | head -1); racs: $(git -C "$ROOT" rev-parse --short HEAD)"
  echo "workload: ${CLIENTS} clients, ${DURATION_SECONDS}s per run, GET over $OBJECTS objects, $ROUNDS rounds, after ${WARMUP_SECONDS}s warmup runs; a fresh MinIO, warmed, for every MinIO run"
  printf '%-4s %-6s %-6s %12s %12s %10s\n' op size round "MinIO obj/s" "RACS obj/s" RACS/MinIO
  for size in $SIZES; do
    for op in put get; do
      for round in $(seq 1 "$ROUNDS"); do
        if [ $((round % 2)) -eq 1 ]; then
          fresh_minio_warmed "$op" "$size"
          m=$(warp_run "minio-$op-$size-r$round" minio "$op" "$size")
          r=$(warp_run "racs-$op-$size-r$round" racs "$op" "$size")
        else
          r=$(warp_run "racs-$op-$size-r$round" racs "$op" "$size")
          fresh_minio_warmed "$op" "$size"
          m=$(warp_run "minio-$op-$size-r$round" minio "$op" "$size")
        fi
        printf '%-4s %-6s %-6s %12s %12s %10s\n' "$op" "$size" "$round" "$m" "$r" \
          "$(awk -v r="$r" -v m="$m" 'BEGIN { if (m + 0 > 0) printf "%.3f", r / m; else print "n/a" }')"
      done
    done
  done
} | tee "$OUT/summary.txt"
