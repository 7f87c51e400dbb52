package io.racs.proxy.s3.handler;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.ObjectCannedACL;

/**
 * Proves that headers asking for what the proxy does not do (SSE-KMS, SSE-S3 without a master key,
 * object lock, ACL grants, a canned ACL that would grant access) are refused with 501
 * NotImplemented before anything is stored or served, instead of being accepted and ignored; and
 * that an SSE-C key sent over plain HTTP is refused as S3 refuses it (400 InvalidRequest), so that
 * the key never crosses the wire in clear to a proxy that then acts on it. A KMS key id without
 * {@code aws:kms}, or any encryption header on a read, is S3's 400 InvalidArgument.
 */
class RefusedHeadersTest {
  private static final String BUCKET = "refusals";
  private static final String BODY = "secret";
  @RegisterExtension static final S3FrontEnd proxy = S3FrontEnd.withBucket(BUCKET);

  private static Map<String, String> sseC;

  @BeforeAll
  static void store() throws Exception {
    proxy.s3().putObject(b -> b.bucket(BUCKET).key("existing"), RequestBody.fromString("plain"));
    byte[] key = new byte[32];
    for (int i = 0; i < key.length; i++) {
      key[i] = (byte) (7 * i + 1);
    }
    sseC =
        Map.of(
            "x-amz-server-side-encryption-customer-algorithm", "AES256",
            "x-amz-server-side-encryption-customer-key", Base64.getEncoder().encodeToString(key),
            "x-amz-server-side-encryption-customer-key-MD5",
                Base64.getEncoder().encodeToString(MessageDigest.getInstance("MD5").digest(key)));
  }

  private static void assertNotImplemented(S3FrontEnd.Raw raw) {
    assertThat(raw.status()).isEqualTo(501);
    if (raw.body().length > 0) {
      assertThat(raw.code()).isEqualTo("NotImplemented");
    }
  }

  private static void assertAbsent(String key) {
    assertThat(
            S3FrontEnd.error(() -> proxy.s3().headObject(b -> b.bucket(BUCKET).key(key)))
                .statusCode())
        .isEqualTo(404);
  }

  private static S3FrontEnd.Raw put(String key, Map<String, String> headers) throws Exception {
    return proxy.send(
        "PUT", "/" + BUCKET + "/" + key, "", headers, BODY.getBytes(StandardCharsets.UTF_8));
  }

  private static void assertNeedsTls(S3FrontEnd.Raw raw) {
    assertThat(raw.status()).isEqualTo(400);
    if (raw.body().length > 0) {
      assertThat(raw.code()).isEqualTo("InvalidRequest");
    }
  }

