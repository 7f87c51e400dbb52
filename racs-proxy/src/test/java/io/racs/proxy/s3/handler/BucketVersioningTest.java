package io.racs.proxy.s3.handler;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.BucketVersioningStatus;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.DeleteObjectResponse;
import software.amazon.awssdk.services.s3.model.DeleteObjectsResponse;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Proves Put and GetBucketVersioning through the S3 front end: a bucket never versioned answers an
 * empty configuration, {@code Enabled} sticks, and from then on every write answers its version id
 * and a delete answers the delete marker it wrote; what is not implemented yet (MFA delete, a
 * conditional delete of one version, a part copied from a version) is refused with 501 and changes
 * nothing, and bad configurations are MalformedXML. (Suspended versioning and the null version:
 * {@link SuspendedVersioningTest}.)
 */
class BucketVersioningTest {
  private static final String PLAIN = "plain";
  private static final String NEVER_SEEN_VERSION = "3HL4kqtJlcpXroDTDmJ.rmSpXd3dIbrHY";
  @RegisterExtension static final S3FrontEnd proxy = S3FrontEnd.withBucket(PLAIN);

  private static String versionedBucket(String name) {
    proxy.s3().createBucket(b -> b.bucket(name));
    proxy
        .s3()
        .putBucketVersioning(
            b ->
                b.bucket(name)
                    .versioningConfiguration(c -> c.status(BucketVersioningStatus.ENABLED)));
    return name;
  }

