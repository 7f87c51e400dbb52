"""Drives the RACS proxy with boto3 as applications use it, for Boto3IT.

Usage: python boto3_roundtrip.py CONFIG.json

CONFIG names the endpoint, a bucket to create, an optional CA bundle, a work directory and the
files to round-trip ({"key", "path", "size"}; the Java test wrote them from a seed and knows their
digests). The script does not judge the results: it prints one flat JSON object of strings on
stdout (what it sent, what came back, digests of what it read) and the Java test asserts on it.
A failing call is not caught: the traceback and a non-zero exit status reach the test.
"""

import base64
import hashlib
import http.client
import json
import os
import ssl
import sys
import urllib.parse
import zlib

import boto3
from boto3.s3.transfer import TransferConfig
from botocore.config import Config
from botocore.exceptions import ClientError

MULTIPART_THRESHOLD = 8 * 1024 * 1024


def md5_hex(data):
    return hashlib.md5(data).hexdigest()


def md5_file(path):
    digest = hashlib.md5()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 16), b""):
            digest.update(block)
    return digest.hexdigest()


def crc32_b64(data):
    return base64.b64encode(zlib.crc32(data).to_bytes(4, "big")).decode()


def main():
    with open(sys.argv[1]) as f:
        config = json.load(f)
    verify = config.get("caBundle") or True
    s3 = boto3.client(
        "s3",
        endpoint_url=config["endpoint"],
        region_name="us-east-1",
        verify=verify,
        config=Config(s3={"addressing_style": "path"}, retries={"max_attempts": 1}),
    )
    sent = {}

    def record_checksum_headers(request, **kwargs):
        # What boto3 put on the wire for each upload: header or trailer checksums, and the mode.
        names = sorted(
            name.lower()
            for name in request.headers.keys()
            if name.lower().startswith("x-amz-checksum-")
            or name.lower() in ("x-amz-trailer", "x-amz-sdk-checksum-algorithm", "content-md5")
        )
        trailer = request.headers.get("x-amz-trailer")
        if trailer:
            names.append("trailer:" + (trailer.decode() if isinstance(trailer, bytes) else trailer))
        sent[kwargs["event_name"]] = names

    s3.meta.events.register("before-send.s3.PutObject", record_checksum_headers)
    s3.meta.events.register("before-send.s3.UploadPart", record_checksum_headers)

    out = {"boto3": boto3.__version__}
    bucket = config["bucket"]
    s3.create_bucket(Bucket=bucket)
    transfer = TransferConfig(multipart_threshold=MULTIPART_THRESHOLD)
    for item in config["files"]:
        key, path, size = item["key"], item["path"], item["size"]
        if size > MULTIPART_THRESHOLD:
            s3.upload_file(path, bucket, key, Config=transfer)
            out[key + "/sent"] = ",".join(sent.pop("before-send.s3.UploadPart", []))
            back = os.path.join(config["workDir"], "down-" + str(size))
            s3.download_file(bucket, key, back, Config=transfer)
            out[key + "/get_md5"] = md5_file(back)
            out[key + "/get_size"] = str(os.path.getsize(back))
        else:
            with open(path, "rb") as f:
                data = f.read()
            put = s3.put_object(Bucket=bucket, Key=key, Body=data)
            out[key + "/sent"] = ",".join(sent.pop("before-send.s3.PutObject", []))
            out[key + "/put_crc32"] = put.get("ChecksumCRC32", "")
            out[key + "/expected_crc32"] = crc32_b64(data)
            got = s3.get_object(Bucket=bucket, Key=key, ChecksumMode="ENABLED")
            body = got["Body"].read()
            out[key + "/get_md5"] = md5_hex(body)
            out[key + "/get_size"] = str(len(body))
            out[key + "/get_crc32"] = got.get("ChecksumCRC32", "")
        head = s3.head_object(Bucket=bucket, Key=key)
        out[key + "/etag"] = head["ETag"].strip("\"")

    listed = s3.list_objects_v2(Bucket=bucket, Prefix="objects/")
    out["list"] = ",".join(o["Key"] + "=" + str(o["Size"]) for o in listed.get("Contents", []))
    top = s3.list_objects_v2(Bucket=bucket, Delimiter="/")
    out["list_prefixes"] = ",".join(p["Prefix"] for p in top.get("CommonPrefixes", []))

    # A presigned PUT sent by a plain HTTP client, then a presigned GET of what it stored: once
    # with boto3's default presigner (SigV2 query auth for S3) and once with SigV4. http.client
    # sends no Content-Type of its own (urllib would add one, which the URL did not sign).
    context = ssl.create_default_context(cafile=config["caBundle"]) if config.get("caBundle") else None
    with open(config["presignPath"], "rb") as f:
        payload = f.read()
    for variant, signature_version in (("default", None), ("s3v4", "s3v4")):
        options = {"s3": {"addressing_style": "path"}}
        if signature_version:
            options["signature_version"] = signature_version
        presigner = boto3.client(
            "s3",
            endpoint_url=config["endpoint"],
            region_name="us-east-1",
            verify=verify,
            config=Config(**options),
        )
        key = "presigned/put-" + variant + ".bin"
        for method, operation in (("PUT", "put_object"), ("GET", "get_object")):
            url = urllib.parse.urlsplit(
                presigner.generate_presigned_url(
                    operation, Params={"Bucket": bucket, "Key": key}, ExpiresIn=600
                )
            )
            if url.scheme == "https":
                connection = http.client.HTTPSConnection(url.hostname, url.port, context=context)
            else:
                connection = http.client.HTTPConnection(url.hostname, url.port)
            connection.request(method, url.path + "?" + url.query, body=payload if method == "PUT" else None)
            response = connection.getresponse()
            body = response.read()
            prefix = "presigned_" + variant + "_" + method.lower()
            out[prefix + "_status"] = str(response.status)
            out[prefix + "_query"] = "sigv4" if "X-Amz-Signature=" in url.query else "sigv2"
            if method == "GET":
                out[prefix + "_md5"] = md5_hex(body)
            connection.close()

    for item in config["files"]:
        s3.delete_object(Bucket=bucket, Key=item["key"])
    left = s3.list_objects_v2(Bucket=bucket, Prefix="objects/")
    out["list_after_delete"] = ",".join(o["Key"] for o in left.get("Contents", []))
    try:
        s3.head_object(Bucket=bucket, Key=config["files"][0]["key"])
        out["head_after_delete"] = "200"
    except ClientError as e:
        out["head_after_delete"] = str(e.response["ResponseMetadata"]["HTTPStatusCode"])

    print(json.dumps(out, indent=0, sort_keys=True))


if __name__ == "__main__":
    main()
