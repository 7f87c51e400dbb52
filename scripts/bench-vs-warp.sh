#!/usr/bin/env bash
# Checks racs-bench's S3 client against warp (minio/warp v1.0.0) on one MinIO server on this
# machine: the same workload (PUT and GET of 1 MiB objects, 8 clients, 30 s measured), the two tools
# alternated round by round (warp first in odd rounds, racs-bench first in even ones) so drift hits
# both, each run on a fresh MinIO server with an empty drive, and both measured after the same
# time under load (racs-bench's warmup iterations; warp runs that much longer and skips it with
# --analyze.skip). For every run it reports the tool's own throughput and the client's CPU per
# operation: user+system CPU of the tool's process (from /proc/PID/stat, sampled every 100 ms by
# racs bench cpu --trace;
# MinIO's CPU is not counted) over its steady measurement interval, divided by the operations that
# completed in that interval. For warp that interval is its run from 1 s after the warm-up to 1 s
# before the last operation ended, with the operations counted from its --benchdata file; for
# racs-bench it is the windows of its measured iterations, with their counts from results.json.
#
# warp is built from the Go module proxy into the racs tools cache (never into this repository):
# `go install github.com/minio/warp@v1.0.0` fails because the proxy answers 403 to the version
# list it asks for (deprecation check), so the module is downloaded with `go mod download`, checked
# against the hash pinned in scripts/versions.env (WARP_SUM: the checksum database has no record of
# it that is reachable here) and built with `go build`.
#
# Usage: scripts/bench-vs-warp.sh [OUT_DIR]
# Environment: ROUNDS (3), DURATION_SECONDS (30), ITERATIONS (racs-bench iterations sharing the
# duration, 5), WARMUP_ITERATIONS (racs-bench warmup iterations of the same length, 2),
# CLIENTS (8), SIZE (1MiB), OBJECTS (GET key space, 64), WARP_BIN (a warp to use),
# WARP_ARGS and RACS_ARGS (extra options for each tool, e.g. WARP_ARGS=--disable-sha256-payload
# RACS_ARGS="--payload unsigned"), MINIO_CPUS and CLIENT_CPUS (taskset CPU lists, e.g. 0 and 1, so
# that the client's CPU does not compete with the server's).
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
OUT="${1:-$ROOT/bench-out/vs-warp-$(date +%Y%m%d-%H%M%S)}"
ROUNDS="${ROUNDS:-3}"
DURATION_SECONDS="${DURATION_SECONDS:-30}"
ITERATIONS="${ITERATIONS:-5}"
WARMUP_ITERATIONS="${WARMUP_ITERATIONS:-2}"
CLIENTS="${CLIENTS:-8}"
SIZE="${SIZE:-1MiB}"
OBJECTS="${OBJECTS:-64}"
WARP_ARGS="${WARP_ARGS:-}"
RACS_ARGS="${RACS_ARGS:-}"
MINIO_CPUS="${MINIO_CPUS:-}"
CLIENT_CPUS="${CLIENT_CPUS:-}"
WARP_BIN="${WARP_BIN:-$CACHE/tools/warp-$WARP_VERSION/warp}"
whole_numbers ROUNDS DURATION_SECONDS ITERATIONS WARMUP_ITERATIONS CLIENTS OBJECTS

mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"
init_work vs-warp

build_warp() {
  command -v go >/dev/null || { echo "bench-vs-warp: needs Go to build warp (or WARP_BIN)" >&2; exit 1; }
  echo "bench-vs-warp: building warp $WARP_VERSION into $(dirname "$WARP_BIN")" >&2
  rm -rf "$WORK/warp-src"
  go_module_source "$WARP_MODULE" "$WARP_VERSION" "$WARP_SUM" "$WORK/warp-src"
  mkdir -p "$(dirname "$WARP_BIN")"
  # warp's own go.sum verifies every module it depends on.
  (cd "$WORK/warp-src" && go build \
    -ldflags "-X $WARP_MODULE/pkg.Version=${WARP_VERSION#v} -X $WARP_MODULE/pkg.ReleaseTag=$WARP_VERSION" \
    -o "$WARP_BIN" .)
}
[ -x "$WARP_BIN" ] || build_warp

find_minio
"$ROOT/racs" bench --help >/dev/null # builds the jars when the sources are newer

# Every measured run gets a fresh server on an empty drive (fresh_minio 1 "" "$MINIO_CPUS"). One
# server for the whole script drifted: a tool's clean-up after a PUT run deletes ~5 GB, which MinIO
# moves into .minio.sys/tmp/.trash and purges in the background for minutes (9.5 GB took about 3),
# on the server's core, through the runs that follow; the GET rates then fell from round to round.

