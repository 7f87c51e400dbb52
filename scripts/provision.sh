#!/usr/bin/env bash
# Installs what the integration and end-to-end tests need, when it is missing, and records where
# it is in $RACS_CACHE_DIR/env (read by io.racs.repos.minio.ProvisionedTools):
#   - the MinIO server, built with 'go install' of a pinned module version (cached: ~9 minutes
#     the first time on 2 cores, instant afterwards);
#   - a Python virtualenv with aws-cli v1 and boto3 from PyPI;
#   - mc (the MinIO client) and s5cmd, built from pinned Go module versions (cached beside MinIO
#     under $RACS_CACHE_DIR/tools; a few minutes the first time);
#   - rclone, fio, openssl, haproxy and OpenSSH (sshd, ssh-keygen) from Debian's packages
#     (haproxy: the load balancer of the Compose topology, which ComposeTopologyIT runs as its own
#     process with docker/haproxy.cfg; the package's service, where the system starts one, has
#     Debian's config, no frontends; sshd: the server SftpOpenSshIT runs the same way);
#   - Chromium from Debian's packages, for the test that renders the HTML reports headless;
#   - Azurite, the Azure Storage emulator, from npm at a pinned version (needs Node 20 or newer;
#     cached under $RACS_CACHE_DIR/tools);
#   - axe-core, the accessibility rules the console's browser test runs, from npm at a pinned
#     version (cached under $RACS_CACHE_DIR/tools);
#   - fake-gcs-server, the Google Cloud Storage emulator, built from a pinned Go module version
#     (cached beside mc and s5cmd; a minute or two the first time);
#   - Toxiproxy, the TCP fault proxy of the wire-fault tests, built the same way.
# With --minio-only it builds (or finds) the MinIO server alone, as `racs demo --minio` needs;
# with --clouds-only MinIO, Azurite and fake-gcs-server, as `racs demo --clouds` needs; with
# --wire-only MinIO and Toxiproxy, what a run of real sockets with faults on them needs.
# Idempotent. A missing toolchain (Go, Python) is an error that says what to install; nothing is
# ever skipped silently.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=versions.env
. "$ROOT/scripts/versions.env"

CACHE="${RACS_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/racs}"
mkdir -p "$CACHE/tools"

say() { echo "provision: $*" >&2; }
die() {
  echo "provision: $*" >&2
  exit 1
}

# One provisioning at a time per cache (parallel CI jobs or test runs share it).
exec 9>"$CACHE/provision.lock"
flock 9

minio_bin() {
  local dir="$CACHE/tools/minio-$MINIO_VERSION"
  if [ ! -x "$dir/minio" ]; then
    command -v go >/dev/null 2>&1 ||
      die "Go is needed to build the MinIO test server: install Go 1.24 or newer (e.g. 'apt-get install golang-go' or the upstream toolchain) and run again"
    say "building MinIO $MINIO_VERSION with go install (takes several minutes the first time) ..."
    local tmp
    tmp="$(mktemp -d "$CACHE/tools/.minio-build.XXXXXX")"
    # go install checks the module against the checksum database (reached through GOPROXY) and
    # its dependencies against MinIO's go.sum; nothing here turns that off (no GONOSUMDB).
    if ! GOBIN="$tmp" GOFLAGS="${GOFLAGS:-} -trimpath" go install "$MINIO_MODULE@$MINIO_VERSION" >"$tmp.log" 2>&1; then
      tail -20 "$tmp.log" >&2
      rm -rf "$tmp"
      die "go install $MINIO_MODULE@$MINIO_VERSION failed (log above)"
    fi
    mkdir -p "$dir"
    mv "$tmp/minio" "$dir/minio"
    rm -rf "$tmp" "$tmp.log"
  fi
  "$dir/minio" --version >/dev/null || die "$dir/minio does not run"
  echo "$dir/minio"
}

