"""Drives server-side encryption of the RACS proxy over HTTPS with boto3, for EncryptionIT.

Usage: python boto3_sse.py CONFIG.json

CONFIG names the endpoint, the CA bundle of its certificate, a bucket to create, and files to
upload. Each file goes up twice: with SSE-S3 (ServerSideEncryption=AES256) and with SSE-C (a
customer key), through upload_file (multipart past 8 MiB), and comes back through download_file.
The script then reads an SSE-C object without its key and with another key. It prints one flat JSON
object of strings; the Java test judges it.
"""

import hashlib
import json
import os
import sys

import boto3
from botocore.config import Config
from botocore.exceptions import ClientError


def md5_file(path):
    h = hashlib.md5()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def error(call):
    try:
        call()
        return "ok"
    except ClientError as e:
        return "%s %s" % (e.response["ResponseMetadata"]["HTTPStatusCode"], e.response["Error"]["Code"])


def main():
    with open(sys.argv[1]) as f:
        config = json.load(f)
    bucket = config["bucket"]
    s3 = boto3.client(
        "s3",
        endpoint_url=config["endpoint"],
        region_name="us-east-1",
        verify=config["caBundle"],
        config=Config(s3={"addressing_style": "path"}, retries={"max_attempts": 1}),
    )
    key = bytes(range(32))
    other = bytes(range(1, 33))
    sse_c = {"SSECustomerAlgorithm": "AES256", "SSECustomerKey": key}
    out = {}
    s3.create_bucket(Bucket=bucket)
    for entry in config["files"]:
        name, path = entry["key"], entry["path"]
        s3.upload_file(path, bucket, name + "/s3", ExtraArgs={"ServerSideEncryption": "AES256"})
        s3.upload_file(path, bucket, name + "/c", ExtraArgs=sse_c)
        down = path + ".down"
        s3.download_file(bucket, name + "/s3", down)
        out[name + "/s3_md5"] = md5_file(down)
        os.remove(down)
        s3.download_file(bucket, name + "/c", down, ExtraArgs=sse_c)
        out[name + "/c_md5"] = md5_file(down)
        os.remove(down)
        out[name + "/s3_header"] = s3.head_object(Bucket=bucket, Key=name + "/s3").get(
            "ServerSideEncryption", ""
        )
        head = s3.head_object(Bucket=bucket, Key=name + "/c", **sse_c)
        out[name + "/c_algorithm"] = head.get("SSECustomerAlgorithm", "")
    first = config["files"][0]["key"] + "/c"
    out["no_key"] = error(lambda: s3.get_object(Bucket=bucket, Key=first))
    out["other_key"] = error(
        lambda: s3.get_object(
            Bucket=bucket, Key=first, SSECustomerAlgorithm="AES256", SSECustomerKey=other
        )
    )
    out["kms"] = error(
        lambda: s3.put_object(Bucket=bucket, Key="kms", Body=b"x", ServerSideEncryption="aws:kms")
    )
    print(json.dumps(out))


if __name__ == "__main__":
    main()
