"""Adds and removes a stored user with `racs users` while the proxy serves, for UsersIT.

Usage: python boto3_users.py CONFIG.json

CONFIG names the proxy's endpoint, the launcher, the proxy's configuration file, a user name, a
bucket and the administrator's key. The script adds the user (`racs users add`), then signs
ListBuckets with boto3 and the printed key until the proxy knows the key (it answers AccessDenied:
the user has no policy yet), and measures how long after the command returned that was. The
administrator writes public/a.txt and private/b.txt; the user is given a policy that allows
reading public/ only (`racs users attach-policy`); then the user's GET of public/a.txt, PUT and
DELETE there, GET of private/b.txt, and a PUT through a URL the user presigned are each recorded.
Last it removes the user and measures how long until the proxy answers InvalidAccessKeyId. Retries
are off in botocore so that each attempt is one request. It prints one flat JSON object; the Java
test judges it.
"""

import json
import os
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request

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


def code_of(call):
    try:
        call()
        return "OK"
    except ClientError as e:
        return e.response["Error"]["Code"]


def until(s3, wanted, call=None):
    """Seconds until a request (ListBuckets by default) answers `wanted`, attempts made, and the
    codes seen before."""
    began = time.monotonic()
    seen = []
    attempts = 0
    while time.monotonic() - began < LIMIT_SECONDS:
        attempts += 1
        code = error_code(s3) if call is None else code_of(call)
        if code == wanted:
            return time.monotonic() - began, attempts, seen
        if code not in seen:
            seen.append(code)
        time.sleep(0.02)
    return None, attempts, seen


def read_public(bucket):
    """An identity policy that allows reading, and listing, bucket's public/ prefix only."""
    return {
        "Version": "2012-10-17",
        "Statement": [
            {
                "Effect": "Allow",
                "Action": "s3:GetObject",
                "Resource": "arn:aws:s3:::%s/public/*" % bucket,
            },
            {
                "Effect": "Allow",
                "Action": "s3:ListBucket",
                "Resource": "arn:aws:s3:::%s" % bucket,
                "Condition": {"StringLike": {"s3:prefix": "public/*"}},
            },
        ],
    }


def main():
    with open(sys.argv[1]) as f:
        config = json.load(f)
    bucket = config["bucket"]
    out = {}
    admin = client(config["endpoint"], config["adminKey"], config["adminSecret"])
    admin.create_bucket(Bucket=bucket)
    admin.put_object(Bucket=bucket, Key="public/a.txt", Body=b"public bytes")
    admin.put_object(Bucket=bucket, Key="private/b.txt", Body=b"private bytes")
    added = racs(config, "add", config["user"])
    key = re.search(r"access key: (\S+)", added).group(1)
    secret = re.search(r"secret key: (\S+)", added).group(1)
    s3 = client(config["endpoint"], key, secret)
    # The clock starts when the command has returned: the user is on a write quorum then. Known
    # but granted nothing, the key is denied rather than unknown.
    seconds, attempts, seen = until(s3, "AccessDenied")
    out["accessKey"] = key
    out["addSeconds"] = seconds
    out["addAttempts"] = attempts
    out["addSeen"] = seen
    policy_file = os.path.join(os.path.dirname(sys.argv[1]), "read-public.json")
    with open(policy_file, "w") as f:
        json.dump(read_public(bucket), f)
    racs(config, "attach-policy", config["user"], "read-public", "--file", policy_file)
    seconds, _, _ = until(
        s3, "OK", lambda: s3.get_object(Bucket=bucket, Key="public/a.txt")["Body"].read()
    )
    out["policySeconds"] = seconds
    out["getPublic"] = s3.get_object(Bucket=bucket, Key="public/a.txt")["Body"].read().decode()
    out["listPublic"] = code_of(lambda: s3.list_objects_v2(Bucket=bucket, Prefix="public/"))
    out["listAll"] = code_of(lambda: s3.list_objects_v2(Bucket=bucket))
    out["putPublic"] = code_of(lambda: s3.put_object(Bucket=bucket, Key="public/x", Body=b"x"))
    out["deletePublic"] = code_of(lambda: s3.delete_object(Bucket=bucket, Key="public/a.txt"))
    out["getPrivate"] = code_of(lambda: s3.get_object(Bucket=bucket, Key="private/b.txt"))
    url = s3.generate_presigned_url(
        "put_object", Params={"Bucket": bucket, "Key": "public/presigned"}, ExpiresIn=300
    )
    try:
        urllib.request.urlopen(urllib.request.Request(url, data=b"p", method="PUT"))
        out["presignedPut"] = 200
    except urllib.error.HTTPError as e:
        out["presignedPut"] = e.code
    # What the denied writes left: the object as the administrator wrote it, and nothing new.
    out["publicAfter"] = admin.get_object(Bucket=bucket, Key="public/a.txt")["Body"].read().decode()
    out["keysAfter"] = sorted(
        o["Key"] for o in admin.list_objects_v2(Bucket=bucket).get("Contents", [])
    )
    racs(config, "remove", config["user"])
    seconds, attempts, seen = until(s3, "InvalidAccessKeyId")
    out["removeSeconds"] = seconds
    out["removeAttempts"] = attempts
    out["removeSeen"] = seen
    print(json.dumps(out))


if __name__ == "__main__":
    main()
