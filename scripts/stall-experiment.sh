#!/usr/bin/env bash
# The stall experiment of issue 16: RACS (4x2) over six MinIO server processes, one per
# repository, under a steady mixed load (racs bench object against the proxy), with 0, 1, 2 and 3
# of the MinIO processes stopped with SIGSTOP for a whole measured run. For each case it prints the
# operations' p50, p99 and max latency and the error count: with up to m = 2 stopped the load must
# go on (p99 near the healthy one, no errors); with 3 stopped every answer must be an error that
# comes quickly (503), never a hang.
#
# Usage: scripts/stall-experiment.sh            (each run: SECONDS_PER_RUN=20, CLIENTS=4, SIZE=64KiB)
# CASES (default "0 1 2 3") are the counts of stopped servers, in order.
# Prints a table (racs bench table; with more than m stopped, racs bench probes); the raw racs-bench outputs stay in $WORK until the script ends (KEEP=1 keeps them).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

SECONDS_PER_RUN="${SECONDS_PER_RUN:-20}"
CLIENTS="${CLIENTS:-4}"
SIZE="${SIZE:-64KiB}"
CASES="${CASES:-0 1 2 3}"
whole_numbers SECONDS_PER_RUN CLIENTS
for stopped in $CASES; do
  [[ "$stopped" =~ ^[0-6]$ ]] || {
    echo "stall-experiment.sh: CASES: $CASES (expected: counts of stopped servers, 0 to 6)" >&2
    exit 2
  }
done
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
    --duration "${SECONDS_PER_RUN}s" --seed 16 --out "$WORK/$1" >"$WORK/bench-$1.log" 2>&1 || true
}

# With more than m stopped the bench cannot run (it stops at the first PUT it cannot prepare), so
# that case is measured with curl: GETs and PUTs of objects written while every server was up.
s3() { # METHOD KEY [FILE]: one signed request; prints "status seconds"
  local args=(-s -o /dev/null -w '%{http_code} %{time_total}\n' --max-time 60 -X "$1"
    --aws-sigv4 "aws:amz:us-east-1:s3" --user "$ACCESS:$SECRET"
    -H "x-amz-content-sha256: UNSIGNED-PAYLOAD")
  [ -z "${3:-}" ] || args+=(--data-binary "@$3")
  curl "${args[@]}" "$endpoint/stall-fixed/$2" || echo "000 60"
}
head -c 65536 /dev/urandom >"$WORK/body"
s3 PUT "" >/dev/null
for i in $(seq 0 49); do
  s3 PUT "k$i" "$WORK/body" >/dev/null
done

probe() { # NAME: GETs and PUTs of the fixed keys for SECONDS_PER_RUN, one at a time
  local end=$((SECONDS + SECONDS_PER_RUN)) i=0
  : >"$WORK/probe-$1.txt"
  while [ "$SECONDS" -lt "$end" ]; do
    s3 GET "k$((i % 50))" >>"$WORK/probe-$1.txt"
    s3 PUT "k$((i % 50))" "$WORK/body" >>"$WORK/probe-$1.txt"
    i=$((i + 1))
  done
}

# A warm-up run fills the key space and warms both JVMs; it is not reported.
bench warmup

for stopped in $CASES; do
  victims=()
  for ((v = 0; v < stopped; v++)); do
    victims+=("${MINIO_PIDS[$v]}")
  done
  [ "${#victims[@]}" -eq 0 ] || kill -STOP "${victims[@]}"
  if [ "$stopped" -le 2 ]; then
    bench "stopped-$stopped"
  else
    probe "stopped-$stopped"
  fi
  [ "${#victims[@]}" -eq 0 ] || kill -CONT "${victims[@]}"
  echo "stall-experiment: $stopped stopped: done" >&2
  # Let the suspended repositories answer a probe again before the next case.
  sleep 20
done

# One row per case: the bench's (racs bench table) and, with more than m stopped, curl's.
benched=() probed=()
for stopped in $CASES; do
  if [ -f "$WORK/stopped-$stopped/results.json" ]; then
    benched+=("$WORK/stopped-$stopped/results.json")
  elif [ -s "$WORK/probe-stopped-$stopped.txt" ]; then
    probed+=("$WORK/probe-stopped-$stopped.txt")
  else
    echo "stall-experiment: $stopped stopped: no results (see $WORK/bench-stopped-$stopped.log)" >&2
  fi
done
[ "${#benched[@]}" -eq 0 ] ||
  "$ROOT/racs" bench table "${benched[@]}" --columns "run=stopped,operations=ops,p50,p99,max,errors,errorKinds=errors by kind"
[ "${#probed[@]}" -eq 0 ] || { echo; "$ROOT/racs" bench probes "${probed[@]}"; }
