package io.racs.proxy.s3.handler;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.s3.model.BucketCannedACL;
import software.amazon.awssdk.services.s3.model.GetBucketAclResponse;
import software.amazon.awssdk.services.s3.model.GetObjectAclResponse;
import software.amazon.awssdk.services.s3.model.ObjectCannedACL;
import software.amazon.awssdk.services.s3.model.Permission;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.Type;

/**
 * Proves that ACLs are reported truthfully for the array's one owner: GetBucketAcl and GetObjectAcl
 * answer that owner (the one ListBuckets names) with FULL_CONTROL; PutBucketAcl and PutObjectAcl
 * setting exactly that ACL answer 200 and change nothing; any other canned ACL, grant header or
 * grant body is refused with NotImplemented; missing buckets, keys and versions are the S3 errors
 * for them, and a malformed body is MalformedXML.
 */
class AclTest {
  private static final String BUCKET = "acls";
  @RegisterExtension static final S3FrontEnd proxy = S3FrontEnd.withBucket(BUCKET);

  private static String policy(String ownerId, String grants) {
    return "<AccessControlPolicy xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"><Owner><ID>"
        + ownerId
        + "</ID></Owner><AccessControlList>"
        + grants
        + "</AccessControlList></AccessControlPolicy>";
  }

  private static String grant(String type, String grantee, String permission) {
    return "<Grant><Grantee xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xsi:type=\""
        + type
        + "\">"
        + grantee
        + "</Grantee><Permission>"
        + permission
        + "</Permission></Grant>";
  }

  private static final String OWNER_FULL = grant("CanonicalUser", "<ID>racs</ID>", "FULL_CONTROL");

  @Test
  void getBucketAcl_whenBucketExists_ownerWithFullControl() {
    String owner = proxy.s3().listBuckets().owner().id();
    GetBucketAclResponse acl = proxy.s3().getBucketAcl(b -> b.bucket(BUCKET));
    assertThat(acl.owner().id()).isEqualTo(owner);
    assertThat(acl.grants()).singleElement();
    assertThat(acl.grants().get(0).permission()).isEqualTo(Permission.FULL_CONTROL);
    assertThat(acl.grants().get(0).grantee().type()).isEqualTo(Type.CANONICAL_USER);
    assertThat(acl.grants().get(0).grantee().id()).isEqualTo(owner);
  }

  @Test
  void getBucketAcl_whenNoBucket_noSuchBucket() {
    S3Exception e = S3FrontEnd.error(() -> proxy.s3().getBucketAcl(b -> b.bucket("no-such")));
    assertThat(e.awsErrorDetails().errorCode()).isEqualTo("NoSuchBucket");
  }

  @Test
  void getObjectAcl_whenObjectExists_ownerWithFullControl() {
    proxy.put("get-acl", "x");
    GetObjectAclResponse acl = proxy.s3().getObjectAcl(b -> b.bucket(BUCKET).key("get-acl"));
    assertThat(acl.owner().id()).isEqualTo("racs");
    assertThat(acl.grants()).singleElement();
    assertThat(acl.grants().get(0).permission()).isEqualTo(Permission.FULL_CONTROL);
    assertThat(acl.grants().get(0).grantee().id()).isEqualTo("racs");
  }

  @Test
  void getObjectAcl_whenNoKeyOrOtherVersion_noSuchKeyOrNoSuchVersion() throws Exception {
    S3Exception e =
        S3FrontEnd.error(() -> proxy.s3().getObjectAcl(b -> b.bucket(BUCKET).key("missing")));
    assertThat(e.awsErrorDetails().errorCode()).isEqualTo("NoSuchKey");
    proxy.put("acl-version", "x");
    S3FrontEnd.Raw raw =
        proxy.send("GET", "/" + BUCKET + "/acl-version", "acl&versionId=other", Map.of(), null);
    assertThat(raw.status()).isEqualTo(404);
    assertThat(raw.code()).isEqualTo("NoSuchVersion");
    raw = proxy.send("GET", "/" + BUCKET + "/acl-version", "acl&versionId=null", Map.of(), null);
    assertThat(raw.status()).isEqualTo(200);
  }

  @Test
  void putBucketAcl_whenPrivate_okAndAclUnchanged() {
    proxy.s3().putBucketAcl(b -> b.bucket(BUCKET).acl(BucketCannedACL.PRIVATE));
    assertThat(proxy.s3().getBucketAcl(b -> b.bucket(BUCKET)).grants()).singleElement();
  }

  @Test
  void putBucketAcl_whenPublicRead_notImplemented() {
    S3Exception e =
        S3FrontEnd.error(
            () -> proxy.s3().putBucketAcl(b -> b.bucket(BUCKET).acl(BucketCannedACL.PUBLIC_READ)));
    assertThat(e.statusCode()).isEqualTo(501);
    assertThat(e.awsErrorDetails().errorCode()).isEqualTo("NotImplemented");
  }

  @Test
  void putBucketAcl_whenNoBucket_noSuchBucket() {
    S3Exception e =
        S3FrontEnd.error(
            () -> proxy.s3().putBucketAcl(b -> b.bucket("no-such").acl(BucketCannedACL.PRIVATE)));
    assertThat(e.awsErrorDetails().errorCode()).isEqualTo("NoSuchBucket");
  }

  @Test
  void putObjectAcl_whenPrivateOrOwnerCanned_ok() {
    proxy.put("put-acl", "x");
    proxy.s3().putObjectAcl(b -> b.bucket(BUCKET).key("put-acl").acl(ObjectCannedACL.PRIVATE));
    proxy
        .s3()
        .putObjectAcl(
            b -> b.bucket(BUCKET).key("put-acl").acl(ObjectCannedACL.BUCKET_OWNER_FULL_CONTROL));
    assertThat(proxy.get("put-acl")).isEqualTo("x");
  }