# go_tool NAME MODULE VERSION HOW [LDFLAGS [CHECK [PACKAGE]]]: builds the Go command NAME of MODULE@VERSION
# into the tools cache unless it is there already, and prints its path. The module and every
# dependency are checked against the checksum database (reached through GOPROXY) and the module's
# go.sum; nothing here turns that off. `go install` is used where it works; for a module whose
# version list the module proxy refuses (its deprecation check then fails, as for s5cmd v2), the
# module is downloaded with `go mod download`, which needs no list, and built in place with
# `go build -mod=readonly`, which is what `go install` would build (HOW is install or build;
# LDFLAGS, for build, set the version the command reports, which go install would leave as a
# module version only). CHECK is the argument that shows the built command runs and exits at once;
# by default --version, then version (a server with neither, such as fake-gcs-server, would start
# serving on an unknown word: it passes -help). PACKAGE, for install, is the command's directory
# inside the module when it is not the module's root (Toxiproxy's cmd/server, which go install
# names after its directory: it is renamed NAME here).
go_tool() {
  local name="$1" module="$2" version="$3" how="$4" ldflags="${5:-}" check="${6:-}"
  local package="${7:-}"
  local dir="$CACHE/tools/$name-$version"
  if [ ! -x "$dir/$name" ]; then
    command -v go >/dev/null 2>&1 ||
      die "Go is needed to build $name: install Go 1.24 or newer (e.g. 'apt-get install golang-go' or the upstream toolchain) and run again"
    say "building $name $version from $module (takes a few minutes the first time) ..."
    local tmp
    tmp="$(mktemp -d "$CACHE/tools/.$name-build.XXXXXX")"
    if ! (
      # Outside any module, so that no go.mod of the caller's takes part.
      cd "$tmp"
      if [ "$how" = install ] && [ -n "$package" ]; then
        GOBIN="$tmp" GOFLAGS="${GOFLAGS:-} -trimpath" go install "$module/$package@$version"
        mv "$tmp/$(basename "$package")" "$tmp/$name"
      elif [ "$how" = install ]; then
        GOBIN="$tmp" GOFLAGS="${GOFLAGS:-} -trimpath" go install "$module@$version"
      else
        local source
        source="$(go mod download -json "$module@$version" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')"
        [ -d "$source" ] || { echo "go mod download $module@$version gave no directory"; exit 1; }
        cd "$source"
        GOFLAGS="${GOFLAGS:-} -trimpath -mod=readonly" go build -ldflags "$ldflags" -o "$tmp/$name" .
      fi
    ) >"$tmp.log" 2>&1; then
      tail -20 "$tmp.log" >&2
      rm -rf "$tmp" "$tmp.log"
      die "building $module@$version failed (log above)"
    fi
    mkdir -p "$dir"
    mv "$tmp/$name" "$dir/$name"
    rm -rf "$tmp" "$tmp.log"
  fi
  if [ -n "$check" ]; then
    "$dir/$name" "$check" >/dev/null 2>&1 || die "$dir/$name does not run"
  else
    "$dir/$name" --version >/dev/null 2>&1 || "$dir/$name" version >/dev/null 2>&1 ||
      die "$dir/$name does not run"
  fi
  echo "$dir/$name"
}

python_venv() {
  local venv="$CACHE/venv-awscli-$AWSCLI_VERSION-boto3-$BOTO3_VERSION"
  if [ ! -x "$venv/bin/aws" ] || ! "$venv/bin/python" -c 'import boto3' >/dev/null 2>&1; then
    command -v python3 >/dev/null 2>&1 ||
      die "Python 3 is needed for the aws-cli and boto3 tests: install python3 with the venv module (e.g. 'apt-get install python3 python3-venv') and run again"
    python3 -c 'import venv, ensurepip' >/dev/null 2>&1 ||
      die "Python's venv module is missing: install it (e.g. 'apt-get install python3-venv') and run again"
    say "creating a Python virtualenv with awscli $AWSCLI_VERSION and boto3 $BOTO3_VERSION ..."
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
      "awscli==$AWSCLI_VERSION" "boto3==$BOTO3_VERSION" ||
      die "pip could not install awscli==$AWSCLI_VERSION boto3==$BOTO3_VERSION"
  fi
  echo "$venv"
}

