#!/usr/bin/env bash
# Measures `racs bench block sweep` against fio on the same preallocated file, point by point:
# sequential 1 MiB read/write and random 4 KiB read/write at 1, 4 and 16 threads, O_DIRECT,
# fio's psync engine (pread/pwrite, one I/O in flight per job, as racs-bench's threads do) with
# numjobs = threads. fio runs twice per point: as it runs by default (each job a process) and with
# --thread (each job a thread of one process, as racs-bench's threads are). The three measurements
# of a point go back to back, their order rotating from run to run; each point runs RUNS times,
# and the table gives each tool's mean and racs-bench/fio with an interval.
#
# Both tools do the same work at each point:
#   - sequential, N threads: one pass over the file split in N contiguous shares, each thread
#     streaming through its own share and wrapping around inside it (fio: size=FILE/N and
#     offset_increment=FILE/N; without them each fio job would stream the whole file from
#     offset 0, N readers of the same blocks at once);
#   - random, N threads: each thread at uniformly random blocks of the whole file, every block
#     once per pass (fio: its random map per job; racs-bench: its share of a seeded permutation);
#   - a fixed run time with nothing cut (fio's ramp_time=0, its default); fio's group_reporting
#     divides the jobs' summed I/O by the longest job's run time, racs-bench by the time from
#     the start signal (every thread ready) to the last thread's last completion.
#
# Usage: scripts/bench-vs-fio.sh [DIR]
#   DIR      a directory on the disk to measure (not tmpfs; default /var/tmp/racs-vs-fio)
# Environment: SIZE (file size, default 1GiB), RUNTIME (seconds per point and tool, default 2),
#   RUNS (default 3), THREADS (default "1 4 16"), PATTERNS (default
#   "seqread seqwrite randread randwrite"), KEEP=1 keeps the file (DIR/raw keeps the raw results
#   of both tools either way).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DIR="${1:-/var/tmp/racs-vs-fio}"
SIZE="${SIZE:-1GiB}"
RUNTIME="${RUNTIME:-2}"
RUNS="${RUNS:-3}"
THREADS="${THREADS:-1 4 16}"
PATTERNS="${PATTERNS:-seqread seqwrite randread randwrite}"

usage() { echo "bench-vs-fio.sh: $*" >&2; exit 2; }
case "$SIZE" in
  [1-9]*GiB) BYTES=$(( ${SIZE%GiB} << 30 )) ;;
  [1-9]*MiB) BYTES=$(( ${SIZE%MiB} << 20 )) ;;
  *) usage "SIZE: $SIZE (expected: e.g. 1GiB or 512MiB)" ;;
esac
[[ "$RUNTIME" =~ ^[1-9][0-9]*$ ]] || usage "RUNTIME: $RUNTIME (expected: whole seconds, at least 1)"
[[ "$RUNS" =~ ^[1-9][0-9]*$ ]] || usage "RUNS: $RUNS (expected: a whole number, at least 1)"
for t in $THREADS; do
  [[ "$t" =~ ^[1-9][0-9]*$ ]] || usage "THREADS: $THREADS (expected: whole numbers, e.g. \"1 4 16\")"
done
for p in $PATTERNS; do
  case "$p" in
    seqread | seqwrite | randread | randwrite) ;;
    *) usage "PATTERNS: $PATTERNS (expected: seqread, seqwrite, randread or randwrite)" ;;
  esac
done
command -v fio >/dev/null || { echo "fio is missing: apt-get install -y fio (or ./racs provision)" >&2; exit 1; }
mkdir -p "$DIR"
if [ "$(stat -f -c %T "$DIR")" = tmpfs ]; then
  usage "DIR: $DIR is on tmpfs (expected: a directory on a disk; O_DIRECT needs one)"
fi
FILE="$DIR/vs-fio.dat"
RAW="$DIR/raw"
rm -rf "$RAW"
mkdir -p "$RAW"
cleanup() {
  if [ -z "${KEEP:-}" ]; then rm -f "$FILE"; fi
}
trap cleanup EXIT

LOG="$RAW/racs-stderr.txt"
failed() { echo "racs bench failed; its messages:" >&2; tail -20 "$LOG" >&2; exit 1; }
bench() { RACS_NO_BUILD=1 "$ROOT/racs" bench "$@" 2>>"$LOG" || failed; }

# The file, written once with incompressible data (racs-bench's seeded fill, O_DIRECT); every
# point of both tools then reads and overwrites it in place. This first call builds the jars if
# the sources are newer; the calls in the loop never do.
"$ROOT/racs" bench block sweep --file "$FILE" --file-size "$SIZE" --records 1MiB --threads 1 \
  --patterns seqread --passes 1 --direct --out "$RAW/prepare" >/dev/null 2>>"$LOG" || failed

record_of() { case "$1" in seq*) echo 1MiB ;; *) echo 4KiB ;; esac; }
fio_rw() { case "$1" in seqread) echo read ;; seqwrite) echo write ;; *) echo "$1" ;; esac; }

run_fio() { # pattern threads out.json [--thread]
  local pattern="$1" threads="$2" out="$3" share=() bs
  shift 3
  bs="$(record_of "$pattern")"
  if [[ "$pattern" == seq* ]]; then
    share=(--size="$((BYTES / threads))" --offset_increment="$((BYTES / threads))")
  else
    share=(--size="$BYTES")
  fi
  fio "$@" --name=vsfio --filename="$FILE" --direct=1 --ioengine=psync \
    --rw="$(fio_rw "$pattern")" --bs="${bs%iB}" --numjobs="$threads" "${share[@]}" \
    --time_based --runtime="$RUNTIME" --group_reporting --output-format=json --output="$out"
}

run_racs() { # pattern threads out-dir
  bench block sweep --file "$FILE" --file-size "$SIZE" --reuse-file \
    --records "$(record_of "$1")" --threads "$2" --patterns "$1" --duration "${RUNTIME}s" \
    --direct --out "$3" >"$3.txt"
}

run_tool() { # tool pattern threads run
  local point="$2-t$3-r$4"
  case "$1" in
    fio) run_fio "$2" "$3" "$RAW/fio-$point.json" ;;
    fiothread) run_fio "$2" "$3" "$RAW/fiothread-$point.json" --thread ;;
    racs) run_racs "$2" "$3" "$RAW/racs-$point" ;;
  esac
}

echo "file $FILE ($SIZE), ${RUNTIME}s per point and tool, $RUNS runs, threads $THREADS" >&2
# One discarded round first: the device settles after the fill, and both tools' binaries and
# libraries are in the page cache before anything is measured.
mkdir -p "$RAW/warmup"
(RAW="$RAW/warmup" RUNTIME=1 && run_tool fio randread 1 0 && run_tool racs randread 1 0)
TOOLS=(fio racs fiothread)
for run in $(seq 1 "$RUNS"); do
  for threads in $THREADS; do
    for pattern in $PATTERNS; do
      # The order of the three tools rotates from run to run, so none always goes first.
      for i in 0 1 2; do
        run_tool "${TOOLS[$(((i + run) % 3))]}" "$pattern" "$threads" "$run"
      done
      echo "run $run/$RUNS: $pattern t$threads" >&2
    done
  done
done

# The table: each tool's mean and racs-bench over each fio, from the raw results.
bench versus fio "$RAW" --runs "$RUNS" --threads "${THREADS// /,}" --patterns "${PATTERNS// /,}"
