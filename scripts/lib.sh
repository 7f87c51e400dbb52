# Shell functions shared by the scripts that start servers (the bench-vs-*.sh comparisons, soak.sh,
# stall-experiment.sh): sourced, never run.
#   . "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
# Sets ROOT (the repository) and CACHE (the racs tools cache, as scripts/provision.sh uses it), and
# reads the pinned versions of scripts/versions.env. The servers a script starts through these
# functions, and its work directory, go when it exits.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE="${RACS_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/racs}"
# shellcheck source=versions.env
. "$ROOT/scripts/versions.env"

# MinIO's root credentials in every comparison.
MINIO_ACCESS_KEY=benchadmin
MINIO_SECRET_KEY=benchadmin-secret

# free_port: prints a TCP port of 127.0.0.1 that no socket listens on now: a random port above the
# kernel's ephemeral range's start that `ss` does not list (a port can be taken between this and the
# bind, as with any such probe; the callers start one server per port, each failing loudly if so).
free_port() {
  local port _
  for _ in $(seq 1 200); do
    port=$((20000 + RANDOM % 30000))
    if [ -z "$(ss -Htan "( sport = :$port or dport = :$port )" 2>/dev/null)" ]; then
      echo "$port"
      return 0
    fi
  done
  echo "free_port: no free TCP port found in 200 tries" >&2
  return 1
}

# whole_numbers NAME...: exits 2 with one line on stderr naming the first of these variables that
# is not a whole number of at least 1 (a script's settings, checked before it starts anything).
whole_numbers() {
  local name
  for name in "$@"; do
    [[ "${!name}" =~ ^[1-9][0-9]*$ ]] || {
      echo "$(basename "$0"): $name: ${!name} (expected: a whole number, at least 1)" >&2
      exit 2
    }
  done
}

# pin CPUS COMMAND...: replaces the shell with COMMAND, on those CPUs (a taskset list) when CPUS
# is set. Call it in a subshell.
pin() {
  local cpus="$1"
  shift
  if [ -n "$cpus" ]; then exec taskset -c "$cpus" "$@"; else exec "$@"; fi
}

# init_work NAME: creates the work directory WORK ($TMPDIR/racs-NAME.XXXXXX) and arranges for
# cleanup to run on exit.
init_work() {
  WORK="$(mktemp -d "${TMPDIR:-/tmp}/racs-$1.XXXXXX")"
  trap cleanup EXIT
}

# cleanup [PID...]: stops the MinIO and racs servers this shell started (MINIO_PID, MINIO_PIDS,
# RACS_PID) and the processes PID..., continuing them first (a process stopped with SIGSTOP only
# ends once it runs again), waits for its background jobs, and removes WORK; when KEEP_WORK is set,
# keeps WORK and says where it is.
cleanup() {
  local pids=("$@")
  [ -z "${MINIO_PID:-}" ] || pids+=("$MINIO_PID")
  [ -z "${RACS_PID:-}" ] || pids+=("$RACS_PID")
  pids+=(${MINIO_PIDS[@]+"${MINIO_PIDS[@]}"})
  if [ "${#pids[@]}" -gt 0 ]; then
    kill -CONT "${pids[@]}" 2>/dev/null || true
    kill "${pids[@]}" 2>/dev/null || true
  fi
  wait 2>/dev/null || true
  if [ -n "${KEEP_WORK:-}" ]; then
    echo "$(basename "$0"): work directory kept: $WORK" >&2
  else
    rm -rf "$WORK"
  fi
}

# find_minio: builds the pinned MinIO server if it is not built yet (scripts/provision.sh, which
# waits for a build already under way) and sets MINIO_BIN to it.
find_minio() {
  "$ROOT/scripts/provision.sh" --minio-only >&2
  MINIO_BIN="$(sed -n 's/^RACS_MINIO_BIN=//p' "$CACHE/env")"
  [ -x "$MINIO_BIN" ] || {
    echo "no MinIO server recorded in $CACHE/env after scripts/provision.sh --minio-only" >&2
    exit 1
  }
}