# Installs npm package PACKAGE at VERSION into the tools cache as NAME-VERSION unless FILE (a path
# inside it) is there already, and prints the install's directory. npm installs into the version's
# own directory (--prefix), never globally, and with --ignore-scripts, as no tool installed here
# needs install hooks. WHY says what the tool is for, in the error when npm is missing.
npm_tool() {
  local name="$1" package="$2" version="$3" file="$4" why="$5"
  local dir="$CACHE/tools/$name-$version"
  if [ ! -e "$dir/$file" ]; then
    command -v npm >/dev/null 2>&1 && command -v node >/dev/null 2>&1 ||
      die "Node.js 20 and npm are needed for $why: install them (e.g. 'apt-get install nodejs npm') and run again"
    say "installing $package $version from npm ..."
    local tmp
    tmp="$(mktemp -d "$CACHE/tools/.$name-install.XXXXXX")"
    if ! npm install --prefix "$tmp" --no-audit --no-fund --ignore-scripts --loglevel=error \
      "$package@$version" >"$tmp.log" 2>&1; then
      tail -20 "$tmp.log" >&2
      rm -rf "$tmp" "$tmp.log"
      die "npm install $package@$version failed (log above)"
    fi
    rm -rf "$dir"
    mv "$tmp" "$dir"
    rm -f "$tmp.log"
  fi
  echo "$dir"
}

# Installs Azurite at $AZURITE_VERSION (npm_tool) unless it is there, and prints the path of its
# blob service.
azurite_bin() {
  local dir bin
  dir="$(npm_tool azurite azurite "$AZURITE_VERSION" node_modules/.bin/azurite-blob \
    "the Azurite emulator")"
  bin="$dir/node_modules/.bin/azurite-blob"
  "$bin" --version >/dev/null 2>&1 || die "$bin does not run"
  echo "$bin"
}

