#!/usr/bin/env bash
# Measures each storage API RACS stripes over, side by side in one bench run, against the real
# servers `racs demo --clouds` starts on 127.0.0.1: MinIO (type minio, S3), Azurite (type azure),
# fake-gcs-server (type gcs), an SFTP server (type sftp: OpenSSH's sshd when provisioned, else
# Apache MINA SSHD in the demo's JVM) and a local directory (type fs). Each is driven through its
# own repository client (racs bench object --repository), the code the proxy uses for a shard.
# Usage: scripts/bench-clouds.sh [OUT_DIR] [extra racs bench object options...]
# Environment (defaults in brackets): SIZES [4KiB,1MiB], CLIENTS [1], DURATION [3s], WARMUP [1],
# ITERATIONS [3], DEMO_SECONDS [the demo's own story before it serves; 300].
# Prints one row per repository, operation and size (racs bench table; also OUT_DIR/summary.md).
# What the emulators cannot show: a provider's WAN round trip, throttling and replication lag. The
# figures are each API's client and server cost on this machine, not a provider's latency.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
OUT="${1:-$ROOT/bench-out/clouds-$(date +%Y%m%d-%H%M%S)}"
shift || true
ITERATIONS="${ITERATIONS:-3}"
CLIENTS="${CLIENTS:-1}"
DEMO_SECONDS="${DEMO_SECONDS:-300}"
whole_numbers ITERATIONS DEMO_SECONDS
init_work clouds

# The demo tells its story (an outage, a heal), then serves until it is stopped, with every server
# back up and the array whole: the bench runs in that last phase, beside an idle proxy.
"$ROOT/racs" demo --clouds --dir "$WORK/demo" >"$WORK/demo.log" 2>&1 &
DEMO_PID=$!
trap 'cleanup "$DEMO_PID"' EXIT
for _ in $(seq 1 "$DEMO_SECONDS"); do
  grep -q "serving until Ctrl-C" "$WORK/demo.log" && break
  kill -0 "$DEMO_PID" 2>/dev/null || {
    cat "$WORK/demo.log" >&2
    echo "bench-clouds: racs demo --clouds ended before it served" >&2
    exit 1
  }
  sleep 1
done
grep -q "serving until Ctrl-C" "$WORK/demo.log" || {
  echo "bench-clouds: racs demo --clouds did not serve within ${DEMO_SECONDS} s" >&2
  exit 1
}

# repo-0 and repo-3 are both MinIO; one of them stands for S3. The names are the demo's
# (CloudRepositories): repo-0 minio, repo-1 azure, repo-2 gcs, repo-4 sftp, repo-5 fs.
"$ROOT/racs" bench object --config "$WORK/demo/racs.yaml" \
  --repository repo-0,repo-1,repo-2,repo-4,repo-5 \
  --op put,get --sizes "${SIZES:-4KiB,1MiB}" --clients "$CLIENTS" --objects 16 \
  --warmup "${WARMUP:-1}" --iterations "$ITERATIONS" --duration "${DURATION:-3s}" --quiet \
  --out "$OUT" "$@"
"$ROOT/racs" bench table "$OUT/results.json" \
  --columns "target=repository,workload,size,clients,ops,p50,p99,errors" | tee "$OUT/summary.md"
echo "report: $OUT/report.html"
