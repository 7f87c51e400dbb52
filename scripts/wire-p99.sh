#!/usr/bin/env bash
# Issue 43's p99 check on real TCP, the long variant of the wire-fault suite (WireFaultsIT): the
# proxy process as a 4x2 array over six MinIO servers, each behind its own Toxiproxy link 20 ms
# +- 10 ms late each way, under the fault suite's seeded mixed load (PUT, GET, DELETE, LIST from six
# clients, checked against the acknowledged writes). Per fault (200 ms more latency each way,
# 1 MB/s, 64 KB/s, half-open: accepted, then silent) with 1 and with m = 2 links afflicted, it
# prints the p99 of successful GETs and PUTs during the fault against the same run's healthy p99,
# and their ratio. The table also goes to src/test/target/wire-p99.txt.
#
#   scripts/wire-p99.sh
#   WIRE_OPS=300 WIRE_SEED=42 scripts/wire-p99.sh
#
# Environment: WIRE_OPS (operations per phase, default 150), WIRE_SEED (the seed of the load and of
# which links are afflicted; default a fresh one, printed in the table), MAVEN_ARGS (e.g. -o).
#
# Exit status: 0 when every ratio is at most 2 and every scenario answered every request
# correctly; 1 when a ratio exceeds 2 or a scenario failed (the table says which); 2 on a usage
# error. The bound is a timing: on a machine shared with other work, run it again before reading
# much into one ratio.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

ops="${WIRE_OPS:-150}"
if ! [[ "$ops" =~ ^[1-9][0-9]*$ ]]; then
  echo "wire-p99.sh: WIRE_OPS: '$ops' (expected: a positive whole number)" >&2
  exit 2
fi
args=(
  -B -q -pl repos,racs-proxy,racs-bench,src/test -am verify
  -Dit.test=WireFaultsLong -Dtest=NONE
  -Dsurefire.failIfNoSpecifiedTests=false -Dfailsafe.failIfNoSpecifiedTests=false
  -Dspotless.check.skip=true "-Dracs.wire.ops=$ops"
)
if [ -n "${WIRE_SEED:-}" ]; then
  if ! [[ "$WIRE_SEED" =~ ^-?[0-9]+$ ]]; then
    echo "wire-p99.sh: WIRE_SEED: '$WIRE_SEED' (expected: a whole number)" >&2
    exit 2
  fi
  args+=("-Dracs.test.seed=$WIRE_SEED")
fi

mkdir -p src/test/target
table=src/test/target/wire-p99.txt
rm -f "$table"
status=0
# shellcheck disable=SC2086 # MAVEN_ARGS is a list of options
./mvnw ${MAVEN_ARGS:-} "${args[@]}" >src/test/target/wire-p99-maven.log 2>&1 || status=$?
if [ -f "$table" ]; then
  cat "$table"
else
  echo "wire-p99.sh: no table (the run failed before it); the end of the build's output:" >&2
  tail -40 src/test/target/wire-p99-maven.log >&2
  [ "$status" -ne 0 ] || status=1
fi
[ "$status" -eq 0 ] || status=1
exit "$status"
