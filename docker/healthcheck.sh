#!/usr/bin/env bash
# healthcheck.sh PATH: exits 0 when GET http://127.0.0.1:$RACS_ADMIN_PORT/PATH answers 200.
# Plain bash (its /dev/tcp redirection) because the JRE image has neither curl nor wget; Docker's
# HEALTHCHECK --timeout bounds the whole check.
set -euo pipefail

path="${1:-/health/live}"
port="${RACS_ADMIN_PORT:-9001}"
# A failed redirection on `exec` does not end a non-interactive bash, even under set -e.
if ! exec 3<>"/dev/tcp/127.0.0.1/$port"; then
  echo "cannot connect to 127.0.0.1:$port" >&2
  exit 1
fi
printf 'GET %s HTTP/1.0\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n' "$path" >&3
IFS= read -r status <&3
case "$status" in
  "HTTP/1."?" 200"*) exit 0 ;;
  *) echo "GET $path: ${status%$'\r'}" >&2; exit 1 ;;
esac
