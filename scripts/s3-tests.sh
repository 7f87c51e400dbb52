#!/usr/bin/env bash
# Runs groups of the ceph s3-tests suite (gaul/s3-tests, the fork S3Proxy runs) against RACS and
# against a plain MinIO server, and prints pass/fail/skip counts per group side by side, so that
# RACS's outcomes can be compared with MinIO's (docs/conformance.md). Not part of `./racs test`:
# CI cannot reach the suite.
#
#   - RACS: `racs server` (built first with `./racs build`), 4x2 over six fs repositories in the work directory, over HTTPS (a
#     self-signed certificate made here), with a master key file (SSE-S3 and bucket encryption),
#     and otherwise the default configuration (lifecycle on), but for a lifecycle scan every 5 s
#     instead of every hour: the suite waits only a few of its 10 s lifecycle "days".
#   - MinIO: the pinned server (scripts/provision.sh), one drive, over HTTPS, with a static KMS key
#     named testkey-1 (the suite's default SSE-KMS key id), so that SSE-S3, SSE-C and SSE-KMS work.
#
# The suite wants three users (main, alt, tenant). RACS has one tenant: the three access keys all
# reach the same buckets, so tests of permissions between users fail there ("not applicable:
# single tenant"). MinIO gets the same three keys (root and two users with the readwrite policy).
# For the policy group alt is instead a user with no rights of its own but ListBuckets (GROUP_ALT):
# on RACS a user stored in the array (`racs users add`), on MinIO a user, each with one policy that
# allows s3:ListAllMyBuckets only, so that it is denied what no bucket policy grants it, as another
# account is on AWS. (The suite's set-up lists alt's buckets before every test, which AWS answers
# for any account, RACS and MinIO only with that action.) Each target is then started twice, once
# per kind of alt, each time on fresh storage.
#
# Usage: scripts/s3-tests.sh [options] S3TESTS_DIR
#   S3TESTS_DIR        a work tree of the s3-tests suite (README.rst, s3tests/functional/)
#   --target T         racs, minio or both (default both)
#   --groups G,...     groups to run (default all): versioning, tagging, cors, lifecycle,
#                      conditional, metadata, post, encryption, atomic, list, lock, policy
#   -k EXPR            run this pytest -k expression instead, as the group "custom"
#   --out DIR          where results go (default ./s3-tests-out/<date>): DIR/<target>/<group>.xml
#                      (JUnit), DIR/outcomes.tsv (target, group, test, outcome), DIR/summary.md;
#                      the summary takes in every target of DIR that has results for every group
#   --lc-interval S    the suite's lc_debug_interval (seconds one lifecycle "day" takes on rgw's
#                      debug mode; neither RACS nor MinIO has one; default 10)
# Environment: JAVA_HOME, a JDK >= 21 for the proxy; S3TESTS_VENV, a Python venv with the suite's requirements (default: made under the
# racs tools cache from S3TESTS_DIR/requirements.txt on first use); KEEP_WORK keeps the work dir.
# Exit status: 0 when every run finished (whatever the tests said), 1 on a setup failure, 2 on
# bad usage.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

usage() {
  sed -n '/^# Usage:/,/^# Exit status/p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

# The groups the conformance issues (#18, #21, #39, #40) name, as pytest -k expressions over test
# names. pytest matches -k words against markers too (so `cors` also takes tests marked cors).
# lock: the object lock tests (all named test_object_lock_*, marked object_lock; `lock` alone would
# take the public access *block* tests). policy: bucket policies (marked bucket_policy, or named
# so: the policy status and the public-policy block tests, the policy tests named otherwise) and
# the user policies of test_iam.py (marked user_policy; the IAM API, PutUserPolicy and the rest).
declare -A GROUP_EXPR=(
  [versioning]="test_versioning_"
  [tagging]="tagging"
  [cors]="cors"
  [lifecycle]="lifecycle"
  [conditional]="_if_ or ifmatch or ifnonematch or modified_since"
  [metadata]="metadata or content_type or cache_control or content_disposition or content_encoding or content_language or write_expires"
  [post]="test_post_object_"
  [encryption]="test_sse_ or test_encryption_ or bucket_encryption or sse_s3 or sse_c or encrypted"
  [atomic]="test_atomic_"
  [list]="test_bucket_list_"
  [lock]="object_lock or retention or legal_hold"
  [policy]="bucket_policy or bucketv2_policy or block_public_policy or with_policy or policy_prefix or user_policy"
)
GROUP_ORDER=(versioning tagging cors lifecycle conditional metadata post encryption atomic list lock policy)
# The suite's files each group's expression runs over (default: test_s3.py and test_headers.py).
declare -A GROUP_FILES=(
  [policy]="s3tests/functional/test_s3.py s3tests/functional/test_headers.py s3tests/functional/test_iam.py"
)
# What the alt user may do in each group (default admin: on RACS an administrator key like main's,
# on MinIO the readwrite policy); user: list buckets, and otherwise only what bucket policies grant.
declare -A GROUP_ALT=([policy]=user)

TARGETS=both
GROUPS_ARG=""
CUSTOM=""
OUT=""
LC_INTERVAL=10
SUITE=""
while [ $# -gt 0 ]; do
  case "$1" in
    --target) TARGETS="${2:?}"; shift 2 ;;
    --groups) GROUPS_ARG="${2:?}"; shift 2 ;;
    -k) CUSTOM="${2:?}"; shift 2 ;;
    --out) OUT="${2:?}"; shift 2 ;;
    --lc-interval) LC_INTERVAL="${2:?}"; shift 2 ;;
    -h | --help) usage ;;
    -*) echo "s3-tests.sh: unknown option $1" >&2; usage ;;
    *) [ -z "$SUITE" ] || usage; SUITE="$1"; shift ;;
  esac
