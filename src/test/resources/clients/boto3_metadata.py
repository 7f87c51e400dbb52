"""Uploads and copies objects with metadata headers through boto3, for Boto3IT.

Usage: python boto3_metadata.py CONFIG.json

CONFIG names the endpoint, a bucket to create, two files (a small one for put_object, a large one
for a multipart upload of two parts), the standard headers and user metadata to set on upload, and
those a REPLACE copy sets instead. The script puts "put" with put_object, "multipart" with
create_multipart_upload, copies "put" to "copy" with the default directive (COPY) and to
"replaced" with MetadataDirective=REPLACE, then reads each key back with head_object and
get_object. It prints one JSON object: per key and call, the fields boto3 parsed (the standard
headers by their HTTP names, Metadata, the ETag, and for get_object the body's MD5). The Java test
judges it; an unexpected failure reaches it as a traceback.
"""

import hashlib
import json
import sys

import boto3
from botocore.config import Config

PART_SIZE = 5 * 1024 * 1024

# boto3's parameter for each standard header (Expires is given as the HTTP date string, which
# botocore sends unchanged, and read back from ExpiresString, the header as it came).
PARAMETERS = {
    "Cache-Control": "CacheControl",
    "Content-Disposition": "ContentDisposition",
    "Content-Encoding": "ContentEncoding",
    "Content-Language": "ContentLanguage",
    "Content-Type": "ContentType",
    "Expires": "Expires",
}


def upload_args(headers, metadata):
    args = {PARAMETERS[name]: value for name, value in headers.items()}
    args["Metadata"] = metadata
    return args


def seen(response, body_md5=None):
    """The metadata fields boto3 parsed from a HEAD or GET response, by HTTP header name."""
    fields = {}
    for name, parameter in PARAMETERS.items():
        if name == "Expires":
            value = response.get("ExpiresString")
        else:
            value = response.get(parameter)
        if value is not None:
            fields[name] = value
    result = {"headers": fields, "metadata": response.get("Metadata", {}), "etag": response["ETag"]}
    if body_md5 is not None:
        result["md5"] = body_md5
    return result


def main():
    with open(sys.argv[1]) as f:
        config = json.load(f)
    s3 = boto3.client(
        "s3",
        endpoint_url=config["endpoint"],
        region_name="us-east-1",
        config=Config(s3={"addressing_style": "path"}, retries={"max_attempts": 1}),
    )
    bucket = config["bucket"]
    headers, metadata = config["headers"], config["metadata"]
    s3.create_bucket(Bucket=bucket)

    with open(config["small"], "rb") as f:
        s3.put_object(Bucket=bucket, Key="put", Body=f.read(), **upload_args(headers, metadata))

    upload = s3.create_multipart_upload(
        Bucket=bucket, Key="multipart", **upload_args(headers, metadata)
    )
    parts = []
    with open(config["large"], "rb") as f:
        number = 1
        while True:
            data = f.read(PART_SIZE)
            if not data:
                break
            part = s3.upload_part(
                Bucket=bucket,
                Key="multipart",
                UploadId=upload["UploadId"],
                PartNumber=number,
                Body=data,
            )
            parts.append({"PartNumber": number, "ETag": part["ETag"]})
            number += 1
    s3.complete_multipart_upload(
        Bucket=bucket,
        Key="multipart",
        UploadId=upload["UploadId"],
        MultipartUpload={"Parts": parts},
    )

    source = {"Bucket": bucket, "Key": "put"}
    s3.copy_object(Bucket=bucket, Key="copy", CopySource=source)
    s3.copy_object(
        Bucket=bucket,
        Key="replaced",
        CopySource=source,
        MetadataDirective="REPLACE",
        **upload_args(config["replacedHeaders"], config["replacedMetadata"]),
    )

    out = {}
    for key in ("put", "multipart", "copy", "replaced"):
        head = s3.head_object(Bucket=bucket, Key=key)
        get = s3.get_object(Bucket=bucket, Key=key)
        body_md5 = hashlib.md5(get["Body"].read()).hexdigest()
        out[key] = {"head": seen(head), "get": seen(get, body_md5)}
    print(json.dumps(out, indent=1, sort_keys=True))


if __name__ == "__main__":
    main()
