#!/usr/bin/env bash
# Measures the proxy against MinIO on the same machine, side by side in one bench run:
#   - RACS: ./racs server, 4x2 over six durable fs repositories (directories on this disk);
#   - MinIO: one server in erasure mode over six directories, EC:2 (the same 4+2 layout).
# PUT and GET of 4 KiB, 1 MiB and 64 MiB objects with 1 and 8 clients, targets interleaved.
# Usage: scripts/bench-vs-minio.sh [OUT_DIR] [extra racs bench object options...]
# Prints a table of RACS/MinIO ratios (also written to OUT_DIR/summary.md).
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
    --op put,get --clients 1,8 --warmup 1 --iterations 3 --overhead racs-4x2-fs/minio-ec2 "$@"
}
bench --sizes 4KiB,1MiB --objects 16 --duration 3s --out "$OUT/small" "$@"
bench --sizes 64MiB --objects 8 --duration 12s --out "$OUT/large" "$@"

# One table of RACS/MinIO ratios over both runs: throughput (higher is better for RACS) and p99
# latency (lower is better for RACS).
python3 - "$OUT/small/results.json" "$OUT/large/results.json" <<'PY' | tee "$OUT/summary.md"
import json, sys
points = {}
for path in sys.argv[1:]:
    for p in json.load(open(path))["points"]:
        points[(p["target"], p["workload"], p["size"], p["clients"])] = p
def ops(p):
    t = (p.get("throughput") or {}).get("opsPerSecond") or {}
    return t.get("mean")
def p99(p):
    return (p.get("latencyMillis") or {}).get("p99")
print("| op | size | clients | RACS ops/s | MinIO ops/s | throughput RACS/MinIO | RACS p99 ms | MinIO p99 ms | p99 RACS/MinIO | errors RACS/MinIO |")
print("|---|---|---|---|---|---|---|---|---|---|")
for (target, op, size, clients), r in sorted(points.items(), key=lambda kv: (kv[0][1], kv[1]["meanObjectBytes"], kv[0][3])):
    if target != "racs-4x2-fs":
        continue
    m = points.get(("minio-ec2", op, size, clients))
    if m is None:
        continue
    ro, mo, rp, mp = ops(r), ops(m), p99(r), p99(m)
    ratio = f"{ro / mo:.2f}" if ro and mo else "n/a"
    lat = f"{rp / mp:.2f}" if rp and mp else "n/a"
    fmt = lambda v: "n/a" if v is None else f"{v:.1f}"
    print(f"| {op} | {size} | {clients} | {fmt(ro)} | {fmt(mo)} | {ratio} | {fmt(rp)} | {fmt(mp)} | {lat} | {r['errorsTotal']}/{m['errorsTotal']} |")
PY
echo "reports: $OUT/small/report.html $OUT/large/report.html"
