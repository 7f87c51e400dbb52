"""Multipart uploads with object checksums through the RACS proxy with boto3, for MultipartChecksumsIT.

Usage: python boto3_mpu_checksums.py CONFIG.json

CONFIG names the endpoint, a bucket to create, the part files, and each part's CRC64NVME and the
whole object's (base64, computed by the Java test: botocore computes CRC64NVME only with awscrt,
which the test virtualenv does not hold, and sends a value it is given as it is). The script uploads
the parts twice: with a full-object CRC64NVME, and with boto3's own CRC32 per part and a composite
object checksum. It prints one flat JSON object of strings; the Java test judges it.
"""

import json
import sys

import boto3
from botocore.config import Config
from botocore.exceptions import ClientError


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
    out = {}
    s3.create_bucket(Bucket=bucket)
    datas = []
    for path in config["parts"]:
        with open(path, "rb") as f:
            datas.append(f.read())

    # Full-object CRC64NVME, the given values sent as they are.
    key = "full-crc64nvme"
    upload = s3.create_multipart_upload(
        Bucket=bucket, Key=key, ChecksumAlgorithm="CRC64NVME", ChecksumType="FULL_OBJECT"
    )["UploadId"]
    parts = []
    for number, (data, crc) in enumerate(zip(datas, config["partCrc64nvme"]), start=1):
        r = s3.upload_part(
            Bucket=bucket, Key=key, UploadId=upload, PartNumber=number, Body=data,
            ChecksumCRC64NVME=crc,
        )
        parts.append({"PartNumber": number, "ETag": r["ETag"], "ChecksumCRC64NVME": crc})
    try:
        s3.complete_multipart_upload(
            Bucket=bucket, Key=key, UploadId=upload, MultipartUpload={"Parts": parts},
            ChecksumCRC64NVME=config["wrongCrc64nvme"], ChecksumType="FULL_OBJECT",
        )
        out["full_wrong"] = "completed"
    except ClientError as e:
        out["full_wrong"] = e.response["Error"]["Code"]
    done = s3.complete_multipart_upload(
        Bucket=bucket, Key=key, UploadId=upload, MultipartUpload={"Parts": parts},
        ChecksumCRC64NVME=config["wholeCrc64nvme"], ChecksumType="FULL_OBJECT",
    )
    out["full_complete_crc64nvme"] = done.get("ChecksumCRC64NVME", "")
    out["full_complete_type"] = done.get("ChecksumType", "")
    head = s3.head_object(Bucket=bucket, Key=key, ChecksumMode="ENABLED")
    out["full_head_crc64nvme"] = head.get("ChecksumCRC64NVME", "")
    out["full_head_type"] = head.get("ChecksumType", "")
    out["full_get_matches"] = str(
        s3.get_object(Bucket=bucket, Key=key)["Body"].read() == b"".join(datas)
    )

    # Composite CRC32: boto3 computes each part's CRC32; the object's is the composite form.
    key = "composite-crc32"
    upload = s3.create_multipart_upload(Bucket=bucket, Key=key, ChecksumAlgorithm="CRC32")[
        "UploadId"
    ]
    parts = []
    for number, data in enumerate(datas, start=1):
        r = s3.upload_part(
            Bucket=bucket, Key=key, UploadId=upload, PartNumber=number, Body=data,
            ChecksumAlgorithm="CRC32",
        )
        parts.append({"PartNumber": number, "ETag": r["ETag"], "ChecksumCRC32": r["ChecksumCRC32"]})
    out["composite_part_crc32s"] = ",".join(p["ChecksumCRC32"] for p in parts)
    done = s3.complete_multipart_upload(
        Bucket=bucket, Key=key, UploadId=upload, MultipartUpload={"Parts": parts}
    )
    out["composite_complete_crc32"] = done.get("ChecksumCRC32", "")
    out["composite_complete_type"] = done.get("ChecksumType", "")
    got = s3.get_object(Bucket=bucket, Key=key, ChecksumMode="ENABLED")
    out["composite_get_crc32"] = got.get("ChecksumCRC32", "")
    out["composite_get_type"] = got.get("ChecksumType", "")
    out["composite_get_matches"] = str(got["Body"].read() == b"".join(datas))
    print(json.dumps(out))


if __name__ == "__main__":
    main()