done
[ -n "$SUITE" ] || usage
SUITE="$(cd "$SUITE" && pwd)"
[ -d "$SUITE/s3tests/functional" ] || {
  echo "s3-tests.sh: $SUITE is not an s3-tests work tree (no s3tests/functional)" >&2
  exit 2
}
case "$TARGETS" in
  racs | minio) TARGET_LIST=("$TARGETS") ;;
  both) TARGET_LIST=(minio racs) ;;
  *) echo "s3-tests.sh: --target $TARGETS (expected: racs, minio or both)" >&2; exit 2 ;;
esac
RUN_GROUPS=()
if [ -n "$CUSTOM" ]; then
  GROUP_EXPR[custom]="$CUSTOM"
  RUN_GROUPS=(custom)
elif [ -n "$GROUPS_ARG" ]; then
  IFS=, read -r -a RUN_GROUPS <<<"$GROUPS_ARG"
  for g in "${RUN_GROUPS[@]}"; do
    [ -n "${GROUP_EXPR[$g]:-}" ] || {
      echo "s3-tests.sh: unknown group $g (expected one of: ${GROUP_ORDER[*]})" >&2
      exit 2
    }
  done
else
  RUN_GROUPS=("${GROUP_ORDER[@]}")
fi
OUT="${OUT:-$PWD/s3-tests-out/$(date -u +%Y%m%d-%H%M%S)}"
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"

init_work s3-tests

# The suite's Python: a venv with its requirements, made once.
VENV="${S3TESTS_VENV:-$CACHE/venv-s3tests}"
if ! "$VENV/bin/python" -c 'import boto3, pytest, munch, lxml' 2>/dev/null; then
  echo "s3-tests.sh: installing the suite's requirements into $VENV" >&2
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q -r "$SUITE/requirements.txt" >&2
fi

# One self-signed certificate for both servers: SSE-C needs HTTPS on MinIO (and on S3).
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=localhost \
  -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" \
  -keyout "$WORK/private.key" -out "$WORK/public.crt" 2>/dev/null

# The suite's three users; every target knows all three keys.
MAIN_KEY=s3testmain MAIN_SECRET=s3testmain-secret
ALT_KEY=s3testalt ALT_SECRET=s3testalt-secret
TENANT_KEY=s3testtenant TENANT_SECRET=s3testtenant-secret
# The one identity policy of an unprivileged alt (GROUP_ALT user).
cat >"$WORK/alt-policy.json" <<'EOF'
{"Version": "2012-10-17",
 "Statement": [{"Effect": "Allow", "Action": "s3:ListAllMyBuckets", "Resource": "*"}]}
EOF

