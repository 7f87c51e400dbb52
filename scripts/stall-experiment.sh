#!/usr/bin/env bash
# The stall experiment of issue 16: RACS (4x2) over six MinIO server processes, one per
# repository, under a steady mixed load (racs bench object against the proxy), with 0, 1, 2 and 3
# of the MinIO processes stopped with SIGSTOP for a whole measured run. For each case it prints the
# operations' p50, p99 and max latency and the error count: with up to m = 2 stopped the load must
# go on (p99 near the healthy one, no errors); with 3 stopped every answer must be an error that
# comes quickly (503), never a hang.
#
# Usage: scripts/stall-experiment.sh            (each run: SECONDS_PER_RUN=20, CLIENTS=4, SIZE=64KiB)
# Prints a table; the raw racs-bench outputs stay in $WORK until the script ends (KEEP=1 keeps them).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

SECONDS_PER_RUN="${SECONDS_PER_RUN:-20}"
CLIENTS="${CLIENTS:-4}"
SIZE="${SIZE:-64KiB}"
ACCESS=stall-access
SECRET=stall-secret-0123456789

init_work stall
[ -z "${KEEP:-}" ] || KEEP_WORK=1
find_minio
[ -n "${RACS_NO_BUILD:-}" ] || "$ROOT/racs" build >/dev/null

# Six single-drive MinIO servers, each with the bucket its repository uses.
start_minio_servers 6
wait_minio_servers
for i in 0 1 2 3 4 5; do
  create_minio_bucket "${MINIO_PORTS[$i]}" racs
done

{
  echo "array: {geometry: 4x2, slowShardTimeout: 30s, stallGrace: 1s}"
  echo "server:"
  echo "  listen: 127.0.0.1:0"
  echo "  adminListen: off"
  echo "  credentials: [{accessKey: $ACCESS, secretKey: $SECRET}]"
  echo "repositories:"
  for i in 0 1 2 3 4 5; do
    echo "  - {name: m$i, type: minio, endpoint: 'http://127.0.0.1:${MINIO_PORTS[$i]}', bucket: racs,"
    echo "     credentials: {accessKey: $MINIO_ACCESS_KEY, secretKey: $MINIO_SECRET_KEY}}"
  done
} >"$WORK/racs.yaml"

"$ROOT/racs" server --config "$WORK/racs.yaml" >"$WORK/racs.log" 2>&1 &
RACS_PID=$!
for _ in $(seq 600); do
  endpoint="$(sed -n 's/^RACS serving S3 at \([^ ]*\) .*/\1/p' "$WORK/racs.log" | head -1)"
  [ -n "$endpoint" ] && break
  kill -0 "$RACS_PID" 2>/dev/null || { cat "$WORK/racs.log" >&2; exit 1; }
  sleep 0.1
done
[ -n "$endpoint" ] || { echo "stall-experiment: the proxy did not start" >&2; cat "$WORK/racs.log" >&2; exit 1; }

bench() { # NAME: one measured run of the mixed load against the proxy
  "$ROOT/racs" bench object --quiet --endpoint "$endpoint" --access-key "$ACCESS" \
    --secret-key "$SECRET" --bucket stall --op mixed --mix get=60,put=30,list=5,delete=5 \
    --sizes "$SIZE" --objects 200 --clients "$CLIENTS" --warmup 0 --iterations 1 \
    --duration "${SECONDS_PER_RUN}s" --seed 16 --out "$WORK/out-$1" >"$WORK/bench-$1.log" 2>&1 || true
}

# A warm-up run fills the key space and warms both JVMs; it is not reported.
bench warmup

printf '%-10s %8s %10s %10s %10s %8s\n' stopped ops "p50 ms" "p99 ms" "max ms" errors
for stopped in 0 1 2 3; do
  victims=()
  for ((v = 0; v < stopped; v++)); do
    victims+=("${MINIO_PIDS[$v]}")
  done
  [ "${#victims[@]}" -eq 0 ] || kill -STOP "${victims[@]}"
  bench "stopped-$stopped"
  [ "${#victims[@]}" -eq 0 ] || kill -CONT "${victims[@]}"
  python3 - "$WORK/out-stopped-$stopped" "$stopped" <<'EOF'
import json, sys, glob
files = glob.glob(sys.argv[1] + "/**/results.json", recursive=True)
if not files:
    print(f"{sys.argv[2]:<10} no results (see the bench log)")
    sys.exit(0)
point = json.load(open(files[0]))["points"][0]
lat = point["latencyMillis"]
print(f"{sys.argv[2]:<10} {point['ops']:>8} {lat['p50']:>10.1f} {lat['p99']:>10.1f} {lat['max']:>10.1f} {point['errorsTotal']:>8}  {point['errors']}")
EOF
  # Let the suspended repositories answer a probe again before the next case.
  sleep 20
done
