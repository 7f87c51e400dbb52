"""Drives bucket versioning of the RACS proxy with boto3, for Boto3IT.

Usage: python boto3_versioning.py CONFIG.json

CONFIG names the endpoint, an optional CA bundle and a bucket to create. The script does not judge
the results: it prints one flat JSON object of strings on stdout (what each call answered, or the
error code it failed with) and the Java test asserts on it. An unexpected failure is not caught:
the traceback and a non-zero exit status reach the test.
"""

import json
import sys

import boto3
from botocore.config import Config
from botocore.exceptions import ClientError


def error_of(call):
    """The S3 error code and HTTP status a call failed with, or "ok"."""
    try:
        call()
        return "ok"
    except ClientError as e:
        status = e.response["ResponseMetadata"]["HTTPStatusCode"]
        return "%s %s" % (e.response["Error"]["Code"], status)


def latest_marked(entries):
    """The version ids of ListObjectVersions entries in order, the latest one followed by '*'."""
    return ",".join(e["VersionId"] + ("*" if e["IsLatest"] else "") for e in entries)


def main():
    with open(sys.argv[1]) as f:
        config = json.load(f)
    s3 = boto3.client(
        "s3",
        endpoint_url=config["endpoint"],
        region_name="us-east-1",
        verify=config.get("caBundle") or True,
        config=Config(s3={"addressing_style": "path"}, retries={"max_attempts": 1}),
    )
    bucket = config["bucket"]
    out = {}
    s3.create_bucket(Bucket=bucket)
    out["status_before"] = s3.get_bucket_versioning(Bucket=bucket).get("Status", "")
    s3.put_bucket_versioning(Bucket=bucket, VersioningConfiguration={"Status": "Enabled"})
    out["status_after"] = s3.get_bucket_versioning(Bucket=bucket).get("Status", "")
    first = s3.put_object(Bucket=bucket, Key="k", Body=b"one")
    second = s3.put_object(Bucket=bucket, Key="k", Body=b"two")
    out["first_version"] = first.get("VersionId", "")
    out["second_version"] = second.get("VersionId", "")
    out["current"] = s3.get_object(Bucket=bucket, Key="k")["Body"].read().decode()
    deleted = s3.delete_object(Bucket=bucket, Key="k")
    out["delete_marker"] = str(deleted.get("DeleteMarker", ""))
    out["delete_version"] = deleted.get("VersionId", "")
    out["get_after_delete"] = error_of(lambda: s3.get_object(Bucket=bucket, Key="k"))
    out["suspend"] = error_of(  # suspended from here on: the versions stay as they are
        lambda: s3.put_bucket_versioning(
            Bucket=bucket, VersioningConfiguration={"Status": "Suspended"}
        )
    )
    out["status_after_suspend"] = s3.get_bucket_versioning(Bucket=bucket).get("Status", "")
    first = s3.get_object(Bucket=bucket, Key="k", VersionId=out["first_version"])
    out["get_first"] = first["Body"].read().decode()
    out["get_first_version"] = first.get("VersionId", "")
    out["get_marker"] = error_of(
        lambda: s3.get_object(Bucket=bucket, Key="k", VersionId=out["delete_version"])
    )
    out["get_unknown"] = error_of(
        lambda: s3.get_object(Bucket=bucket, Key="k", VersionId="0" * 32)
    )
    listed = s3.list_object_versions(Bucket=bucket)
    out["list_versions"] = latest_marked(listed.get("Versions", []))
    out["list_markers"] = latest_marked(listed.get("DeleteMarkers", []))
    removed = s3.delete_object(Bucket=bucket, Key="k", VersionId=out["delete_version"])
    out["remove_marker"] = "%s %s" % (removed.get("DeleteMarker", ""), removed.get("VersionId", ""))
    out["current_after_remove"] = s3.get_object(Bucket=bucket, Key="k")["Body"].read().decode()
    out["delete_bucket"] = error_of(lambda: s3.delete_bucket(Bucket=bucket))
    batch = s3.delete_objects(
        Bucket=bucket,
        Delete={
            "Objects": [
                {"Key": "k", "VersionId": out["first_version"]},
                {"Key": "k", "VersionId": out["second_version"]},
            ]
        },
    )
    out["batch_deleted"] = ",".join(sorted(d["VersionId"] for d in batch.get("Deleted", [])))
    out["batch_errors"] = str(len(batch.get("Errors", [])))
    out["versions_left"] = str(len(s3.list_object_versions(Bucket=bucket).get("Versions", [])))
    out["delete_bucket_emptied"] = error_of(lambda: s3.delete_bucket(Bucket=bucket))
    null_version(s3, bucket + "-null", out)
    print(json.dumps(out, indent=0, sort_keys=True))


def null_version(s3, bucket, out):
    """The null version: written before versioning, and while it is suspended."""
    s3.create_bucket(Bucket=bucket)
    s3.put_object(Bucket=bucket, Key="k", Body=b"before")
    s3.put_bucket_versioning(Bucket=bucket, VersioningConfiguration={"Status": "Enabled"})
    kept = s3.put_object(Bucket=bucket, Key="k", Body=b"kept")["VersionId"]
    out["null_kept_version"] = kept
    out["null_get_before"] = (
        s3.get_object(Bucket=bucket, Key="k", VersionId="null")["Body"].read().decode()
    )
    s3.put_bucket_versioning(Bucket=bucket, VersioningConfiguration={"Status": "Suspended"})
    out["null_status"] = s3.get_bucket_versioning(Bucket=bucket).get("Status", "")
    s3.put_object(Bucket=bucket, Key="k", Body=b"first null")
    put = s3.put_object(Bucket=bucket, Key="k", Body=b"second null")
    out["null_put_version"] = put.get("VersionId", "")
    out["null_head_version"] = s3.head_object(Bucket=bucket, Key="k").get("VersionId", "")
    out["null_get"] = (
        s3.get_object(Bucket=bucket, Key="k", VersionId="null")["Body"].read().decode()
    )
    out["null_list"] = latest_marked(s3.list_object_versions(Bucket=bucket).get("Versions", []))
    deleted = s3.delete_object(Bucket=bucket, Key="k")
    out["null_delete"] = "%s %s" % (deleted.get("DeleteMarker", ""), deleted.get("VersionId", ""))
    listed = s3.list_object_versions(Bucket=bucket)
    out["null_list_markers"] = latest_marked(listed.get("DeleteMarkers", []))
    out["null_list_after_delete"] = latest_marked(listed.get("Versions", []))
    removed = s3.delete_object(Bucket=bucket, Key="k", VersionId="null")
    out["null_remove"] = removed.get("VersionId", "")
    out["null_current"] = s3.get_object(Bucket=bucket, Key="k")["Body"].read().decode()


if __name__ == "__main__":
    main()