# start_racs_s3tests ALT: RACS on fresh repositories; ALT (admin or user) as in GROUP_ALT.
start_racs_s3tests() {
  local alt="$1" key="$WORK/master.key" i
  rm -rf "$WORK/racs"
  mkdir -p "$WORK/racs"
  od -An -N32 -tx1 /dev/urandom | tr -d ' \n' >"$key"
  echo >>"$key"
  chmod 600 "$key"
  RACS_PORT="$(free_port)"
  {
    echo "array:"
    echo "  geometry: 4x2"
    echo "server:"
    echo "  listen: 127.0.0.1:$RACS_PORT"
    echo "  adminListen: off"
    echo "  credentials:"
    echo "    - {accessKey: $MAIN_KEY, secretKey: $MAIN_SECRET}"
    [ "$alt" = user ] || echo "    - {accessKey: $ALT_KEY, secretKey: $ALT_SECRET}"
    echo "    - {accessKey: $TENANT_KEY, secretKey: $TENANT_SECRET}"
    echo "  tls: {cert: $WORK/public.crt, key: $WORK/private.key}"
    echo "  lifecycleInterval: 5s"
    echo "encryption:"
    echo "  keyFile: $key"
    echo "repositories:"
    for i in 0 1 2 3 4 5; do
      mkdir -p "$WORK/racs/repo-$i"
      echo "  - {name: fs-$i, type: fs, path: $WORK/racs/repo-$i, durable: false}"
    done
  } >"$WORK/racs.yaml"
  # The server runs from a copy of the jar: a rebuild while the suite runs (an hour) would replace
  # the jar under the running JVM, whose next class load would then fail.
  cp "$ROOT/racs-proxy/target/racs-proxy.jar" "$WORK/racs-proxy.jar"
  "$JAVA" --add-modules jdk.incubator.vector ${JAVA_UNSAFE_OPT} -jar "$WORK/racs-proxy.jar" \
    server --config "$WORK/racs.yaml" >"$WORK/racs.log" 2>&1 &
  RACS_PID=$!
  wait_racs_ready
  [ "$alt" = user ] || return 0
  # alt as a user stored in the array that may only list buckets; the server learns a new key on
  # its first use (answering InvalidAccessKeyId to that request), so wait until the key is known.
  # shellcheck disable=SC2206 # JAVA_UNSAFE_OPT is one option or none
  local users=("$JAVA" --add-modules jdk.incubator.vector ${JAVA_UNSAFE_OPT} -jar "$WORK/racs-proxy.jar" users)
  { "${users[@]}" add alt --access-key "$ALT_KEY" --secret-key "$ALT_SECRET" --config "$WORK/racs.yaml" &&
    "${users[@]}" attach-policy alt list-buckets --file "$WORK/alt-policy.json" --config "$WORK/racs.yaml"
  } >>"$WORK/racs-users.log" 2>&1 || {
    cat "$WORK/racs-users.log" >&2
    echo "s3-tests.sh: racs users failed" >&2
    exit 1
  }
  "$VENV/bin/python" - "$RACS_PORT" "$ALT_KEY" "$ALT_SECRET" <<'PY' || {
import sys, time
import boto3, botocore.exceptions, urllib3
urllib3.disable_warnings()
port, key, secret = sys.argv[1:4]
s3 = boto3.client("s3", endpoint_url=f"https://localhost:{port}", verify=False,
                  region_name="us-east-1", aws_access_key_id=key, aws_secret_access_key=secret)
for _ in range(300):
    try:
        s3.list_buckets()
        sys.exit(0)
    except botocore.exceptions.ClientError as e:
        if e.response["Error"]["Code"] != "InvalidAccessKeyId":
            sys.exit(f"alt's ListBuckets: {e}")
    time.sleep(0.1)
sys.exit("alt's key is still unknown")
PY
    echo "s3-tests.sh: the stored user alt cannot list buckets on RACS" >&2
    exit 1
  }
}

