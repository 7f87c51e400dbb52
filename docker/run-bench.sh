#!/usr/bin/env bash
# run-bench.sh: the Compose demo's workload, run by the bench service (docker/compose.yml).
#
#   1. object: PUT/GET from 1 and 8 clients against the RACS proxy, then against each MinIO node
#      directly, so the report sets the 4x2 array beside the repositories it stripes over;
#   2. block: dd-style sequential direct I/O on each MinIO node's volume (mounted under
#      $BENCH_VOLUMES), the disk each repository really writes to.
#
# Every racs-bench command line of the demo is in this file, so it is the one place to adjust
# them. Each run writes to its own directory under $BENCH_OUT; the script goes on after a failed
# run, lists every run in $BENCH_OUT/runs.txt and exits 1 if any failed.
#
# Environment (compose.yml sets it): RACS_ENDPOINT, RACS_ACCESS_KEY, RACS_SECRET_KEY,
# MINIO_NODES (service names; S3 on port 9000), MINIO_ACCESS_KEY, MINIO_SECRET_KEY, BENCH_OUT,
# BENCH_VOLUMES; optional BENCH_SIZES, BENCH_CLIENTS, BENCH_DURATION, BENCH_DD_BS,
# BENCH_DD_COUNT, RACS_BENCH_CMD.
set -euo pipefail

: "${RACS_ENDPOINT:?}" "${RACS_ACCESS_KEY:?}" "${RACS_SECRET_KEY:?}"
: "${MINIO_NODES:?}" "${MINIO_ACCESS_KEY:?}" "${MINIO_SECRET_KEY:?}"
OUT="${BENCH_OUT:-/out}"
VOLUMES="${BENCH_VOLUMES:-/volumes}"
SIZES="${BENCH_SIZES:-1MiB}"
CLIENTS="${BENCH_CLIENTS:-1,8}"
DURATION="${BENCH_DURATION:-10s}"
DD_BS="${BENCH_DD_BS:-8M}"
DD_COUNT="${BENCH_DD_COUNT:-16}"

# The bench command; RACS_BENCH_CMD replaces it (word-split), e.g. to run the script outside the
# image against racs-bench/target/racs-bench.jar.
read -r -a BENCH <<<"${RACS_BENCH_CMD:-java --add-modules jdk.incubator.vector -jar /opt/racs/racs-bench.jar}"
RUNS="$OUT/runs.txt"
failed=0

mkdir -p "$OUT/object" "$OUT/block"
echo "# racs demo bench, started $(date -u +%Y-%m-%dT%H:%M:%SZ)" >"$RUNS"

# run NAME COMMAND...: runs one measurement, keeps its console output, records the outcome.
run() {
  local name="$1"
  shift
  echo "== $name"
  local status=0
  "$@" 2>&1 | tee "$OUT/$name.log" || status=$?
  echo "$name exit=$status" >>"$RUNS"
  if [ "$status" -ne 0 ]; then
    failed=1
  fi
}

# The secrets are on the command line, visible to `ps` inside this one-shot container only.
object() {
  local name="$1" endpoint="$2" access="$3" secret="$4"
  run "object/$name" "${BENCH[@]}" object \
    --endpoint "$endpoint" --access-key "$access" --secret-key "$secret" \
    --sizes "$SIZES" --clients "$CLIENTS" --duration "$DURATION" \
    --out "$OUT/object/$name"
}

# The test file goes into a dot directory at the volume's root: MinIO lists only directories with
# valid bucket names as buckets, so the file never shows up in S3, and it is removed afterwards.
block() {
  local name="$1" volume="$2"
  local dir="$volume/.racs-bench"
  mkdir -p "$dir"
  run "block/$name" "${BENCH[@]}" block dd \
    --bs "$DD_BS" --count "$DD_COUNT" --direct --file "$dir/dd.tmp"
  rm -rf "$dir"
}

object proxy "$RACS_ENDPOINT" "$RACS_ACCESS_KEY" "$RACS_SECRET_KEY"
for node in $MINIO_NODES; do
  object "$node" "http://$node:9000" "$MINIO_ACCESS_KEY" "$MINIO_SECRET_KEY"
done
for node in $MINIO_NODES; do
  if [ ! -d "$VOLUMES/$node" ]; then
    echo "block/$node: $VOLUMES/$node is not mounted" | tee -a "$RUNS"
    failed=1
    continue
  fi
  block "$node" "$VOLUMES/$node"
done

echo "# finished $(date -u +%Y-%m-%dT%H:%M:%SZ), reports under $OUT" >>"$RUNS"
cat "$RUNS"
exit "$failed"