  @Test
  void putObjectAcl_whenPublicReadOrGrantHeader_notImplemented() {
    proxy.put("put-public", "x");
    S3Exception e =
        S3FrontEnd.error(
            () ->
                proxy
                    .s3()
                    .putObjectAcl(
                        b -> b.bucket(BUCKET).key("put-public").acl(ObjectCannedACL.PUBLIC_READ)));
    assertThat(e.statusCode()).isEqualTo(501);
    e =
        S3FrontEnd.error(
            () ->
                proxy
                    .s3()
                    .putObjectAcl(b -> b.bucket(BUCKET).key("put-public").grantRead("uri=\"x\"")));
    assertThat(e.statusCode()).isEqualTo(501);
  }

  @Test
  void putObjectAcl_whenNoKey_noSuchKey() {
    S3Exception e =
        S3FrontEnd.error(
            () ->
                proxy
                    .s3()
                    .putObjectAcl(
                        b -> b.bucket(BUCKET).key("absent").acl(ObjectCannedACL.PRIVATE)));
    assertThat(e.awsErrorDetails().errorCode()).isEqualTo("NoSuchKey");
  }

  @Test
  void putAcl_whenBodyGrantsOwnerOnly_ok() throws Exception {
    proxy.put("body-owner", "x");
    byte[] body = policy("racs", OWNER_FULL).getBytes(StandardCharsets.UTF_8);
    assertThat(proxy.send("PUT", "/" + BUCKET + "/body-owner", "acl", Map.of(), body).status())
        .isEqualTo(200);
    assertThat(proxy.send("PUT", "/" + BUCKET, "acl", Map.of(), body).status()).isEqualTo(200);
  }

  @Test
  void putAcl_whenBodyGrantsOthers_notImplemented() throws Exception {
    proxy.put("body-others", "x");
    String path = "/" + BUCKET + "/body-others";
    for (String grants :
        new String[] {
          OWNER_FULL
              + grant(
                  "Group", "<URI>http://acs.amazonaws.com/groups/global/AllUsers</URI>", "READ"),
          grant("CanonicalUser", "<ID>someone-else</ID>", "FULL_CONTROL"),
          grant("CanonicalUser", "<ID>racs</ID>", "READ"),
          grant("AmazonCustomerByEmail", "<EmailAddress>a@b.c</EmailAddress>", "READ"),
          ""
        }) {
      byte[] body = policy("racs", grants).getBytes(StandardCharsets.UTF_8);
      S3FrontEnd.Raw raw = proxy.send("PUT", path, "acl", Map.of(), body);
      assertThat(raw.status()).as(grants).isEqualTo(501);
      assertThat(raw.code()).isEqualTo("NotImplemented");
    }
    byte[] otherOwner = policy("someone-else", OWNER_FULL).getBytes(StandardCharsets.UTF_8);
    assertThat(proxy.send("PUT", path, "acl", Map.of(), otherOwner).status()).isEqualTo(501);
  }

  @Test
  void putAcl_whenBodyMalformedOrMissingOrBoth_errors() throws Exception {
    String path = "/" + BUCKET;
    S3FrontEnd.Raw raw =
        proxy.send("PUT", path, "acl", Map.of(), "<AccessControlPolicy><Owner>".getBytes());
    assertThat(raw.code()).isEqualTo("MalformedXML");
    raw = proxy.send("PUT", path, "acl", Map.of(), "<AccessControlPolicy/>".getBytes());
    assertThat(raw.code()).isEqualTo("MalformedXML");
    raw = proxy.send("PUT", path, "acl", Map.of(), null);
    assertThat(raw.status()).isEqualTo(400);
    assertThat(raw.code()).isEqualTo("MissingRequestBodyError");
    raw =
        proxy.send(
            "PUT",
            path,
            "acl",
            Map.of("x-amz-acl", "private"),
            policy("racs", OWNER_FULL).getBytes(StandardCharsets.UTF_8));
    assertThat(raw.status()).isEqualTo(400);
    assertThat(raw.code()).isEqualTo("InvalidRequest");
  }

  @Test
  void createMultipartUploadAndCopy_withPrivateAcl_accepted() {
    proxy.put("copy-source", "copied");
    proxy
        .s3()
        .copyObject(
            b ->
                b.sourceBucket(BUCKET)
                    .sourceKey("copy-source")
                    .destinationBucket(BUCKET)
                    .destinationKey("copy-target")
                    .acl(ObjectCannedACL.PRIVATE));
    assertThat(proxy.get("copy-target")).isEqualTo("copied");
    String upload =
        proxy
            .s3()
            .createMultipartUpload(
                b -> b.bucket(BUCKET).key("mpu-private").acl(ObjectCannedACL.PRIVATE))
            .uploadId();
    assertThat(upload).isNotEmpty();
    proxy.s3().abortMultipartUpload(b -> b.bucket(BUCKET).key("mpu-private").uploadId(upload));
  }

  @Test
  void createMultipartUpload_withPublicReadAcl_notImplemented() {
    S3Exception e =
        S3FrontEnd.error(
            () ->
                proxy
                    .s3()
                    .createMultipartUpload(
                        b -> b.bucket(BUCKET).key("mpu-public").acl(ObjectCannedACL.PUBLIC_READ)));
    assertThat(e.statusCode()).isEqualTo(501);
  }
}
