#!/usr/bin/env bash
# The image's entrypoint: `bench ...` runs racs-bench.jar, anything else runs racs-proxy.jar
# (`server --config FILE` by default; also `heal`, `recover`, `codec`). Both start with the
# Vector API module so the erasure codec takes its fast path.
set -euo pipefail

JAVA_OPTS=(--add-modules jdk.incubator.vector)
if [ "${1:-}" = bench ]; then
  shift
  exec java "${JAVA_OPTS[@]}" -jar /opt/racs/racs-bench.jar "$@"
fi
exec java "${JAVA_OPTS[@]}" -jar /opt/racs/racs-proxy.jar "$@"
