#!/usr/bin/env bash
# Issue 38's long reshape test (ReshapeLong, not part of ./racs test: about 7.5 minutes on two
# quiet cores): the proxy process over six MinIO servers reshapes a versioned bucket from 4x2 to
# 3x3 by its own mover under a seeded concurrent load checked against the acknowledged writes, and
# again with the proxy killed (SIGKILL) at seeded moments of the move. Prints the mover's
# throughput and the clients' p99 by phase (healthy, recorded, moving, complete), the figures the
# issue asks for beside each other in one run.
#
#   scripts/reshape-long.sh
#   RESHAPE_SEED=42 scripts/reshape-long.sh
#
# Environment: RESHAPE_SEED (replays a run; default a fresh seed, printed), MAVEN_ARGS (e.g. -o).
# Exit status: 0 when both tests pass, 1 when one fails (the Maven log's path is printed), 2 on a
# usage error.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

args=(
  -B -q -pl repos,racs-proxy,racs-bench,src/test -am verify
  -Dit.test=ReshapeLong -Dtest=NONE
  -Dsurefire.failIfNoSpecifiedTests=false -Dfailsafe.failIfNoSpecifiedTests=false
  -Dspotless.check.skip=true
)
if [ -n "${RESHAPE_SEED:-}" ]; then
  if ! [[ "$RESHAPE_SEED" =~ ^-?[0-9]+$ ]]; then
    echo "reshape-long.sh: RESHAPE_SEED: '$RESHAPE_SEED' (expected: a whole number)" >&2
    exit 2
  fi
  args+=("-Dracs.test.seed=$RESHAPE_SEED")
fi
mkdir -p src/test/target
log=src/test/target/reshape-long-maven.log
status=0
# shellcheck disable=SC2086 # MAVEN_ARGS is a list of options
./mvnw ${MAVEN_ARGS:-} "${args[@]}" >"$log" 2>&1 || status=$?
output=src/test/target/failsafe-reports/io.racs.e2e.ReshapeLong-output.txt
if [ -f "$output" ]; then
  grep -E "^(seed:|round |reshape under load|mover:)" "$output" | sed 's/; /\n  /g' || true
fi
if [ "$status" -ne 0 ]; then
  echo "reshape-long.sh: a test failed; Maven's log: $log" >&2
  exit 1
fi
