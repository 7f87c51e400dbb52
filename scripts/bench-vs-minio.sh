#!/usr/bin/env bash
# Measures the proxy against MinIO on the same machine, side by side in one bench run:
#   - RACS: ./racs server, 4x2 over six durable fs repositories (directories on this disk);
#   - MinIO: one server in erasure mode over six directories, EC:2 (the same 4+2 layout).
# PUT and GET of 4 KiB, 1 MiB and 64 MiB objects with 1 and 8 clients, targets interleaved.
# Usage: scripts/bench-vs-minio.sh [OUT_DIR] [extra racs bench object options...]
# Environment (defaults in brackets): SMALL_SIZES [4KiB,1MiB] and SMALL_DURATION [3s], LARGE_SIZES
# [64MiB; empty: no large run] and LARGE_DURATION [12s], ITERATIONS [3].
# Prints a table of RACS/MinIO ratios (racs bench table --vs; also written to OUT_DIR/summary.md).
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
OUT="${1:-$ROOT/bench-out/vs-minio-$(date +%Y%m%d-%H%M%S)}"
shift || true
init_work vs-minio

find_minio
start_racs # starts while MinIO does
fresh_minio 6 EC:2
wait_racs_ready

# Small objects take a few milliseconds each, so 3-second iterations hold thousands of requests;
# a 64 MiB request takes up to seconds at 8 clients, so those cells get 12-second iterations
# (a window shorter than a request measures nothing).
bench() {
  "$ROOT/racs" bench object \
    --endpoint "http://127.0.0.1:$RACS_PORT" --access-key benchracs --secret-key benchracs-secret --name racs-4x2-fs \
    --endpoint "http://127.0.0.1:$MINIO_PORT" --access-key "$MINIO_ACCESS_KEY" --secret-key "$MINIO_SECRET_KEY" --name minio-ec2 \
    --op put,get --clients 1,8 --warmup 1 --iterations "${ITERATIONS:-3}" \
    --overhead racs-4x2-fs/minio-ec2 "$@"
}
results=("$OUT/small/results.json")
bench --sizes "${SMALL_SIZES:-4KiB,1MiB}" --objects 16 --duration "${SMALL_DURATION:-3s}" \
  --out "$OUT/small" "$@"
LARGE_SIZES="${LARGE_SIZES-64MiB}"
if [ -n "$LARGE_SIZES" ]; then
  bench --sizes "$LARGE_SIZES" --objects 8 --duration "${LARGE_DURATION:-12s}" --out "$OUT/large" "$@"
  results+=("$OUT/large/results.json")
fi

# One table of RACS/MinIO ratios over both runs: throughput (higher is better for RACS) and p99
# latency (lower is better for RACS).
"$ROOT/racs" bench table "${results[@]}" --vs minio-ec2 \
  --columns workload,size,clients,ops,vs:ops,ratio:ops,p99,vs:p99,ratio:p99,errors,vs:errors |
  tee "$OUT/summary.md"
echo "reports: ${results[*]/%results.json/report.html}"