# wait_minio_ready PORT LOG: waits up to 60 s for the MinIO server on PORT to report ready;
# otherwise prints its LOG and exits.
wait_minio_ready() {
  local port="$1" log="$2"
  for _ in $(seq 1 600); do
    curl -fs "http://127.0.0.1:$port/minio/health/ready" >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  cat "$log" >&2
  echo "MinIO on 127.0.0.1:$port did not become ready in 60 s" >&2
  exit 1
}

# start_minio_servers COUNT: starts COUNT single-drive MinIO servers in the background, server I on
# a free port with its drive WORK/minio-I and its output in WORK/minio-I.log, and sets MINIO_PIDS and
# MINIO_PORTS (index I). wait_minio_servers waits for them, so that other work can start meanwhile.
start_minio_servers() {
  local count="$1" i port
  MINIO_PIDS=()
  MINIO_PORTS=()
  for ((i = 0; i < count; i++)); do
    port="$(free_port)"
    mkdir -p "$WORK/minio-$i"
    (
      export MINIO_ROOT_USER="$MINIO_ACCESS_KEY" MINIO_ROOT_PASSWORD="$MINIO_SECRET_KEY" MINIO_CI_CD=1 \
        MINIO_BROWSER=off MINIO_UPDATE=off
      exec "$MINIO_BIN" server --quiet --address "127.0.0.1:$port" "$WORK/minio-$i"
    ) >>"$WORK/minio-$i.log" 2>&1 &
    MINIO_PIDS+=("$!")
    MINIO_PORTS+=("$port")
  done
}

# wait_minio_servers: waits for every server start_minio_servers started to be ready (see
# wait_minio_ready, which prints the log of one that is not and exits).
wait_minio_servers() {
  local i
  for i in "${!MINIO_PORTS[@]}"; do
    wait_minio_ready "${MINIO_PORTS[$i]}" "$WORK/minio-$i.log"
  done
}

# create_minio_bucket PORT BUCKET: creates BUCKET on the MinIO server on PORT (SigV4 by curl itself,
# with the root credentials); fails, saying why on stderr, when the server refuses.
create_minio_bucket() {
  curl -fsS --aws-sigv4 "aws:amz:us-east-1:s3" --user "$MINIO_ACCESS_KEY:$MINIO_SECRET_KEY" \
    -X PUT "http://127.0.0.1:$1/$2" >/dev/null
}

# fresh_minio DRIVES [STORAGE_CLASS [CPUS]]: stops the MinIO server started by the last call, if
# any, and starts a new one on DRIVES empty directories under WORK/minio (WORK/minio itself when
# DRIVES is 1) with the standard storage class STORAGE_CLASS (e.g. EC:2; MinIO's default when
# empty), on CPUS (see pin) when set. Appends its output to WORK/minio.log, sets MINIO_PORT and
# MINIO_PID, and returns once it is ready.
fresh_minio() {
  local drives="$1" storage_class="${2:-}" cpus="${3:-}" dirs=() i
  if [ -n "${MINIO_PID:-}" ]; then
    kill "$MINIO_PID" 2>/dev/null || true
    wait "$MINIO_PID" 2>/dev/null || true
  fi
  rm -rf "$WORK/minio"
  sync # the removed drives' metadata is on disk before the next run starts
  if [ "$drives" -eq 1 ]; then
    dirs=("$WORK/minio")
  else
    for i in $(seq 1 "$drives"); do dirs+=("$WORK/minio/d$i"); done
  fi
  mkdir -p "${dirs[@]}"
  MINIO_PORT="$(free_port)"
  (
    export MINIO_ROOT_USER="$MINIO_ACCESS_KEY" MINIO_ROOT_PASSWORD="$MINIO_SECRET_KEY" MINIO_CI_CD=1 \
      MINIO_BROWSER=off
    [ -z "$storage_class" ] || export MINIO_STORAGE_CLASS_STANDARD="$storage_class"
    pin "$cpus" "$MINIO_BIN" server --quiet --address "127.0.0.1:$MINIO_PORT" "${dirs[@]}"
  ) >>"$WORK/minio.log" 2>&1 &
  MINIO_PID=$!
  wait_minio_ready "$MINIO_PORT" "$WORK/minio.log"
}

