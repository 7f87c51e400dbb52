"""Drives bucket CORS of the RACS proxy with boto3 and a plain HTTP client, for Boto3IT.

Usage: python boto3_cors.py CONFIG.json

CONFIG names the endpoint and a bucket to create. The script sets, reads and deletes the bucket's
CORS configuration with boto3, sends unsigned OPTIONS preflights with urllib as a browser would,
and a signed GET with an Origin header. It prints one flat JSON object of strings; the Java test
judges it. A failing boto3 call that is not expected to fail reaches the test as a traceback.
"""

import json
import sys
import urllib.error
import urllib.request

import boto3
from botocore.config import Config
from botocore.exceptions import ClientError


def preflight(url, origin, method, headers=None):
    request = urllib.request.Request(url, method="OPTIONS")
    request.add_header("Origin", origin)
    request.add_header("Access-Control-Request-Method", method)
    if headers:
        request.add_header("Access-Control-Request-Headers", headers)
    try:
        with urllib.request.urlopen(request) as response:
            return response.status, dict(response.headers)
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers)


def main():
    with open(sys.argv[1]) as f:
        config = json.load(f)
    endpoint = config["endpoint"]
    bucket = config["bucket"]
    s3 = boto3.client(
        "s3",
        endpoint_url=endpoint,
        region_name="us-east-1",
        config=Config(s3={"addressing_style": "path"}, retries={"max_attempts": 1}),
    )
    out = {}
    s3.create_bucket(Bucket=bucket)
    try:
        s3.get_bucket_cors(Bucket=bucket)
        out["get_before"] = "ok"
    except ClientError as e:
        out["get_before"] = e.response["Error"]["Code"]
    rules = [
        {
            "ID": "app",
            "AllowedOrigins": ["https://*.example.com"],
            "AllowedMethods": ["GET", "PUT"],
            "AllowedHeaders": ["*"],
            "ExposeHeaders": ["ETag"],
            "MaxAgeSeconds": 300,
        }
    ]
    s3.put_bucket_cors(Bucket=bucket, CORSConfiguration={"CORSRules": rules})
    got = s3.get_bucket_cors(Bucket=bucket)["CORSRules"]
    out["get_rules"] = json.dumps(got, sort_keys=True)
    out["put_rules"] = json.dumps(rules, sort_keys=True)

    url = endpoint + "/" + bucket + "/some/key"
    status, headers = preflight(url, "https://app.example.com", "PUT", "content-type, x-amz-date")
    out["preflight_status"] = str(status)
    out["preflight_allow_origin"] = headers.get("Access-Control-Allow-Origin", "")
    out["preflight_allow_methods"] = headers.get("Access-Control-Allow-Methods", "")
    out["preflight_allow_headers"] = headers.get("Access-Control-Allow-Headers", "")
    out["preflight_max_age"] = headers.get("Access-Control-Max-Age", "")
    status, headers = preflight(url, "https://evil.test", "PUT")
    out["refused_status"] = str(status)
    out["refused_allow_origin"] = headers.get("Access-Control-Allow-Origin", "")

    s3.put_object(Bucket=bucket, Key="k", Body=b"cors")

    def add_origin(request, **kwargs):
        request.headers["Origin"] = "https://app.example.com"

    s3.meta.events.register("before-sign.s3.GetObject", add_origin)
    response = s3.get_object(Bucket=bucket, Key="k")
    out["get_object_body"] = response["Body"].read().decode()
    out["get_object_allow_origin"] = response["ResponseMetadata"]["HTTPHeaders"].get(
        "access-control-allow-origin", ""
    )

    s3.delete_bucket_cors(Bucket=bucket)
    try:
        s3.get_bucket_cors(Bucket=bucket)
        out["get_after_delete"] = "ok"
    except ClientError as e:
        out["get_after_delete"] = e.response["Error"]["Code"]
    status, _ = preflight(url, "https://app.example.com", "PUT")
    out["preflight_after_delete"] = str(status)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