  private static S3FrontEnd.Raw putVersioning(String bucket, String xml) throws Exception {
    return proxy.send(
        "PUT", "/" + bucket, "versioning", Map.of(), xml.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void getBucketVersioning_whenNeverVersioned_emptyConfiguration() throws Exception {
    S3FrontEnd.Raw raw = proxy.send("GET", "/" + PLAIN, "versioning", Map.of(), null);
    assertThat(raw.status()).isEqualTo(200);
    assertThat(raw.text()).contains("<VersioningConfiguration").doesNotContain("Status");
    assertThat(proxy.s3().getBucketVersioning(b -> b.bucket(PLAIN)).status()).isNull();
  }

  @Test
  void putBucketVersioning_whenEnabled_getSaysEnabled() {
    String bucket = versionedBucket("enabled");
    assertThat(proxy.s3().getBucketVersioning(b -> b.bucket(bucket)).status())
        .isEqualTo(BucketVersioningStatus.ENABLED);
  }

  @Test
  void putBucketVersioning_whenMfaDelete_notImplementedAndUnchanged() throws Exception {
    proxy.s3().createBucket(b -> b.bucket("suspend"));
    S3FrontEnd.Raw mfa =
        putVersioning(
            "suspend",
            "<VersioningConfiguration><Status>Enabled</Status><MfaDelete>Enabled</MfaDelete>"
                + "</VersioningConfiguration>");
    assertThat(mfa.status()).isEqualTo(501);
    assertThat(mfa.code()).isEqualTo("NotImplemented");
    assertThat(proxy.s3().getBucketVersioning(b -> b.bucket("suspend")).status()).isNull();
  }

  @Test
  void putBucketVersioning_whenMfaDeleteDisabled_enablesVersioning() throws Exception {
    proxy.s3().createBucket(b -> b.bucket("mfa-disabled"));
    S3FrontEnd.Raw raw =
        putVersioning(
            "mfa-disabled",
            "<VersioningConfiguration><MfaDelete>Disabled</MfaDelete><Status>Enabled</Status>"
                + "</VersioningConfiguration>");
    assertThat(raw.status()).as(raw.text()).isEqualTo(200);
    assertThat(proxy.s3().getBucketVersioning(b -> b.bucket("mfa-disabled")).status())
        .isEqualTo(BucketVersioningStatus.ENABLED);
    S3FrontEnd.Raw bad =
        putVersioning(
            "mfa-disabled",
            "<VersioningConfiguration><Status>Enabled</Status><MfaDelete>Off</MfaDelete>"
                + "</VersioningConfiguration>");
    assertThat(bad.status()).isEqualTo(400);
    assertThat(bad.code()).isEqualTo("MalformedXML");
  }

  @Test
  void putBucketVersioning_whenStatusMissingOrUnknown_malformedXml() throws Exception {
    for (String xml :
        new String[] {
          "<VersioningConfiguration/>",
          "<VersioningConfiguration><Status>On</Status></VersioningConfiguration>",
          "<VersioningConfiguration><Status>Enabled</Status>",
          ""
        }) {
      S3FrontEnd.Raw raw = putVersioning(PLAIN, xml);
      assertThat(raw.status()).as(xml).isEqualTo(400);
      assertThat(raw.code()).as(xml).isEqualTo("MalformedXML");
    }
    assertThat(proxy.s3().getBucketVersioning(b -> b.bucket(PLAIN)).status()).isNull();
  }

  @Test
  void putBucketVersioning_whenBucketMissing_noSuchBucket() throws Exception {
    S3FrontEnd.Raw raw =
        putVersioning(
            "missing",
            "<VersioningConfiguration><Status>Enabled</Status></VersioningConfiguration>");
    assertThat(raw.status()).isEqualTo(404);
    assertThat(raw.code()).isEqualTo("NoSuchBucket");
  }

  @Test
  void writes_whenVersioned_answerTheirVersionIdsAndUnversionedNone() {
    String bucket = versionedBucket("writes");
    PutObjectResponse first =
        proxy.s3().putObject(b -> b.bucket(bucket).key("k"), RequestBody.fromString("one"));
    PutObjectResponse second =
        proxy.s3().putObject(b -> b.bucket(bucket).key("k"), RequestBody.fromString("two"));
    assertThat(first.versionId()).isNotEmpty();
    assertThat(second.versionId()).isNotEmpty().isNotEqualTo(first.versionId());
    assertThat(
            proxy
                .s3()
                .copyObject(
                    b ->
                        b.sourceBucket(bucket)
                            .sourceKey("k")
                            .destinationBucket(bucket)
                            .destinationKey("copy"))
                .versionId())
        .isNotEmpty()
        .isNotEqualTo(second.versionId());
    String upload = proxy.s3().createMultipartUpload(b -> b.bucket(bucket).key("mpu")).uploadId();
    String etag =
        proxy
            .s3()
            .uploadPart(
                b -> b.bucket(bucket).key("mpu").uploadId(upload).partNumber(1),
                RequestBody.fromString("part"))
            .eTag();
    assertThat(
            proxy
                .s3()
                .completeMultipartUpload(
                    b ->
                        b.bucket(bucket)
                            .key("mpu")
                            .uploadId(upload)
                            .multipartUpload(
                                m ->
                                    m.parts(
                                        CompletedPart.builder().partNumber(1).eTag(etag).build())))
                .versionId())
        .isNotEmpty();
  }

  @Test
  void putObject_whenUnversioned_answersNoVersionId() {
    assertThat(
            proxy
                .s3()
                .putObject(b -> b.bucket(PLAIN).key("k"), RequestBody.fromString("x"))
                .versionId())
        .isNull();
  }

  @Test
  void deleteObject_whenVersioned_answersTheDeleteMarkerItWrote() {
    String bucket = versionedBucket("deletes");
    proxy.s3().putObject(b -> b.bucket(bucket).key("k"), RequestBody.fromString("one"));
    DeleteObjectResponse deleted = proxy.s3().deleteObject(b -> b.bucket(bucket).key("k"));
    assertThat(deleted.deleteMarker()).isTrue();
    assertThat(deleted.versionId()).isNotEmpty();
    DeleteObjectResponse never = proxy.s3().deleteObject(b -> b.bucket(bucket).key("never"));
    assertThat(never.deleteMarker()).isTrue();
    assertThat(never.versionId()).isNotEmpty().isNotEqualTo(deleted.versionId());
    DeleteObjectsResponse batch =
        proxy
            .s3()
            .deleteObjects(
                b ->
                    b.bucket(bucket)
                        .delete(d -> d.objects(ObjectIdentifier.builder().key("other").build())));
    assertThat(batch.deleted())
        .singleElement()
        .satisfies(
            d -> {
              assertThat(d.deleteMarker()).isTrue();
              assertThat(d.deleteMarkerVersionId()).isNotEmpty();
            });
    S3Exception e =
        S3FrontEnd.error(() -> proxy.s3().getObjectAsBytes(b -> b.bucket(bucket).key("k")));
    assertThat(e.statusCode()).isEqualTo(404);
  }

  @Test
  void getAndHead_whenVersionNamed_readThatVersionExactly() throws Exception {
    String bucket = versionedBucket("exact");
    String first =
        proxy
            .s3()
            .putObject(b -> b.bucket(bucket).key("k"), RequestBody.fromString("first"))
            .versionId();
    proxy.s3().putObject(b -> b.bucket(bucket).key("k"), RequestBody.fromString("second"));
    var got = proxy.s3().getObjectAsBytes(b -> b.bucket(bucket).key("k").versionId(first));
    assertThat(got.asUtf8String()).isEqualTo("first");
    assertThat(got.response().versionId()).isEqualTo(first);
    assertThat(
            proxy
                .s3()
                .getObjectAsBytes(
                    b -> b.bucket(bucket).key("k").versionId(first).range("bytes=1-2"))
                .asUtf8String())
        .isEqualTo("ir");
    var head = proxy.s3().headObject(b -> b.bucket(bucket).key("k").versionId(first));
    assertThat(head.contentLength()).isEqualTo(5);
    assertThat(head.versionId()).isEqualTo(first);
    assertThat(proxy.s3().getObjectAsBytes(b -> b.bucket(bucket).key("k")).asUtf8String())
        .isEqualTo("second");
  }

  @Test
  void getAndHead_whenCurrentVersionOfVersionedBucket_answerItsVersionIdAndUnversionedNone() {
    String bucket = versionedBucket("current-id");
    proxy.s3().putObject(b -> b.bucket(bucket).key("k"), RequestBody.fromString("first"));
    String second =
        proxy
            .s3()
            .putObject(b -> b.bucket(bucket).key("k"), RequestBody.fromString("second"))
            .versionId();
    // As S3: the current version's id on a GET (whole or ranged) and a HEAD that name none.
    assertThat(proxy.s3().getObjectAsBytes(b -> b.bucket(bucket).key("k")).response().versionId())
        .isEqualTo(second);
    assertThat(
            proxy
                .s3()
                .getObjectAsBytes(b -> b.bucket(bucket).key("k").range("bytes=0-1"))
                .response()
                .versionId())
        .isEqualTo(second);
    assertThat(proxy.s3().headObject(b -> b.bucket(bucket).key("k")).versionId()).isEqualTo(second);
    proxy.s3().createBucket(b -> b.bucket("plain-current-id"));
    proxy.s3().putObject(b -> b.bucket("plain-current-id").key("k"), RequestBody.fromString("x"));
    assertThat(
            proxy
                .s3()
                .getObjectAsBytes(b -> b.bucket("plain-current-id").key("k"))
                .response()
                .versionId())
        .isNull();
    assertThat(proxy.s3().headObject(b -> b.bucket("plain-current-id").key("k")).versionId())
        .isNull();
  }

  @Test
  void copyObject_whenSourceVersionNamed_copiesThatVersionAndRestoresItOntoItsKey() {
    String bucket = versionedBucket("restore");
    String first =
        proxy
            .s3()
            .putObject(b -> b.bucket(bucket).key("k"), RequestBody.fromString("first"))
            .versionId();
    proxy.s3().putObject(b -> b.bucket(bucket).key("k"), RequestBody.fromString("second"));
    var copied =
        proxy
            .s3()
            .copyObject(
                b ->
                    b.sourceBucket(bucket)
                        .sourceKey("k")
                        .sourceVersionId(first)
                        .destinationBucket(bucket)
                        .destinationKey("k"));
    assertThat(copied.copySourceVersionId()).isEqualTo(first);
    assertThat(copied.versionId()).isNotEmpty().isNotEqualTo(first);
    assertThat(proxy.s3().getObjectAsBytes(b -> b.bucket(bucket).key("k")).asUtf8String())
        .isEqualTo("first");
    String marker = proxy.s3().deleteObject(b -> b.bucket(bucket).key("k")).versionId();
    S3Exception fromMarker =
        S3FrontEnd.error(
            () ->
                proxy
                    .s3()
                    .copyObject(
                        b ->
                            b.sourceBucket(bucket)
                                .sourceKey("k")
                                .sourceVersionId(marker)
                                .destinationBucket(bucket)
                                .destinationKey("other")));
    assertThat(fromMarker.statusCode()).isEqualTo(400);
    assertThat(fromMarker.awsErrorDetails().errorCode()).isEqualTo("InvalidRequest");
    S3Exception unknown =
        S3FrontEnd.error(
            () ->
                proxy
                    .s3()
                    .copyObject(
                        b ->
                            b.sourceBucket(bucket)
                                .sourceKey("k")
                                .sourceVersionId(NEVER_SEEN_VERSION)
                                .destinationBucket(bucket)
                                .destinationKey("other")));
    assertThat(unknown.statusCode()).isEqualTo(404);
    assertThat(unknown.awsErrorDetails().errorCode()).isEqualTo("NoSuchVersion");
  }

  @Test
  void get_whenVersionIsADeleteMarker_methodNotAllowedWithDeleteMarkerHeader() throws Exception {
    String bucket = versionedBucket("marker");
    proxy.s3().putObject(b -> b.bucket(bucket).key("k"), RequestBody.fromString("x"));
    String marker = proxy.s3().deleteObject(b -> b.bucket(bucket).key("k")).versionId();
    for (String method : new String[] {"GET", "HEAD"}) {
      S3FrontEnd.Raw raw =
          proxy.send(method, "/" + bucket + "/k", "versionId=" + marker, Map.of(), null);
      assertThat(raw.status()).as(method).isEqualTo(405);
      assertThat(raw.all("x-amz-delete-marker")).as(method).containsExactly("true");
      assertThat(raw.all("x-amz-version-id")).as(method).containsExactly(marker);
    }
  }

  @Test
  void get_whenVersionUnknownOrEmpty_noSuchVersionOrInvalidArgument() throws Exception {
    String bucket = versionedBucket("unknown");
    proxy.s3().putObject(b -> b.bucket(bucket).key("k"), RequestBody.fromString("x"));
    for (String version : new String[] {NEVER_SEEN_VERSION, "0".repeat(32)}) {
      S3FrontEnd.Raw raw =
          proxy.send("GET", "/" + bucket + "/k", "versionId=" + version, Map.of(), null);
      assertThat(raw.status()).isEqualTo(404);
      assertThat(raw.code()).isEqualTo("NoSuchVersion");
    }
    S3FrontEnd.Raw empty = proxy.send("GET", "/" + bucket + "/k", "versionId=", Map.of(), null);
    assertThat(empty.status()).isEqualTo(400);
    assertThat(empty.code()).isEqualTo("InvalidArgument");
    S3FrontEnd.Raw missing =
        proxy.send("GET", "/no-such-bucket/k", "versionId=" + NEVER_SEEN_VERSION, Map.of(), null);
    assertThat(missing.code()).isEqualTo("NoSuchBucket");
  }

  @Test
  void versionRequests_whenNotImplementedYet_refusedAndNothingChanged() throws Exception {
    String bucket = versionedBucket("named");
    String id =
        proxy
            .s3()
            .putObject(b -> b.bucket(bucket).key("k"), RequestBody.fromString("kept"))
            .versionId();
    S3FrontEnd.Raw conditional =
        proxy.send(
            "DELETE", "/" + bucket + "/k", "versionId=" + id, Map.of("If-Match", "\"x\""), null);
    assertThat(conditional.status()).isEqualTo(501);
    String upload = proxy.s3().createMultipartUpload(b -> b.bucket(bucket).key("mpu")).uploadId();
    assertThat(proxy.s3().getObjectAsBytes(b -> b.bucket(bucket).key("k")).asUtf8String())
        .isEqualTo("kept");
    assertThat(
            proxy
                .s3()
                .getObjectAsBytes(b -> b.bucket(bucket).key("k").versionId(id))
                .asUtf8String())
        .isEqualTo("kept");
  }

  @Test
  void deleteBucket_whenVersionedWithOnlyAMarkerLeft_bucketNotEmpty() {
    String bucket = versionedBucket("not-empty");
    proxy.s3().putObject(b -> b.bucket(bucket).key("k"), RequestBody.fromString("old"));
    proxy.s3().deleteObject(b -> b.bucket(bucket).key("k"));
    S3Exception e = S3FrontEnd.error(() -> proxy.s3().deleteBucket(b -> b.bucket(bucket)));
    assertThat(e.statusCode()).isEqualTo(409);
    assertThat(e.awsErrorDetails().errorCode()).isEqualTo("BucketNotEmpty");
  }

  @Test
  void uploadPartCopy_whenSourceNamesAnOlderVersion_copiesThatVersion() {
    String bucket = versionedBucket("part-copy");
    String old =
        proxy
            .s3()
            .putObject(b -> b.bucket(bucket).key("k"), RequestBody.fromString("older"))
            .versionId();
    proxy.s3().putObject(b -> b.bucket(bucket).key("k"), RequestBody.fromString("newer"));
    String upload = proxy.s3().createMultipartUpload(b -> b.bucket(bucket).key("mpu")).uploadId();
    // Refused with 501 before (naming a version in a versioned bucket).
    var copied =
        proxy
            .s3()
            .uploadPartCopy(
                b ->
                    b.sourceBucket(bucket)
                        .sourceKey("k")
                        .sourceVersionId(old)
                        .destinationBucket(bucket)
                        .destinationKey("mpu")
                        .uploadId(upload)
                        .partNumber(1));
    assertThat(copied.copySourceVersionId()).isEqualTo(old);
    proxy
        .s3()
        .completeMultipartUpload(
            b ->
                b.bucket(bucket)
                    .key("mpu")
                    .uploadId(upload)
                    .multipartUpload(
                        m ->
                            m.parts(
                                software.amazon.awssdk.services.s3.model.CompletedPart.builder()
                                    .partNumber(1)
                                    .eTag(copied.copyPartResult().eTag())
                                    .build())));
    assertThat(proxy.s3().getObjectAsBytes(b -> b.bucket(bucket).key("mpu")).asUtf8String())
        .isEqualTo("older");
  }
}