# Installs axe-core at $AXE_CORE_VERSION (npm_tool) unless it is there, and prints the path of its
# browser script, which the console's browser test injects into each page (axe-core is that one
# prebuilt file and has no dependencies).
axe_core_js() {
  local dir js
  dir="$(npm_tool axe-core axe-core "$AXE_CORE_VERSION" node_modules/axe-core/axe.min.js \
    "axe-core (the console's accessibility check)")"
  js="$dir/node_modules/axe-core/axe.min.js"
  grep -q "axe v$AXE_CORE_VERSION" "$js" || die "$js is not axe-core $AXE_CORE_VERSION"
  echo "$js"
}

# Installs Debian packages that provide the given commands, if any is missing. An argument is a
# command named as its package, or COMMAND:PACKAGE where they differ.
debian_tools() {
  local missing=() command
  for command in "$@"; do
    PATH="$PATH:/usr/sbin" command -v "${command%%:*}" >/dev/null 2>&1 || missing+=("${command#*:}")
  done
  [ "${#missing[@]}" -eq 0 ] && return
  command -v apt-get >/dev/null 2>&1 ||
    die "missing ${missing[*]}: install them with your package manager and run again"
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 ||
      die "missing ${missing[*]}: run 'apt-get install ${missing[*]}' as root and run again"
    sudo="sudo -n"
  fi
  say "installing ${missing[*]} from Debian's packages ..."
  $sudo apt-get update -qq >/dev/null || die "apt-get update failed"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null ||
    die "apt-get install ${missing[*]} failed"
}

# libfaketime's preload library (the Debian package puts it under the architecture's lib dir).
faketime_lib() {
  local lib
  for lib in /usr/lib/*/faketime/libfaketime.so.1 /usr/lib/faketime/libfaketime.so.1; do
    [ -f "$lib" ] && echo "$lib" && return
  done
  die "faketime is installed but libfaketime.so.1 was not found"
}

# Sets NAME=VALUE lines in the env file, keeping every other line of an earlier provisioning.
update_env() {
  local env_file="$CACHE/env" pair
  touch "$env_file"
  cp "$env_file" "$env_file.tmp"
  for pair in "$@"; do
    grep -v "^${pair%%=*}=" "$env_file.tmp" >"$env_file.tmp2" || true
    echo "$pair" >>"$env_file.tmp2"
    mv "$env_file.tmp2" "$env_file.tmp"
  done
  mv "$env_file.tmp" "$env_file"
}

# Builds Toxiproxy's server at the pinned version (or finds it) and prints its path.
toxiproxy_bin() {
  go_tool toxiproxy-server "$TOXIPROXY_MODULE" "$TOXIPROXY_VERSION" install "" -version \
    "$TOXIPROXY_PACKAGE"
}

main() {
  local minio venv mc s5cmd azurite fake_gcs toxiproxy axe_core
  minio="$(minio_bin)"
  if [ "${1:-}" = "--minio-only" ]; then
    # racs demo --minio needs only the server; keep whatever else was provisioned before.
    update_env "RACS_MINIO_BIN=$minio"
    return
  fi
  if [ "${1:-}" = "--clouds-only" ]; then
    # racs demo --clouds: MinIO and the two emulators. Its SFTP server is Apache MINA SSHD in the
    # JVM, or sshd if a full provisioning installed it (no root needed for the demo either way).
    fake_gcs="$(go_tool fake-gcs-server "$FAKE_GCS_MODULE" "$FAKE_GCS_VERSION" install "" -help)"
    azurite="$(azurite_bin)"
    update_env "RACS_MINIO_BIN=$minio" "RACS_AZURITE_BLOB=$azurite" "RACS_FAKE_GCS=$fake_gcs"
    return
  fi
  if [ "${1:-}" = "--wire-only" ]; then
    # MinIO servers behind Toxiproxy: the wire-fault tests and a real-socket WAN run.
    toxiproxy="$(toxiproxy_bin)"
    update_env "RACS_MINIO_BIN=$minio" "RACS_TOXIPROXY=$toxiproxy"
    return
  fi
  venv="$(python_venv)"
  mc="$(go_tool mc "$MC_MODULE" "$MC_VERSION" install)"
  s5cmd="$(go_tool s5cmd "$S5CMD_MODULE" "$S5CMD_VERSION" build \
    "-X $S5CMD_MODULE/version.Version=$S5CMD_VERSION -X $S5CMD_MODULE/version.GitCommit=$S5CMD_COMMIT")"
  fake_gcs="$(go_tool fake-gcs-server "$FAKE_GCS_MODULE" "$FAKE_GCS_VERSION" install "" -help)"
  toxiproxy="$(toxiproxy_bin)"
  # openssh-server: sshd, which SftpOpenSshIT runs as a process of the test's own user on a free
  # port with its own config (the package's service, where the system starts one, is left alone).
  # faketime: libfaketime, preloaded into a proxy whose clock a test sets apart from the others'
  # (ObjectLockClocksIT).
  # unzip and iproute2's ss: the scripts' module check (go_module_source) and port probe (free_port).
  debian_tools rclone fio openssl chromium haproxy sshd:openssh-server ssh-keygen:openssh-client \
    faketime unzip ss:iproute2
  azurite="$(azurite_bin)"
  # chromium-driver: chromedriver, which drives chromium in the console's browser test
  # (ConsoleBrowserIT). Debian pins no exact version; versions.env notes the one tested.
  debian_tools chromedriver:chromium-driver
  axe_core="$(axe_core_js)"
  local env_file="$CACHE/env"
  {
    echo "# Written by scripts/provision.sh; read by io.racs.repos.minio.ProvisionedTools."
    echo "RACS_MINIO_BIN=$minio"
    echo "RACS_PYTHON=$venv/bin/python"
    echo "RACS_AWS_CLI=$venv/bin/aws"
    echo "RACS_RCLONE=$(command -v rclone)"
    echo "RACS_MC=$mc"
    echo "RACS_S5CMD=$s5cmd"
    echo "RACS_FIO=$(command -v fio)"
    echo "RACS_CHROMIUM=$(command -v chromium)"
    echo "RACS_CHROMEDRIVER=$(command -v chromedriver)"
    echo "RACS_AXE_CORE=$axe_core"
    echo "RACS_HAPROXY=$(command -v haproxy)"
    echo "RACS_AZURITE_BLOB=$azurite"
    echo "RACS_SSHD=$(PATH="$PATH:/usr/sbin" command -v sshd)"
    echo "RACS_FAKE_GCS=$fake_gcs"
    echo "RACS_TOXIPROXY=$toxiproxy"
    echo "RACS_SSH_KEYGEN=$(command -v ssh-keygen)"
    echo "RACS_FAKETIME_LIB=$(faketime_lib)"
  } >"$env_file.tmp"
  mv "$env_file.tmp" "$env_file"
  say "ready ($env_file)"
}

main "$@"
