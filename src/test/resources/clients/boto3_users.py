"""Adds and removes a stored user with `racs users` while the proxy serves, for UsersIT.

Usage: python boto3_users.py CONFIG.json

CONFIG names the proxy's endpoint, the launcher, the proxy's configuration file and a user name.
The script adds the user (`racs users add`), then signs ListBuckets with boto3 and the printed key
until the proxy accepts it, and measures how long after the command returned that was; then
removes the user and measures how long until the proxy answers InvalidAccessKeyId. Retries are off
in botocore so that each attempt is one request. It prints one flat JSON object; the Java test
judges it.
"""

import json
import os
import re
import subprocess
import sys
import time

import boto3
from botocore.config import Config
from botocore.exceptions import ClientError

LIMIT_SECONDS = 10.0


def racs(config, *args):
    result = subprocess.run(
        [config["racs"], "users", *args, "--config", config["configFile"]],
        capture_output=True,
        text=True,
        env={**os.environ, **config["env"]},
    )
    if result.returncode != 0:
        raise SystemExit("racs users %s: exit %d: %s" % (args, result.returncode, result.stderr))
    return result.stdout


def client(endpoint, key, secret):
    return boto3.client(
        "s3",
        endpoint_url=endpoint,
        aws_access_key_id=key,
        aws_secret_access_key=secret,
        region_name="us-east-1",
        config=Config(retries={"max_attempts": 1, "mode": "standard"}),
    )


def error_code(s3):
    try:
        s3.list_buckets()
        return "OK"
    except ClientError as e:
        return e.response["Error"]["Code"]


def until(s3, wanted):
    """Seconds until ListBuckets answers `wanted`, attempts made, and the codes seen before."""
    began = time.monotonic()
    seen = []
    attempts = 0
    while time.monotonic() - began < LIMIT_SECONDS:
        attempts += 1
        code = error_code(s3)
        if code == wanted:
            return time.monotonic() - began, attempts, seen
        if code not in seen:
            seen.append(code)
        time.sleep(0.02)
    return None, attempts, seen


def main():
    with open(sys.argv[1]) as f:
        config = json.load(f)
    out = {}
    added = racs(config, "add", config["user"])
    key = re.search(r"access key: (\S+)", added).group(1)
    secret = re.search(r"secret key: (\S+)", added).group(1)
    s3 = client(config["endpoint"], key, secret)
    # The clock starts when the command has returned: the user is on a write quorum then.
    seconds, attempts, seen = until(s3, "OK")
    out["accessKey"] = key
    out["addSeconds"] = seconds
    out["addAttempts"] = attempts
    out["addSeen"] = seen
    out["createBucket"] = "OK"
    s3.create_bucket(Bucket=config["bucket"])
    racs(config, "remove", config["user"])
    seconds, attempts, seen = until(s3, "InvalidAccessKeyId")
    out["removeSeconds"] = seconds
    out["removeAttempts"] = attempts
    out["removeSeen"] = seen
    print(json.dumps(out))


if __name__ == "__main__":
    main()
