#!/usr/bin/env bash
# The WAN run of issue 20: RACS (4x2, in process: `racs bench object --array`) over six fs
# repositories behind the latency decorator, against one such repository measured directly, with
# one client, for GET, HEAD, LIST, PUT and DELETE of 4 KiB and 1 MiB objects, at 0, 20 and 50 ms
# of round trip per repository call; it prints each p50 and the ratio RACS / direct. Then the
# jitter case: every repository 20 ms +- 20 ms per round trip (uniform jitter each way) with 2% of
# calls 200 ms late, GET 4 KiB and 1 MiB, p50 and p99 of both, RACS with hedged reads on (the
# default) and off (`array: {hedge: {enabled: false}}`).
#
# A round trip of d is half of d before each repository call and half after it (the decorator's
# request and response delays), so a repository call costs d, and a client operation costs d times
# the repository rounds it waits for.
#
# Usage: scripts/bench-wan.sh           short: 2 iterations of 1 s per point (jitter: 5 s)
#        LONG=1 scripts/bench-wan.sh    longer: 5 iterations of 5 s per point (jitter: 20 s)
#        JITTER_ONLY=1 scripts/bench-wan.sh   the jitter case only (hedging on and off)
# ITERATIONS, DURATION and JITTER_DURATION override the chosen lengths (a smoke check:
# JITTER_ONLY=1 ITERATIONS=1 JITTER_DURATION=1s).
# Prints the tables; the raw racs-bench outputs stay in $WORK until the script ends (KEEP=1 keeps
# them). RACS_NO_BUILD=1 uses the jars as built.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

if [ -n "${LONG:-}" ]; then
  ITERATIONS="${ITERATIONS:-5}" DURATION="${DURATION:-5s}" JITTER_DURATION="${JITTER_DURATION:-20s}"
else
  ITERATIONS="${ITERATIONS:-2}" DURATION="${DURATION:-1s}" JITTER_DURATION="${JITTER_DURATION:-5s}"
fi
OBJECTS="${OBJECTS:-16}"

init_work wan
[ -z "${KEEP:-}" ] || KEEP_WORK=1
[ -n "${RACS_NO_BUILD:-}" ] || "$ROOT/racs" build >/dev/null

# config FILE LATENCY [ARRAY]: six fs repositories a0..a5 (the array's slots) and one more, direct,
# each with LATENCY as its decorators line (empty: none); ARRAY is more fields of the array section.
config() {
  local file="$1" latency="$2" array="${3:-}" name
  {
    echo "array: {geometry: 4x2, slots: [a0, a1, a2, a3, a4, a5]${array:+, $array}}"
    echo "repositories:"
    for name in a0 a1 a2 a3 a4 a5 direct; do
      mkdir -p "$WORK/$(basename "$file" .yaml)/$name"
      echo "  - name: $name"
      echo "    type: fs"
      echo "    path: $WORK/$(basename "$file" .yaml)/$name"
      echo "    durable: false"
      [ -z "$latency" ] || echo "    decorators: [$latency]"
    done
  } >"$file"
}

bench() {
  "$ROOT/racs" bench object --quiet --repository direct --array racs --overhead racs/direct \
    --objects "$OBJECTS" --clients 1 --warmup 1 --iterations "$ITERATIONS" "$@"
}

if [ -z "${JITTER_ONLY:-}" ]; then
  config "$WORK/delay.yaml" ""
  echo "== delay: GET/HEAD/LIST/PUT/DELETE x 4KiB/1MiB at 0, 20, 50 ms ($ITERATIONS x $DURATION per point)" >&2
  bench --config "$WORK/delay.yaml" --op get,head,list,put,delete --sizes 4KiB,1MiB \
    --delay 0ms,20ms,50ms --duration "$DURATION" --out "$WORK/delay" >"$WORK/delay.txt"
fi

# 20 ms +- 20 ms per round trip: up to 20 ms uniform each way; 2% of calls 200 ms later. The same
# seed for both runs, so hedging on and off meet the same sequence of delays per repository.
JITTER="{latency: {jitter: 20ms, responseJitter: 20ms, lateRate: 0.02, lateDelay: 200ms, seed: 20}}"
for hedge in on off; do
  enabled=true
  [ "$hedge" = on ] || enabled=false
  config "$WORK/jitter-$hedge.yaml" "$JITTER" "hedge: {enabled: $enabled}"
  echo "== jitter, hedging $hedge: GET 4KiB/1MiB, 20 ms +- 20 ms, 2% 200 ms late ($ITERATIONS x $JITTER_DURATION per point)" >&2
  bench --config "$WORK/jitter-$hedge.yaml" --op get --sizes 4KiB,1MiB \
    --duration "$JITTER_DURATION" --out "$WORK/jitter-$hedge" >"$WORK/jitter-$hedge.txt"
done

python3 - "$WORK/delay/results.json" "$WORK/jitter-on/results.json" "$WORK/jitter-off/results.json" <<'PY'
import json, os, sys

def points(path):
    return {p["id"]: p for p in json.load(open(path))["points"]}

def lat(p, q):
    return p["latencyMillis"][q]

delay = points(sys.argv[1]) if os.path.exists(sys.argv[1]) else {}
def per_op(p):
    calls = p.get("repositoryRequestsPerOp") or {}
    return " ".join(f"{k} {v:.1f}" for k, v in sorted(calls.items())) or "-"

print("| op | size | round trip | direct p50 ms | RACS p50 ms | RACS / direct | RACS repository requests per op |")
print("|---|---|---|---|---|---|---|")
for op in ["get", "head", "list", "put", "delete"]:
    for size in ["4KiB", "1MiB"]:
        for d in ["0ms", "20ms", "50ms"]:
            a = delay.get(f"direct/{op}/{size}/c1/d{d}")
            b = delay.get(f"racs/{op}/{size}/c1/d{d}")
            if a is None or b is None:
                continue
            pa, pb = lat(a, "p50"), lat(b, "p50")
            errors = a["errorsTotal"] + b["errorsTotal"]
            note = f" ({errors} errors)" if errors else ""
            print(f"| {op} | {size} | {d} | {pa:.2f} | {pb:.2f} | {pb / pa:.2f}{note} | {per_op(b)} |")
print()
hedged = points(sys.argv[2])
unhedged = points(sys.argv[3])
print("| jitter case: GET | size | p50 ms | p99 ms | max ms | ops | RACS repository requests per op |")
print("|---|---|---|---|---|---|---|")
for size in ["4KiB", "1MiB"]:
    rows = [
        ("direct", hedged.get(f"direct/get/{size}/c1/d0ms")),
        ("racs, hedging on", hedged.get(f"racs/get/{size}/c1/d0ms")),
        ("racs, hedging off", unhedged.get(f"racs/get/{size}/c1/d0ms")),
    ]
    for name, p in rows:
        if p is None:
            continue
        calls = per_op(p) if name != "direct" else ""
        print(f"| {name} | {size} | {lat(p, 'p50'):.2f} | {lat(p, 'p99'):.2f} | {lat(p, 'max'):.2f} | {p['ops']} | {calls} |")
PY
