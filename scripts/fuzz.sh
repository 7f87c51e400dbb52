#!/usr/bin/env bash
# Fuzzes the network parsers of racs-proxy with Jazzer, longer than the short run every build does.
#
#   scripts/fuzz.sh [seconds-per-target] [target-filter]
#
#   seconds-per-target  how long each fuzz test fuzzes (default 300)
#   target-filter       a part of the fuzz test class names to run (default: all), e.g. Xml, Body
#
# Each *FuzzTest class of racs-proxy runs in its own JVM (Jazzer fuzzes one @FuzzTest per JVM):
# first over its committed corpus (src/test/resources/<package>/<Class>Inputs/<method>/), then on
# new inputs. Inputs that reach new code are kept in racs-proxy/.cifuzz-corpus/<class>/<method>/
# (not committed; copy the useful ones into the Inputs directory). A finding fails the run; the
# input is written into the Inputs directory as crash-<sha1> (or timeout-<sha1>), where every
# later build replays it as a regression test, and libFuzzer's "INFO: Seed:" line gives the seed.
#
# Environment:
#   RACS_FUZZ_SEED  libFuzzer seed (replays the same mutations, as far as timing allows)
#   JAVA_HOME       a JDK 21 or newer (./racs finds one the same way)
#
# Replay a finding alone, in regression mode (its corpus and findings only, no fuzzing):
#   ./mvnw -pl racs-proxy -am test -Dtest=<Class> -Dsurefire.failIfNoSpecifiedTests=false
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

seconds="${1:-300}"
filter="${2:-}"
if ! [[ "$seconds" =~ ^[1-9][0-9]*$ ]]; then
  echo "fuzz.sh: seconds-per-target: '$seconds' (expected: a positive whole number)" >&2
  exit 2
fi
if ! [[ "$filter" =~ ^[A-Za-z0-9]*$ ]]; then
  echo "fuzz.sh: target-filter: '$filter' (expected: letters and digits of a class name)" >&2
  exit 2
fi

args=(
  -B -pl racs-proxy -am test
  # The unit tests (and those of the modules built with -am) are skipped; the fuzz execution is not.
  -DskipTests -Dracs.fuzz.skip=false
  "-Dracs.fuzz.maxDuration=${seconds}s"
  "-Dracs.fuzz.includes=**/*${filter}*FuzzTest.java"
  -Dspotless.check.skip=true
)
if [ -n "${RACS_FUZZ_SEED:-}" ]; then
  if ! [[ "$RACS_FUZZ_SEED" =~ ^[0-9]+$ ]]; then
    echo "fuzz.sh: RACS_FUZZ_SEED: '$RACS_FUZZ_SEED' (expected: a whole number)" >&2
    exit 2
  fi
  args+=("-Dracs.fuzz.seed=$RACS_FUZZ_SEED")
fi

status=0
./mvnw "${args[@]}" || status=$?
findings=$(git ls-files --others --exclude-standard -- 'racs-proxy/src/test/resources/**/crash-*' \
  'racs-proxy/src/test/resources/**/timeout-*' 'racs-proxy/src/test/resources/**/slow-unit-*')
if [ -n "$findings" ]; then
  echo
  echo "fuzz.sh: new findings (replayed by every build once committed):"
  echo "$findings" | sed 's/^/  /'
fi
exit "$status"
