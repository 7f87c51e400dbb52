"""Lists and deletes object versions with boto3, for Boto3IT.

Usage: python boto3_versions.py CONFIG.json

CONFIG names the endpoint and a bucket to create. The script enables versioning, writes a key
twice, and walks S3's version calls: list_object_versions (with and without a prefix, and paged
by MaxKeys), get_object and delete_object by VersionId, a delete marker and its removal by id. It
prints one JSON object (each listing as "key versionId [latest] [marker]" lines, newest first per
key, and what each call answered); the Java test judges it. An unexpected failure reaches it as a
traceback.
"""

import json
import sys

import boto3
from botocore.config import Config


def listing(s3, bucket, **kwargs):
    response = s3.list_object_versions(Bucket=bucket, **kwargs)
    entries = [dict(v, marker=False) for v in response.get("Versions", [])]
    entries += [dict(d, marker=True) for d in response.get("DeleteMarkers", [])]
    entries.sort(key=lambda e: (e["Key"], not e["IsLatest"], -e["LastModified"].timestamp()))
    lines = [
        "%s %s%s%s"
        % (e["Key"], e["VersionId"], " latest" if e["IsLatest"] else "", " marker" if e["marker"] else "")
        for e in entries
    ]
    return lines, response


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
    s3.put_bucket_versioning(Bucket=bucket, VersioningConfiguration={"Status": "Enabled"})
    out["first"] = s3.put_object(Bucket=bucket, Key="k", Body=b"one")["VersionId"]
    out["second"] = s3.put_object(Bucket=bucket, Key="k", Body=b"two")["VersionId"]
    out["other"] = s3.put_object(Bucket=bucket, Key="other", Body=b"x")["VersionId"]
    out["list"], _ = listing(s3, bucket)
    out["list_prefix"], _ = listing(s3, bucket, Prefix="k")
    page, response = listing(s3, bucket, MaxKeys=1)
    out["page1"] = page
    out["page1_truncated"] = response["IsTruncated"]
    out["page2"], _ = listing(
        s3,
        bucket,
        MaxKeys=1,
        KeyMarker=response.get("NextKeyMarker", ""),
        VersionIdMarker=response.get("NextVersionIdMarker", ""),
    )
    first = s3.get_object(Bucket=bucket, Key="k", VersionId=out["first"])
    out["get_first"] = first["Body"].read().decode()

    removed = s3.delete_object(Bucket=bucket, Key="k", VersionId=out["first"])
    out["delete_first_version_id"] = removed.get("VersionId", "")
    out["delete_first_marker"] = str(removed.get("DeleteMarker", False))
    out["list_after_delete_first"], _ = listing(s3, bucket, Prefix="k")

    marker = s3.delete_object(Bucket=bucket, Key="k")
    out["marker"] = marker["VersionId"]
    out["list_with_marker"], _ = listing(s3, bucket, Prefix="k")
    unmarked = s3.delete_object(Bucket=bucket, Key="k", VersionId=out["marker"])
    out["delete_marker_marker"] = str(unmarked.get("DeleteMarker", False))
    out["delete_marker_version_id"] = unmarked.get("VersionId", "")
    out["list_after_unmark"], _ = listing(s3, bucket, Prefix="k")
    out["current_after_unmark"] = s3.get_object(Bucket=bucket, Key="k")["Body"].read().decode()
    print(json.dumps(out, indent=1, sort_keys=True))


if __name__ == "__main__":
    main()
