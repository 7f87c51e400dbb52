"""Uploads through a browser form to the RACS proxy, as a web page would, for Boto3IT.

Usage: python boto3_post.py CONFIG.json

CONFIG names the endpoint, a bucket to create and a file to upload. boto3's generate_presigned_post
signs the form (policy with a content-length-range); urllib3 (which botocore ships) posts it as
multipart/form-data, fields first and the file last, without any SigV4 header. The script then
reads the object back with boto3 and prints one flat JSON object of strings for the Java test.
"""

import hashlib
import json
import sys

import boto3
import urllib3
from botocore.config import Config


def post(url, fields, name, data):
    body, content_type = urllib3.encode_multipart_formdata(
        list(fields.items()) + [("file", (name, data, "application/octet-stream"))]
    )
    response = urllib3.PoolManager().request(
        "POST", url, body=body, headers={"Content-Type": content_type}, redirect=False
    )
    return response


def main():
    with open(sys.argv[1]) as f:
        config = json.load(f)
    bucket = config["bucket"]
    s3 = boto3.client(
        "s3",
        endpoint_url=config["endpoint"],
        region_name="us-east-1",
        config=Config(
            s3={"addressing_style": "path"},
            signature_version="s3v4",
            retries={"max_attempts": 1},
        ),
    )
    s3.create_bucket(Bucket=bucket)
    with open(config["path"], "rb") as f:
        data = f.read()
    out = {}

    form = s3.generate_presigned_post(
        bucket,
        "uploads/${filename}",
        Fields={"success_action_status": "201", "Content-Type": "image/png"},
        Conditions=[
            ["starts-with", "$key", "uploads/"],
            {"success_action_status": "201"},
            {"Content-Type": "image/png"},
            ["content-length-range", 1, len(data)],
        ],
        ExpiresIn=600,
    )
    response = post(form["url"], form["fields"], "photo.png", data)
    out["status"] = str(response.status)
    out["body"] = response.data.decode()
    got = s3.get_object(Bucket=bucket, Key="uploads/photo.png")
    out["get_md5"] = hashlib.md5(got["Body"].read()).hexdigest()
    out["get_content_type"] = got["ContentType"]

    small = s3.generate_presigned_post(
        bucket,
        "too-large",
        Conditions=[["content-length-range", 1, 10]],
        ExpiresIn=600,
    )
    response = post(small["url"], small["fields"], "big.bin", data)
    out["too_large_status"] = str(response.status)
    out["too_large_body"] = response.data.decode()
    fields = dict(form["fields"])
    fields["x-amz-signature"] = "0" * 64
    response = post(form["url"], fields, "forged.png", data)
    out["forged_status"] = str(response.status)
    out["forged_body"] = response.data.decode()
    listed = s3.list_objects_v2(Bucket=bucket).get("Contents", [])
    out["keys"] = ",".join(o["Key"] for o in listed)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
