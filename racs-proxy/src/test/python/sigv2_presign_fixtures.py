"""Writes SigV2 presigned URLs made by botocore, as `aws s3 presign` of aws-cli v1 makes them.

Usage: python3 sigv2_presign_fixtures.py > ../resources/auth/sigv2-presigned-botocore.txt
Each line: expires-epoch-seconds TAB method TAB request-target (path and query, as sent).
Needs botocore; runs offline (presigning sends nothing).
"""
import random
import sys
import time
from unittest import mock

import botocore.session
from botocore.config import Config

AK, SK = "RACSV2KEY", "racs-v2-secret/+="
NOW = 1767268800  # 2026-01-01T12:00:00Z
CHARS = "abcXYZ019 !\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~\u00e9\u00fc\u65e5"

def main():
    rnd = random.Random(0x5162)
    session = botocore.session.get_session()
    client = session.create_client(
        "s3", region_name="us-east-1", endpoint_url="http://127.0.0.1:9000",
        aws_access_key_id=AK, aws_secret_access_key=SK,
        config=Config(signature_version="s3", s3={"addressing_style": "path"}))
    print("# botocore " + botocore.__version__ + ", access key " + AK + ", secret " + SK)
    with mock.patch.object(time, "time", return_value=NOW):
        for i in range(60):
            key = "".join(rnd.choice(CHARS) for _ in range(rnd.randint(1, 24)))
            op, params = "get_object", {"Bucket": "bucket-%d" % rnd.randint(0, 9), "Key": key}
            if i % 5 == 1:
                params["VersionId"] = "v %d+/=" % i
            if i % 5 == 2:
                params["ResponseContentType"] = "text/plain; charset=utf-8"
            if i % 5 == 3:
                op = "put_object"
            if i % 7 == 4:
                op, params = "list_objects", {"Bucket": params["Bucket"], "Prefix": key}
            url = client.generate_presigned_url(op, Params=params, ExpiresIn=3600)
            method = "PUT" if op == "put_object" else "GET"
            target = url[len("http://127.0.0.1:9000"):]
            print("%d\t%s\t%s" % (NOW + 3600, method, target))

if __name__ == "__main__":
    sys.exit(main())