  @Test
  void putObject_withSseCustomerKeyOverPlainHttp_invalidRequestAndNothingStored() throws Exception {
    assertNeedsTls(put("sse-c", sseC));
    assertAbsent("sse-c");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "x-amz-server-side-encryption:AES256",
        "x-amz-server-side-encryption:aws:kms",
        "x-amz-server-side-encryption-context:e30=",
        "x-amz-server-side-encryption-bucket-key-enabled:true",
        "x-amz-grant-read:id=someone",
        "x-amz-grant-full-control:id=someone",
        "x-amz-acl:public-read",
        "x-amz-acl:authenticated-read"
      })
  void putObject_withUnsupportedHeader_notImplementedAndNothingStored(String header)
      throws Exception {
    int colon = header.indexOf(':');
    String key = "refused-" + Integer.toHexString(header.hashCode());
    assertNotImplemented(put(key, Map.of(header.substring(0, colon), header.substring(colon + 1))));
    assertAbsent(key);
  }

  @Test
  void sseKmsKeyId_whenWithoutAwsKmsOrOnARead_invalidArgumentAsS3AndNothingStored()
      throws Exception {
    String keyId = "x-amz-server-side-encryption-aws-kms-key-id";
    S3FrontEnd.Raw undeclared = put("kms-undeclared", Map.of(keyId, "testkey-2"));
    assertThat(undeclared.status()).as(undeclared.text()).isEqualTo(400);
    assertThat(undeclared.code()).isEqualTo("InvalidArgument");
    assertAbsent("kms-undeclared");
    assertNotImplemented(
        put("kms-declared", Map.of(keyId, "testkey-1", "x-amz-server-side-encryption", "aws:kms")));
    assertAbsent("kms-declared");
    S3FrontEnd.Raw read =
        proxy.send(
            "GET",
            "/" + BUCKET + "/existing",
            "",
            Map.of(keyId, "testkey-1", "x-amz-server-side-encryption", "aws:kms"),
            null);
    assertThat(read.status()).as(read.text()).isEqualTo(400);
    assertThat(read.code()).isEqualTo("InvalidArgument");
  }

  @Test
  void getObject_withSseCustomerKeyOverPlainHttp_invalidRequest() throws Exception {
    assertNeedsTls(proxy.send("GET", "/" + BUCKET + "/existing", "", sseC, null));
    assertNeedsTls(proxy.send("HEAD", "/" + BUCKET + "/existing", "", sseC, null));
  }

  @Test
  void deleteObject_withSseCustomerKey_notImplemented() throws Exception {
    assertNotImplemented(proxy.send("DELETE", "/" + BUCKET + "/existing", "", sseC, null));
    assertThat(proxy.s3().headObject(b -> b.bucket(BUCKET).key("existing")).contentLength())
        .isEqualTo(5);
  }

  @Test
  void copyObject_withCopySourceSseCustomerKeyOverPlainHttp_invalidRequestAndNothingStored()
      throws Exception {
    Map<String, String> headers = new java.util.HashMap<>();
    headers.put("x-amz-copy-source", "/" + BUCKET + "/existing");
    sseC.forEach((name, value) -> headers.put(name.replace("x-amz-", "x-amz-copy-source-"), value));
    assertNeedsTls(proxy.send("PUT", "/" + BUCKET + "/copied", "", headers, null));
    assertAbsent("copied");
  }

  @Test
  void createMultipartUpload_withSse_notImplementedAndNoUpload() {
    assertThat(
            S3FrontEnd.error(
                    () ->
                        proxy
                            .s3()
                            .createMultipartUpload(
                                b -> b.bucket(BUCKET).key("mp").serverSideEncryption("AES256")))
                .statusCode())
        .isEqualTo(501);
    assertThat(proxy.s3().listMultipartUploads(b -> b.bucket(BUCKET)).uploads()).isEmpty();
  }

  @Test
  void createBucket_withPublicAcl_notImplementedAndNoBucket() {
    // (Object lock is served: ObjectLockTest.)
    assertThat(
            S3FrontEnd.error(
                    () ->
                        proxy
                            .s3()
                            .createBucket(
                                b ->
                                    b.bucket("public")
                                        .acl(
                                            software.amazon.awssdk.services.s3.model.BucketCannedACL
                                                .PUBLIC_READ)))
                .statusCode())
        .isEqualTo(501);
    assertThat(proxy.s3().listBuckets().buckets())
        .extracting(b -> b.name())
        .containsExactly(BUCKET);
  }

  @Test
  void putObject_withPrivateOrOwnerCannedAcl_stored() {
    proxy
        .s3()
        .putObject(
            b -> b.bucket(BUCKET).key("private").acl(ObjectCannedACL.PRIVATE),
            RequestBody.fromString(BODY));
    proxy
        .s3()
        .putObject(
            b -> b.bucket(BUCKET).key("owner").acl(ObjectCannedACL.BUCKET_OWNER_FULL_CONTROL),
            RequestBody.fromString(BODY));
    assertThat(proxy.s3().getObjectAsBytes(b -> b.bucket(BUCKET).key("private")).asUtf8String())
        .isEqualTo(BODY);
    assertThat(proxy.s3().getObjectAsBytes(b -> b.bucket(BUCKET).key("owner")).asUtf8String())
        .isEqualTo(BODY);
  }
}