# start_racs: starts `racs server` in the background, 4x2 over its default six fs repositories in
# WORK/racs, on a free port (credentials benchracs / benchracs-secret, no admin port), logging to
# WORK/racs.log; sets RACS_PORT and RACS_PID. wait_racs_ready waits for it, so that a MinIO can
# start meanwhile.
start_racs() {
  RACS_PORT="$(free_port)"
  "$ROOT/racs" server --data-dir "$WORK/racs" --listen "127.0.0.1:$RACS_PORT" --admin-listen off \
    --access-key benchracs --secret-key benchracs-secret >"$WORK/racs.log" 2>&1 &
  RACS_PID=$!
}

# wait_racs_ready: waits up to 60 s for the server start_racs started to print its ready line;
# otherwise prints its log and exits.
wait_racs_ready() {
  for _ in $(seq 1 600); do
    grep -q '^ready' "$WORK/racs.log" && return 0
    sleep 0.1
  done
  cat "$WORK/racs.log" >&2
  echo "racs server did not start" >&2
  exit 1
}

# go_module_source MODULE VERSION SUM DEST: downloads MODULE@VERSION from the Go module proxy
# (skipping the checksum database for MODULE alone), checks that the module zip hashes to SUM, the
# go.sum hash recorded in scripts/versions.env, and extracts that zip into DEST. The hash is
# computed here from the zip's bytes, as the go command's dirhash.HashZip does (SHA-256 over the
# sorted "sha256  name" lines of the zip's files), rather than taken from the module cache, and
# the build then uses the bytes it was computed from. A mismatch is one line on stderr and exit 1.
go_module_source() {
  local module="$1" version="$2" sum="$3" dest="$4" json zip
  json="$(GOFLAGS=-mod=mod GONOSUMDB="$module" go mod download -json "$module@$version")" || {
    echo "go mod download $module@$version failed: $(sed -n 's/^\t"Error": "\(.*\)",\{0,1\}$/\1/p' <<<"$json")" >&2
    exit 1
  }
  zip="$(sed -n 's/^\t"Zip": "\(.*\)",$/\1/p' <<<"$json")"
  [ -f "$zip" ] || {
    echo "go mod download $module@$version gave no module zip" >&2
    exit 1
  }
  command -v unzip >/dev/null 2>&1 || {
    echo "unzip is needed to check the $module module zip: run ./racs provision (or apt-get install unzip)" >&2
    exit 1
  }
  local names name actual unpacked
  names="$(unzip -Z1 "$zip" | LC_ALL=C sort)"
  while IFS= read -r name; do
    case "/$name/" in
      "/$module@$version/"*/) ;;
      *) echo "$module@$version: unexpected entry in the module zip: $name" >&2; exit 1 ;;
    esac
    case "/$name/" in
      */../* | */./* | *//*) echo "$module@$version: unexpected entry in the module zip: $name" >&2; exit 1 ;;
    esac
  done <<<"$names"
  unpacked="$(mktemp -d)"
  unzip -qq -d "$unpacked" "$zip" || { rm -rf "$unpacked"; echo "unzip of $zip failed" >&2; exit 1; }
  # dirhash's "h1:": base64 of the SHA-256 of the sorted "<sha256 hex>  <name>" lines.
  local digest
  digest="$(cd "$unpacked" && xargs -d '\n' sha256sum -- <<<"$names" | sha256sum | cut -c1-64)"
  actual="h1:$(printf '%b' "$(sed 's/../\\x&/g' <<<"$digest")" | base64)"
  if [ "$actual" != "$sum" ]; then
    rm -rf "$unpacked"
    echo "$module@$version: the module zip hashes to $actual, expected $sum (scripts/versions.env); refusing to build it" >&2
    exit 1
  fi
  mkdir -p "$dest"
  cp -R "$unpacked/$module@$version/." "$dest/"
  rm -rf "$unpacked"
}