# start_minio_s3tests ALT: MinIO on a fresh drive; ALT (admin or user) as in GROUP_ALT.
start_minio_s3tests() {
  local alt="$1" certs="$WORK/minio-certs" mc_home="$WORK/mc"
  rm -rf "$WORK/minio-data"
  mkdir -p "$certs" "$WORK/minio-data" "$mc_home"
  cp "$WORK/public.crt" "$WORK/private.key" "$certs/"
  MINIO_PORT="$(free_port)"
  (
    export MINIO_ROOT_USER="$MAIN_KEY" MINIO_ROOT_PASSWORD="$MAIN_SECRET" MINIO_CI_CD=1 \
      MINIO_BROWSER=off MINIO_UPDATE=off \
      MINIO_KMS_SECRET_KEY="testkey-1:$(head -c 32 /dev/urandom | base64)"
    exec "$MINIO_BIN" server --quiet --certs-dir "$certs" --address "127.0.0.1:$MINIO_PORT" "$WORK/minio-data"
  ) >>"$WORK/minio.log" 2>&1 &
  MINIO_PID=$!
  for _ in $(seq 1 600); do
    curl -fsk "https://127.0.0.1:$MINIO_PORT/minio/health/ready" >/dev/null 2>&1 && break
    sleep 0.1
  done
  curl -fsk "https://127.0.0.1:$MINIO_PORT/minio/health/ready" >/dev/null || {
    cat "$WORK/minio.log" >&2
    echo "s3-tests.sh: MinIO did not become ready" >&2
    exit 1
  }
  local mc
  mc="$(sed -n 's/^RACS_MC=//p' "$CACHE/env")"
  [ -x "$mc" ] || "$ROOT/scripts/provision.sh" >&2
  mc="$(sed -n 's/^RACS_MC=//p' "$CACHE/env")"
  local mcc=("$mc" --insecure --config-dir "$mc_home" --quiet)
  "${mcc[@]}" alias set s3t "https://127.0.0.1:$MINIO_PORT" "$MAIN_KEY" "$MAIN_SECRET" >/dev/null
  "${mcc[@]}" admin user add s3t "$ALT_KEY" "$ALT_SECRET" >/dev/null
  "${mcc[@]}" admin user add s3t "$TENANT_KEY" "$TENANT_SECRET" >/dev/null
  if [ "$alt" = user ]; then
    "${mcc[@]}" admin policy create s3t list-buckets "$WORK/alt-policy.json" >/dev/null
    "${mcc[@]}" admin policy attach s3t list-buckets --user "$ALT_KEY" >/dev/null
  else
    "${mcc[@]}" admin policy attach s3t readwrite --user "$ALT_KEY" >/dev/null
  fi
  "${mcc[@]}" admin policy attach s3t readwrite --user "$TENANT_KEY" >/dev/null
}

# write_conf TARGET PORT OWNER_ID OWNER_NAME: the suite's S3TEST_CONF for TARGET.
write_conf() {
  local target="$1" port="$2" owner_id="$3" owner_name="$4"
  cat >"$WORK/$target.conf" <<EOF
[DEFAULT]
host = localhost
port = $port
is_secure = True
ssl_verify = False

[fixtures]
bucket prefix = s3t-{random}-

[s3 main]
display_name = $owner_name
user_id = $owner_id
email = main@example.com
api_name = us-east-1
access_key = $MAIN_KEY
secret_key = $MAIN_SECRET
lc_debug_interval = $LC_INTERVAL

[s3 alt]
display_name = alt
user_id = alt
email = alt@example.com
access_key = $ALT_KEY
secret_key = $ALT_SECRET

[s3 tenant]
display_name = tenant
user_id = tenant
email = tenant@example.com
access_key = $TENANT_KEY
secret_key = $TENANT_SECRET
tenant = testx

[iam]
email = iam@example.com
user_id = iam
access_key = $MAIN_KEY
secret_key = $MAIN_SECRET
display_name = iam

[iam root]
access_key = $MAIN_KEY
secret_key = $MAIN_SECRET
account_id = root
user_id = root
email = root@example.com

[iam alt root]
access_key = $ALT_KEY
secret_key = $ALT_SECRET
account_id = altroot
user_id = altroot
email = altroot@example.com
EOF
}

# run_groups TARGET GROUP...: runs each GROUP against TARGET's conf, one JUnit file per group.
# --runxfail: the suite marks S3Proxy's own known failures xfail; here every test says what it does.
run_groups() {
  local target="$1" group files
  shift
  mkdir -p "$OUT/$target"
  for group in "$@"; do
    files="${GROUP_FILES[$group]:-s3tests/functional/test_s3.py s3tests/functional/test_headers.py}"
    echo "s3-tests.sh: $target: $group (-k '${GROUP_EXPR[$group]}')" >&2
    # shellcheck disable=SC2086 # files is a list of paths without spaces
    (cd "$SUITE" && S3TEST_CONF="$WORK/$target.conf" nice "$VENV/bin/python" -m pytest -q \
      -p no:cacheprovider --runxfail -o junit_family=xunit1 --junitxml="$OUT/$target/$group.xml" \
      -k "${GROUP_EXPR[$group]}" $files \
      >"$OUT/$target/$group.log" 2>&1) || true
    [ -f "$OUT/$target/$group.xml" ] || {
      tail -20 "$OUT/$target/$group.log" >&2
      echo "s3-tests.sh: $target: $group wrote no results" >&2
      exit 1
    }
  done
}

