"""Writes and reads back a versioned, partly encrypted bucket with boto3, for ReshapeClientsIT.

Usage: python boto3_reshape.py CONFIG.json write|read

CONFIG names the endpoint, the CA bundle of its certificate and the bucket. "write" creates the
bucket with versioning on and puts three versions of each of three keys: plain/, sse-s3/
(ServerSideEncryption=AES256) and sse-c/ (a customer key), the sizes 0 B, 70 KiB and 1.5 MiB, and
a delete marker on plain/. Both modes then print one JSON list: every version as
ListObjectVersions lists it (key, id, latest, delete marker, ETag, size), with the MD5 of its body
read back by version id (SSE-C ones with the key) and its encryption as HEAD says it. The Java test
compares the list before a reshape with the list after it.
"""

import hashlib
import json
import sys

import boto3
from botocore.config import Config

SIZES = [0, 70 * 1024, 1536 * 1024]
KEY = bytes(range(32))
SSE_C = {"SSECustomerAlgorithm": "AES256", "SSECustomerKey": KEY}


def body(seed, size):
    out = bytearray()
    block = hashlib.sha256(str(seed).encode()).digest()
    while len(out) < size:
        out += block
        block = hashlib.sha256(block).digest()
    return bytes(out[:size])


def extra(key):
    if key.startswith("sse-s3/"):
        return {"ServerSideEncryption": "AES256"}
    if key.startswith("sse-c/"):
        return dict(SSE_C)
    return {}


def write(s3, bucket):
    s3.create_bucket(Bucket=bucket)
    s3.put_bucket_versioning(Bucket=bucket, VersioningConfiguration={"Status": "Enabled"})
    for prefix in ("plain/", "sse-s3/", "sse-c/"):
        for i, size in enumerate(SIZES):
            s3.put_object(
                Bucket=bucket, Key=prefix + "object", Body=body(prefix + str(i), size), **extra(prefix)
            )
    s3.delete_object(Bucket=bucket, Key="plain/object")


def read(s3, bucket):
    seen = []
    for page in s3.get_paginator("list_object_versions").paginate(Bucket=bucket):
        for m in page.get("DeleteMarkers", []):
            seen.append({"key": m["Key"], "id": m["VersionId"], "latest": m["IsLatest"], "marker": True})
        for v in page.get("Versions", []):
            args = extra(v["Key"])
            args.pop("ServerSideEncryption", None)
            got = s3.get_object(Bucket=bucket, Key=v["Key"], VersionId=v["VersionId"], **args)
            head = s3.head_object(Bucket=bucket, Key=v["Key"], VersionId=v["VersionId"], **args)
            seen.append(
                {
                    "key": v["Key"],
                    "id": v["VersionId"],
                    "latest": v["IsLatest"],
                    "marker": False,
                    "etag": v["ETag"],
                    "size": v["Size"],
                    "md5": hashlib.md5(got["Body"].read()).hexdigest(),
                    "sse": head.get("ServerSideEncryption", ""),
                    "sseC": head.get("SSECustomerAlgorithm", ""),
                }
            )
    seen.sort(key=lambda v: (v["key"], v["id"]))
    return seen


def main():
    with open(sys.argv[1]) as f:
        config = json.load(f)
    s3 = boto3.client(
        "s3",
        endpoint_url=config["endpoint"],
        region_name="us-east-1",
        verify=config["caBundle"],
        config=Config(s3={"addressing_style": "path"}, retries={"max_attempts": 1}),
    )
    if sys.argv[2] == "write":
        write(s3, config["bucket"])
    print(json.dumps(read(s3, config["bucket"])))


if __name__ == "__main__":
    main()