# Runs one measured command in the background, sampling its CPU; waits for it.
measure() {
  local name="$1"
  shift
  (pin "$CLIENT_CPUS" "$@") >"$OUT/$name.out" 2>&1 &
  local pid=$!
  # Its user+system CPU every 100 ms until it exits (racs bench cpu --trace).
  RACS_NO_BUILD=1 "$ROOT/racs" bench cpu --pid "$pid" --trace "$OUT/$name.cpu" --every 100ms &
  local sampler=$!
  local rc=0
  wait "$pid" || rc=$?
  wait "$sampler" || true
  [ "$rc" -eq 0 ] || { echo "bench-vs-warp: $name failed ($rc); see $OUT/$name.out" >&2; exit 1; }
}

# racs-bench measures after WARMUP_ITERATIONS discarded iterations; warp gets the same time under
# load first and leaves it out of its figures (--analyze.skip), so that both measure a server that
# has been serving the workload for as long (a fresh MinIO's first seconds are slower).
ITERATION_MS=$((DURATION_SECONDS * 1000 / ITERATIONS))
WARMUP_MS=$((ITERATION_MS * WARMUP_ITERATIONS))

run_warp() {
  local op="$1" round="$2"
  fresh_minio 1 "" "$MINIO_CPUS"
  local extra=()
  [ "$op" = get ] && extra+=(--objects "$OBJECTS")
  # shellcheck disable=SC2086
  measure "warp-$op-r$round" "$WARP_BIN" "$op" --host "127.0.0.1:$MINIO_PORT" \
    --access-key "$MINIO_ACCESS_KEY" --secret-key "$MINIO_SECRET_KEY" --bucket warp-vs-racs \
    --obj.size "$SIZE" --concurrent "$CLIENTS" --no-color \
    --duration "$((DURATION_SECONDS * 1000 + WARMUP_MS))ms" --analyze.skip "${WARMUP_MS}ms" \
    --benchdata "$OUT/warp-$op-r$round" "${extra[@]}" $WARP_ARGS
}

run_racs() {
  local op="$1" round="$2"
  fresh_minio 1 "" "$MINIO_CPUS"
  local per="$ITERATION_MS"
  # warp's PUTs create new objects; so do these, drawn from a million keys (an overwrite costs
  # MinIO more than a new object). GETs read OBJECTS objects, as warp's do.
  local objects="$OBJECTS"
  [ "$op" = put ] && objects=1000000
  # `racs` execs the JVM, so the sampled pid is the bench's own process.
  # shellcheck disable=SC2086
  measure "racs-$op-r$round" env RACS_NO_BUILD=1 "$ROOT/racs" bench object \
    --endpoint "http://127.0.0.1:$MINIO_PORT" --access-key "$MINIO_ACCESS_KEY" --secret-key "$MINIO_SECRET_KEY" \
    --bucket racs-vs-warp --name minio --op "$op" --sizes "$SIZE" --clients "$CLIENTS" \
    --objects "$objects" --warmup "$WARMUP_ITERATIONS" --iterations "$ITERATIONS" --duration "${per}ms" --quiet \
    --out "$OUT/racs-$op-r$round" $RACS_ARGS
}

{
  echo "warp: $("$WARP_BIN" --version 2>&1 | head -1)"
  echo "racs-bench: $(git -C "$ROOT" describe --always --dirty 2>/dev/null || echo unknown)"
  echo "minio: $("$MINIO_BIN" --version 2>&1 | head -1)"
  echo "host: $(nproc) cores, $(uname -sr)"
  echo "workload: $SIZE PUT and GET, $CLIENTS clients, ${DURATION_SECONDS}s measured after ${WARMUP_MS}ms of warm-up, GET over $OBJECTS objects, $ROUNDS rounds, a fresh MinIO per run"
  echo "warp args: ${WARP_ARGS:-(none)}; racs-bench args: ${RACS_ARGS:-(none)}"
  echo "CPUs: MinIO ${MINIO_CPUS:-any}, clients ${CLIENT_CPUS:-any}"
} >"$OUT/setup.txt"

for round in $(seq 1 "$ROUNDS"); do
  for op in put get; do
    if [ $((round % 2)) -eq 1 ]; then
      run_warp "$op" "$round"
      run_racs "$op" "$round"
    else
      run_racs "$op" "$round"
      run_warp "$op" "$round"
    fi
  done
done

# warp's benchdata, decompressed beside it; then the table (racs bench versus warp), also written
# to OUT_DIR/summary.txt and OUT_DIR/summary.json.
for benchdata in "$OUT"/warp-*-r*.csv.zst; do
  zstd -q -dc "$benchdata" >"${benchdata%.csv.zst}.tsv"
done
RACS_NO_BUILD=1 "$ROOT/racs" bench versus warp "$OUT" --rounds "$ROUNDS" --warmup-millis "$WARMUP_MS"
echo "results: $OUT"