find_minio
if [[ " ${TARGET_LIST[*]} " == *" racs "* ]]; then
  "$ROOT/racs" build >&2
  # The JDK the launcher picks (JAVA_HOME if it is 21 or newer, else the newest installed one):
  # the machine's default java may be older than the jar's class files.
  JAVA="$("$ROOT/racs" java-home)/bin/java"
  # JDK 24+ reports Netty's use of sun.misc.Unsafe unless it is allowed (as ./racs does).
  JAVA_UNSAFE_OPT=""
  if "$JAVA" --sun-misc-unsafe-memory-access=allow -version >/dev/null 2>&1; then
    JAVA_UNSAFE_OPT=--sun-misc-unsafe-memory-access=allow
  fi
fi
for target in "${TARGET_LIST[@]}"; do
  # One server per kind of alt the selected groups want (GROUP_ALT).
  for alt in admin user; do
    alt_groups=()
    for g in "${RUN_GROUPS[@]}"; do
      [ "${GROUP_ALT[$g]:-admin}" != "$alt" ] || alt_groups+=("$g")
    done
    [ ${#alt_groups[@]} -gt 0 ] || continue
    case "$target" in
      racs)
        start_racs_s3tests "$alt"
        write_conf racs "$RACS_PORT" racs racs
        run_groups racs "${alt_groups[@]}"
        kill "$RACS_PID" 2>/dev/null || true
        wait "$RACS_PID" 2>/dev/null || true
        RACS_PID=""
        ;;
      minio)
        start_minio_s3tests "$alt"
        # MinIO names every bucket's owner by this fixed id and "minio".
        write_conf minio "$MINIO_PORT" 02d6176db174dc93cb1b899f7c6078f08654445fe8cf1b6ce98d8855f66bdbf4 minio
        run_groups minio "${alt_groups[@]}"
        kill "$MINIO_PID" 2>/dev/null || true
        wait "$MINIO_PID" 2>/dev/null || true
        MINIO_PID=""
        ;;
    esac
  done
done

# The suite is pytest, so Python is here anyway; its JUnit files are read by the same interpreter.
# Counts per group and target, and (with both targets) the tests that pass on MinIO and not on
# RACS: the differences docs/conformance.md classifies. A target run earlier into the same --out
# directory (say MinIO, then RACS again after a fix) counts too when it has every group.
python3 - "$OUT" "${RUN_GROUPS[*]}" <<'PY' | tee "$OUT/summary.md"
import os, sys
import xml.etree.ElementTree as ET

out, groups = sys.argv[1], sys.argv[2].split()
targets = [t for t in ("minio", "racs")
           if all(os.path.exists(os.path.join(out, t, g + ".xml")) for g in groups)]
outcome = {}  # (target, group, test) -> pass | fail | error | skip
rows = []
for t in targets:
    for g in groups:
        for case in ET.parse(os.path.join(out, t, g + ".xml")).getroot().iter("testcase"):
            kinds = {child.tag for child in case}
            o = ("fail" if "failure" in kinds else "error" if "error" in kinds
                 else "skip" if "skipped" in kinds else "pass")
            outcome[(t, g, case.get("name"))] = o
            rows.append(f"{t}\t{g}\t{case.get('name')}\t{o}\n")
with open(os.path.join(out, "outcomes.tsv"), "w") as f:
    f.writelines(rows)

def counts(t, g):
    c = {"pass": 0, "fail": 0, "error": 0, "skip": 0}
    for (tt, gg, _), o in outcome.items():
        if tt == t and gg == g:
            c[o] += 1
    return c

header = "| group | tests | " + " | ".join(f"{t} pass / fail / error / skip" for t in targets) + " |"
print(header)
print("|" + "---|" * (2 + len(targets)))
for g in groups:
    total = max(sum(counts(t, g).values()) for t in targets)
    cells = []
    for t in targets:
        c = counts(t, g)
        cells.append(f"{c['pass']} / {c['fail']} / {c['error']} / {c['skip']}")
    print(f"| {g} | {total} | " + " | ".join(cells) + " |")
if "racs" in targets and "minio" in targets:
    print()
    print("Pass on MinIO, not on RACS:")
    seen = set()
    for (t, g, name), o in sorted(outcome.items()):
        if t != "minio" or o != "pass" or name in seen:
            continue
        r = outcome.get(("racs", g, name))
        if r and r != "pass":
            seen.add(name)
            print(f"  {name} ({g}): {r}")
    print()
    print("Pass on RACS, not on MinIO:")
    seen = set()
    for (t, g, name), o in sorted(outcome.items()):
        if t != "racs" or o != "pass" or name in seen:
            continue
        m = outcome.get(("minio", g, name))
        if m and m != "pass":
            seen.add(name)
            print(f"  {name} ({g}): {m}")
PY
echo "s3-tests.sh: results in $OUT" >&2
