#!/usr/bin/env bash
# Measures the proxy against MinIO on the same machine, side by side in one bench run:
#   - RACS: ./racs server, 4x2 over six durable fs repositories (directories on this disk);
#   - MinIO: one server in erasure mode over six directories, EC:2 (the same 4+2 layout).
# PUT and GET of 4 KiB, 1 MiB and 64 MiB objects with 1 and 8 clients, targets interleaved.
# Usage: scripts/bench-vs-minio.sh [OUT_DIR] [extra racs bench object options...]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="${1:-$ROOT/bench-out/vs-minio-$(date +%Y%m%d-%H%M%S)}"
shift || true
WORK="$(mktemp -d "${TMPDIR:-/tmp}/racs-vs-minio.XXXXXX")"
cleanup() {
  [ -n "${MINIO_PID:-}" ] && kill "$MINIO_PID" 2>/dev/null || true
  [ -n "${RACS_PID:-}" ] && kill "$RACS_PID" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

"$ROOT/scripts/provision.sh" --minio-only
MINIO_BIN="$(sed -n 's/^RACS_MINIO_BIN=//p' "${RACS_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/racs}/env")"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }

MINIO_PORT="$(free_port)"
mkdir -p "$WORK"/minio/d{1..6}
MINIO_ROOT_USER=benchadmin MINIO_ROOT_PASSWORD=benchadmin-secret MINIO_CI_CD=1 MINIO_BROWSER=off \
  MINIO_STORAGE_CLASS_STANDARD=EC:2 "$MINIO_BIN" server --quiet --address "127.0.0.1:$MINIO_PORT" \
  "$WORK"/minio/d{1..6} >"$WORK/minio.log" 2>&1 &
MINIO_PID=$!

RACS_PORT="$(free_port)"
"$ROOT/racs" server --data-dir "$WORK/racs" --listen "127.0.0.1:$RACS_PORT" --admin-listen off \
  --access-key benchracs --secret-key benchracs-secret >"$WORK/racs.log" 2>&1 &
RACS_PID=$!

for url in "http://127.0.0.1:$MINIO_PORT/minio/health/ready" ; do
  for _ in $(seq 1 600); do curl -fs "$url" >/dev/null 2>&1 && break; sleep 0.1; done
done
for _ in $(seq 1 600); do grep -q '^ready' "$WORK/racs.log" && break; sleep 0.1; done
grep -q '^ready' "$WORK/racs.log" || { cat "$WORK/racs.log"; echo "racs server did not start" >&2; exit 1; }

"$ROOT/racs" bench object \
  --endpoint "http://127.0.0.1:$RACS_PORT" --access-key benchracs --secret-key benchracs-secret --name racs-4x2-fs \
  --endpoint "http://127.0.0.1:$MINIO_PORT" --access-key benchadmin --secret-key benchadmin-secret --name minio-ec2 \
  --op put,get --sizes 4KiB,1MiB,64MiB --clients 1,8 --objects 16 \
  --warmup 1 --iterations 3 --duration 3s --overhead racs-4x2-fs/minio-ec2 \
  --out "$OUT" "$@"
echo "report: $OUT/report.html"
