"""Drives the RACS proxy's ACL and GetObjectAttributes calls with boto3, for Boto3IT.

Usage: python boto3_acl_attributes.py CONFIG.json

CONFIG names the endpoint and a bucket to create. As boto3_roundtrip.py, the script does not judge
the results: it prints one flat JSON object of strings (what came back, error codes of refused
calls) and the Java test asserts on it. An unexpected failure is not caught.
"""

import json
import sys

import boto3
from botocore.config import Config
from botocore.exceptions import ClientError


def error_code(call):
    try:
        call()
        return "ok"
    except ClientError as e:
        return e.response["Error"]["Code"]


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
    s3.create_bucket(Bucket=bucket, ACL="private")
    s3.put_object(Bucket=bucket, Key="acl", Body=b"hello", ACL="private")

    owner = s3.list_buckets()["Owner"]["ID"]
    out["owner"] = owner
    for name, acl in (
        ("bucket", s3.get_bucket_acl(Bucket=bucket)),
        ("object", s3.get_object_acl(Bucket=bucket, Key="acl")),
    ):
        out[name + "_acl_owner"] = acl["Owner"]["ID"]
        out[name + "_acl_grants"] = ",".join(
            g["Grantee"]["Type"] + ":" + g["Grantee"].get("ID", "") + ":" + g["Permission"]
            for g in acl["Grants"]
        )
    out["put_object_acl_private"] = error_code(
        lambda: s3.put_object_acl(Bucket=bucket, Key="acl", ACL="private")
    )
    out["put_object_acl_public_read"] = error_code(
        lambda: s3.put_object_acl(Bucket=bucket, Key="acl", ACL="public-read")
    )
    out["put_bucket_acl_private"] = error_code(
        lambda: s3.put_bucket_acl(Bucket=bucket, ACL="private")
    )
    out["put_bucket_acl_public_read"] = error_code(
        lambda: s3.put_bucket_acl(Bucket=bucket, ACL="public-read")
    )
    policy = s3.get_object_acl(Bucket=bucket, Key="acl")
    out["put_object_acl_owner_body"] = error_code(
        lambda: s3.put_object_acl(
            Bucket=bucket,
            Key="acl",
            AccessControlPolicy={"Grants": policy["Grants"], "Owner": policy["Owner"]},
        )
    )
    out["put_object_acl_public_body"] = error_code(
        lambda: s3.put_object_acl(
            Bucket=bucket,
            Key="acl",
            AccessControlPolicy={
                "Grants": policy["Grants"]
                + [
                    {
                        "Grantee": {
                            "Type": "Group",
                            "URI": "http://acs.amazonaws.com/groups/global/AllUsers",
                        },
                        "Permission": "READ",
                    }
                ],
                "Owner": policy["Owner"],
            },
        )
    )

    put = s3.put_object(Bucket=bucket, Key="attrs", Body=b"attributes", ChecksumAlgorithm="CRC32")
    out["attrs_put_etag"] = put["ETag"].strip('"')
    out["attrs_put_crc32"] = put["ChecksumCRC32"]
    attrs = s3.get_object_attributes(
        Bucket=bucket,
        Key="attrs",
        ObjectAttributes=["ETag", "Checksum", "ObjectParts", "StorageClass", "ObjectSize"],
    )
    out["attrs_etag"] = attrs["ETag"]
    out["attrs_size"] = str(attrs["ObjectSize"])
    out["attrs_storage_class"] = attrs["StorageClass"]
    out["attrs_crc32"] = attrs["Checksum"]["ChecksumCRC32"]
    out["attrs_checksum_type"] = attrs["Checksum"].get("ChecksumType", "")
    out["attrs_has_parts"] = str("ObjectParts" in attrs)

    upload = s3.create_multipart_upload(Bucket=bucket, Key="attrs-mp", ChecksumAlgorithm="CRC32")
    parts = []
    for n, size in ((1, 5 * 1024 * 1024), (2, 7)):
        part = s3.upload_part(
            Bucket=bucket,
            Key="attrs-mp",
            UploadId=upload["UploadId"],
            PartNumber=n,
            Body=b"p" * size,
            ChecksumAlgorithm="CRC32",
        )
        parts.append({"PartNumber": n, "ETag": part["ETag"], "ChecksumCRC32": part["ChecksumCRC32"]})
    s3.complete_multipart_upload(
        Bucket=bucket, Key="attrs-mp", UploadId=upload["UploadId"], MultipartUpload={"Parts": parts}
    )
    mp = s3.get_object_attributes(
        Bucket=bucket, Key="attrs-mp", ObjectAttributes=["ObjectParts"], MaxParts=1
    )
    out["mp_parts_count"] = str(mp["ObjectParts"]["TotalPartsCount"])
    out["mp_truncated"] = str(mp["ObjectParts"]["IsTruncated"])
    out["mp_first_part"] = "%d:%d" % (
        mp["ObjectParts"]["Parts"][0]["PartNumber"],
        mp["ObjectParts"]["Parts"][0]["Size"],
    )
    out["mp_first_part_crc32_matches"] = str(
        mp["ObjectParts"]["Parts"][0].get("ChecksumCRC32") == parts[0]["ChecksumCRC32"]
    )
    out["attrs_missing_key"] = error_code(
        lambda: s3.get_object_attributes(Bucket=bucket, Key="absent", ObjectAttributes=["ETag"])
    )
    print(json.dumps(out, indent=0, sort_keys=True))


if __name__ == "__main__":
    main()
