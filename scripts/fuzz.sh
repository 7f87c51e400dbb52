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
# (not committed). A finding fails the run; the input is written into the Inputs directory as
# crash-<sha1> (or timeout-<sha1>), where every later build replays it as a regression test, and
# libFuzzer's "INFO: Seed:" line gives the seed.
#
# Environment:
#   RACS_FUZZ_SEED           libFuzzer seed (replays the same mutations, as far as timing allows)
#   RACS_FUZZ_UPDATE_CORPUS  1: after fuzzing, merge the committed corpus and what this and earlier
#                            runs found into the smallest set with the same coverage (libFuzzer
#                            -merge=1), and write it to <Class>Inputs/<method>/corpus/ to commit.
#                            Hand-written seeds (seeds/) and findings (crash-*) are kept as they are.
#   JAVA_HOME                a JDK 21 or newer (or java on the PATH)
#
# Replay a finding alone, in regression mode (the corpus and findings only, no fuzzing):
#   ./mvnw -pl racs-proxy -am test -Dtest=<Class> -Dsurefire.failIfNoSpecifiedTests=false
set -euo pipefail
shopt -s globstar nullglob
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
  "-Dracs.fuzz.forkTimeoutSeconds=$((seconds + 600))"
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

if [ "${RACS_FUZZ_UPDATE_CORPUS:-}" = 1 ]; then
  classpath_file=racs-proxy/target/fuzz-classpath.txt
  ./mvnw -B -q -pl racs-proxy -am -DskipTests -Dspotless.check.skip=true test-compile \
    dependency:build-classpath -Dmdep.includeScope=test "-Dmdep.outputFile=$PWD/$classpath_file"
  classpath="racs-proxy/target/test-classes:racs-proxy/target/classes:$(cat "$classpath_file")"
  java="$(./racs java-home)/bin/java"
  for source in racs-proxy/src/test/java/io/racs/proxy/**/*${filter}*FuzzTest.java; do
    [ -f "$source" ] || continue
    class=$(sed -e 's|^racs-proxy/src/test/java/||' -e 's|\.java$||' -e 's|/|.|g' <<<"$source")
    # The method annotated @FuzzTest (one per class: Jazzer fuzzes one per JVM).
    method=$(awk '/@FuzzTest/ { f = 1 } f && match($0, /void [A-Za-z0-9_]+\(/) {
      print substr($0, RSTART + 5, RLENGTH - 6); exit }' "$source")
    inputs="racs-proxy/src/test/resources/${class%.*}"
    inputs="${inputs//.//}/${class##*.}Inputs/$method"
    generated="racs-proxy/.cifuzz-corpus/$class/$method"
    merged=$(mktemp -d)
    # Seeds and findings stay as they are; libFuzzer counts what is in the output directory as
    # covered already, so the merge adds only what they do not reach.
    if [ -d "$inputs" ]; then
      find "$inputs" -type f ! -path "$inputs/corpus/*" -exec cp {} "$merged/" \;
    fi
    kept=$(ls "$merged")
    sources=()
    for dir in "$inputs/corpus" "$generated"; do
      [ -d "$dir" ] && sources+=("$dir")
    done
    echo "fuzz.sh: merging the corpus of $class.$method"
    log="racs-proxy/target/fuzz-merge-${class##*.}.log"
    if ! "$java" -XX:+EnableDynamicAgentLoading --add-modules jdk.incubator.vector \
      -cp "$classpath" com.code_intelligence.jazzer.Jazzer "--target_class=$class" \
      "--target_method=$method" -merge=1 "$merged" "${sources[@]}" >"$log" 2>&1; then
      echo "fuzz.sh:   the merge failed (see $log); the corpus is unchanged" >&2
      rm -rf "$merged"
      status=1
      continue
    fi
    rm -rf "$inputs/corpus"
    mkdir -p "$inputs/corpus"
    for file in "$merged"/*; do
      name=$(basename "$file")
      grep -qxF -e "$name" <<<"$kept" || cp "$file" "$inputs/corpus/"
    done
    rm -rf "$merged"
    echo "fuzz.sh:   $(find "$inputs/corpus" -type f | wc -l) inputs in $inputs/corpus"
  done
fi

findings=$(git ls-files --others --exclude-standard -- 'racs-proxy/src/test/resources/**/crash-*' \
  'racs-proxy/src/test/resources/**/timeout-*' 'racs-proxy/src/test/resources/**/slow-unit-*')
if [ -n "$findings" ]; then
  echo
  echo "fuzz.sh: new findings (replayed by every build once committed):"
  echo "$findings" | sed 's/^/  /'
fi
exit "$status"
