package io.racs.proxy.s3.handler;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.BucketVersioningStatus;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.DeleteObjectsResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.ObjectLockLegalHoldStatus;
import software.amazon.awssdk.services.s3.model.ObjectLockMode;
import software.amazon.awssdk.services.s3.model.ObjectLockRetentionMode;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Proves S3 Object Lock through the S3 front end with the AWS SDK v2, with the status codes and
 * error codes of the ceph s3-tests: a bucket created with object lock is versioned for good;
 * default retention is validated and applied; per-version retention and legal hold are set by
 * headers and by their sub-resources; a locked version's DELETE by id is 403 AccessDenied (per key
 * in DeleteObjects) while a plain DELETE writes a marker; COMPLIANCE can be neither shortened nor
 * changed, GOVERNANCE only with the bypass header.
 */
class ObjectLockTest {
  @RegisterExtension static final S3FrontEnd proxy = S3FrontEnd.withBucket("plain");

  private static final Instant FAR = Instant.parse("2140-01-01T00:00:00Z");

  private static String lockedBucket(String name) {
    proxy.s3().createBucket(b -> b.bucket(name).objectLockEnabledForBucket(true));
    return name;
  }

  private static String put(String bucket, String key) {
    return proxy
        .s3()
        .putObject(b -> b.bucket(bucket).key(key), RequestBody.fromString("abc"))
        .versionId();
  }

  private static S3FrontEnd.Raw putLockConfiguration(String bucket, String rule) throws Exception {
    String xml =
        "<ObjectLockConfiguration><ObjectLockEnabled>Enabled</ObjectLockEnabled>"
            + rule
            + "</ObjectLockConfiguration>";
    return proxy.send(
        "PUT", "/" + bucket, "object-lock", Map.of(), xml.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void createBucket_withObjectLock_versioningEnabledAndNotSuspendable() {
    String bucket = lockedBucket("lock-versioning");
    assertThat(proxy.s3().getBucketVersioning(b -> b.bucket(bucket)).status())
        .isEqualTo(BucketVersioningStatus.ENABLED);
    S3Exception e =
        S3FrontEnd.error(
            () ->
                proxy
                    .s3()
                    .putBucketVersioning(
                        b ->
                            b.bucket(bucket)
                                .versioningConfiguration(
                                    c -> c.status(BucketVersioningStatus.SUSPENDED))));
    assertThat(e.statusCode()).isEqualTo(409);
    assertThat(e.awsErrorDetails().errorCode()).isEqualTo("InvalidBucketState");
  }

  @Test
  void putObjectLockConfiguration_whenValid_getReturnsIt() {
    String bucket = lockedBucket("lock-config");
    proxy
        .s3()
        .putObjectLockConfiguration(
            b ->
                b.bucket(bucket)
                    .objectLockConfiguration(
                        c ->
                            c.objectLockEnabled("Enabled")
                                .rule(
                                    r ->
                                        r.defaultRetention(
                                            d ->
                                                d.mode(ObjectLockRetentionMode.GOVERNANCE)
                                                    .days(1)))));
    var got =
        proxy.s3().getObjectLockConfiguration(b -> b.bucket(bucket)).objectLockConfiguration();
    assertThat(got.objectLockEnabledAsString()).isEqualTo("Enabled");
    assertThat(got.rule().defaultRetention().mode()).isEqualTo(ObjectLockRetentionMode.GOVERNANCE);
    assertThat(got.rule().defaultRetention().days()).isEqualTo(1);

    // The default applies to a version written without lock headers.
    String key = "defaulted";
    put(bucket, key);
    HeadObjectResponse head = proxy.s3().headObject(b -> b.bucket(bucket).key(key));
    assertThat(head.objectLockMode()).isEqualTo(ObjectLockMode.GOVERNANCE);
    assertThat(head.objectLockRetainUntilDate())
        .isBetween(
            Instant.now().plus(23, ChronoUnit.HOURS), Instant.now().plus(25, ChronoUnit.HOURS));
  }

  @Test
  void putObjectLockConfiguration_whenInvalid_answersAsS3() throws Exception {
    String bucket = lockedBucket("lock-invalid");
    String both =
        "<Rule><DefaultRetention><Mode>GOVERNANCE</Mode><Days>1</Days><Years>1</Years>"
            + "</DefaultRetention></Rule>";
    assertThat(putLockConfiguration(bucket, both).code()).isEqualTo("MalformedXML");
    String zero =
        "<Rule><DefaultRetention><Mode>GOVERNANCE</Mode><Days>0</Days></DefaultRetention></Rule>";
    S3FrontEnd.Raw raw = putLockConfiguration(bucket, zero);
    assertThat(raw.status()).isEqualTo(400);
    assertThat(raw.code()).isEqualTo("InvalidRetentionPeriod");
    String negative =
        "<Rule><DefaultRetention><Mode>GOVERNANCE</Mode><Years>-1</Years></DefaultRetention></Rule>";
    assertThat(putLockConfiguration(bucket, negative).code()).isEqualTo("InvalidRetentionPeriod");
    String lower =
        "<Rule><DefaultRetention><Mode>governance</Mode><Years>1</Years></DefaultRetention></Rule>";
    assertThat(putLockConfiguration(bucket, lower).code()).isEqualTo("MalformedXML");
    S3FrontEnd.Raw disabled =
        proxy.send(
            "PUT",
            "/" + bucket,
            "object-lock",
            Map.of(),
            "<ObjectLockConfiguration><ObjectLockEnabled>Disabled</ObjectLockEnabled></ObjectLockConfiguration>"
                .getBytes(StandardCharsets.UTF_8));
    assertThat(disabled.code()).isEqualTo("MalformedXML");
  }

  @Test
  void objectLock_onBucketWithoutIt_refusedAsS3Does() throws Exception {
    String rule =
        "<Rule><DefaultRetention><Mode>GOVERNANCE</Mode><Days>1</Days></DefaultRetention></Rule>";
    S3FrontEnd.Raw put = putLockConfiguration("plain", rule);
    assertThat(put.status()).isEqualTo(409);
    assertThat(put.code()).isEqualTo("InvalidBucketState");
    S3Exception get =
        S3FrontEnd.error(() -> proxy.s3().getObjectLockConfiguration(b -> b.bucket("plain")));
    assertThat(get.statusCode()).isEqualTo(404);
    assertThat(get.awsErrorDetails().errorCode()).isEqualTo("ObjectLockConfigurationNotFoundError");
    put("plain", "k");
    S3Exception retention =
        S3FrontEnd.error(
            () ->
                proxy
                    .s3()
                    .putObjectRetention(
                        b ->
                            b.bucket("plain")
                                .key("k")
                                .retention(
                                    r ->
                                        r.mode(ObjectLockRetentionMode.GOVERNANCE)
                                            .retainUntilDate(FAR))));
    assertThat(retention.statusCode()).isEqualTo(400);
    assertThat(retention.awsErrorDetails().errorCode()).isEqualTo("InvalidRequest");
    S3Exception hold =
        S3FrontEnd.error(() -> proxy.s3().getObjectLegalHold(b -> b.bucket("plain").key("k")));
    assertThat(hold.awsErrorDetails().errorCode()).isEqualTo("InvalidRequest");
  }

  @Test
  void putObjectLockConfiguration_afterVersioningEnabled_turnsLockOn() throws Exception {
    proxy.s3().createBucket(b -> b.bucket("lock-later"));
    String rule =
        "<Rule><DefaultRetention><Mode>GOVERNANCE</Mode><Days>1</Days></DefaultRetention></Rule>";
    assertThat(putLockConfiguration("lock-later", rule).code()).isEqualTo("InvalidBucketState");
    proxy
        .s3()
        .putBucketVersioning(
            b ->
                b.bucket("lock-later")
                    .versioningConfiguration(c -> c.status(BucketVersioningStatus.ENABLED)));
    assertThat(putLockConfiguration("lock-later", rule).status()).isEqualTo(200);
  }

  @Test
  void deleteVersion_underGovernance_deniedUnlessBypassed_plainDeleteWritesMarker() {
    String bucket = lockedBucket("lock-governance");
    String v = put(bucket, "k");
    proxy
        .s3()
        .putObjectRetention(
            b ->
                b.bucket(bucket)
                    .key("k")
                    .retention(
                        r -> r.mode(ObjectLockRetentionMode.GOVERNANCE).retainUntilDate(FAR)));
    assertThat(
            proxy
                .s3()
                .getObjectRetention(b -> b.bucket(bucket).key("k"))
                .retention()
                .retainUntilDate())
        .isEqualTo(FAR);
    var marker = proxy.s3().deleteObject(b -> b.bucket(bucket).key("k"));
    assertThat(marker.deleteMarker()).isTrue();
    S3Exception denied =
        S3FrontEnd.error(
            () -> proxy.s3().deleteObject(b -> b.bucket(bucket).key("k").versionId(v)));
    assertThat(denied.statusCode()).isEqualTo(403);
    assertThat(denied.awsErrorDetails().errorCode()).isEqualTo("AccessDenied");
    // Shortening needs the bypass too.
    S3Exception shorter =
        S3FrontEnd.error(
            () ->
                proxy
                    .s3()
                    .putObjectRetention(
                        b ->
                            b.bucket(bucket)
                                .key("k")
                                .versionId(v)
                                .retention(
                                    r ->
                                        r.mode(ObjectLockRetentionMode.GOVERNANCE)
                                            .retainUntilDate(FAR.minusSeconds(86_400)))));
    assertThat(shorter.awsErrorDetails().errorCode()).isEqualTo("AccessDenied");
    assertThat(
            proxy
                .s3()
                .deleteObject(
                    b -> b.bucket(bucket).key("k").versionId(v).bypassGovernanceRetention(true))
                .sdkHttpResponse()
                .statusCode())
        .isEqualTo(204);
  }

  @Test
  void compliance_cannotBeShortenedNorChanged_evenWithBypass() {
    String bucket = lockedBucket("lock-compliance");
    Instant until = Instant.now().plus(1, ChronoUnit.DAYS).truncatedTo(ChronoUnit.SECONDS);
    String v =
        proxy
            .s3()
            .putObject(
                b ->
                    b.bucket(bucket)
                        .key("k")
                        .objectLockMode(ObjectLockMode.COMPLIANCE)
                        .objectLockRetainUntilDate(until),
                RequestBody.fromString("abc"))
            .versionId();
    S3Exception change =
        S3FrontEnd.error(
            () ->
                proxy
                    .s3()
                    .putObjectRetention(
                        b ->
                            b.bucket(bucket)
                                .key("k")
                                .bypassGovernanceRetention(true)
                                .retention(
                                    r ->
                                        r.mode(ObjectLockRetentionMode.GOVERNANCE)
                                            .retainUntilDate(until))));
    assertThat(change.statusCode()).isEqualTo(403);
    S3Exception delete =
        S3FrontEnd.error(
            () ->
                proxy
                    .s3()
                    .deleteObject(
                        b ->
                            b.bucket(bucket)
                                .key("k")
                                .versionId(v)
                                .bypassGovernanceRetention(true)));
    assertThat(delete.awsErrorDetails().errorCode()).isEqualTo("AccessDenied");
    // Lengthening is allowed.
    proxy
        .s3()
        .putObjectRetention(
            b ->
                b.bucket(bucket)
                    .key("k")
                    .retention(
                        r ->
                            r.mode(ObjectLockRetentionMode.COMPLIANCE)
                                .retainUntilDate(until.plusSeconds(60))));
    assertThat(proxy.s3().headObject(b -> b.bucket(bucket).key("k")).objectLockRetainUntilDate())
        .isEqualTo(until.plusSeconds(60));
  }

  @Test
  void legalHold_keepsTheVersionUntilOff_alsoFromMultipartHeaders() {
    String bucket = lockedBucket("lock-hold");
    String upload =
        proxy
            .s3()
            .createMultipartUpload(
                b ->
                    b.bucket(bucket)
                        .key("k")
                        .objectLockLegalHoldStatus(ObjectLockLegalHoldStatus.ON))
            .uploadId();
    String etag =
        proxy
            .s3()
            .uploadPart(
                b -> b.bucket(bucket).key("k").uploadId(upload).partNumber(1),
                RequestBody.fromString("abc"))
            .eTag();
    String v =
        proxy
            .s3()
            .completeMultipartUpload(
                b ->
                    b.bucket(bucket)
                        .key("k")
                        .uploadId(upload)
                        .multipartUpload(
                            m -> m.parts(CompletedPart.builder().partNumber(1).eTag(etag).build())))
            .versionId();
    assertThat(proxy.s3().getObjectLegalHold(b -> b.bucket(bucket).key("k")).legalHold().status())
        .isEqualTo(ObjectLockLegalHoldStatus.ON);
    S3Exception denied =
        S3FrontEnd.error(
            () -> proxy.s3().deleteObject(b -> b.bucket(bucket).key("k").versionId(v)));
    assertThat(denied.statusCode()).isEqualTo(403);
    proxy
        .s3()
        .putObjectLegalHold(
            b -> b.bucket(bucket).key("k").legalHold(h -> h.status(ObjectLockLegalHoldStatus.OFF)));
    assertThat(
            proxy
                .s3()
                .deleteObject(b -> b.bucket(bucket).key("k").versionId(v))
                .sdkHttpResponse()
                .statusCode())
        .isEqualTo(204);
  }

  @Test
  void deleteObjects_lockedVersion_isAnAccessDeniedEntry() {
    String bucket = lockedBucket("lock-multi");
    String v1 = put(bucket, "k1");
    String v2 = put(bucket, "k2");
    proxy
        .s3()
        .putObjectRetention(
            b ->
                b.bucket(bucket)
                    .key("k1")
                    .retention(
                        r -> r.mode(ObjectLockRetentionMode.GOVERNANCE).retainUntilDate(FAR)));
    DeleteObjectsResponse response =
        proxy
            .s3()
            .deleteObjects(
                b ->
                    b.bucket(bucket)
                        .delete(
                            d ->
                                d.objects(
                                    List.of(
                                        ObjectIdentifier.builder().key("k1").versionId(v1).build(),
                                        ObjectIdentifier.builder()
                                            .key("k2")
                                            .versionId(v2)
                                            .build()))));
    assertThat(response.deleted())
        .singleElement()
        .satisfies(d -> assertThat(d.key()).isEqualTo("k2"));
    assertThat(response.errors())
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.key()).isEqualTo("k1");
              assertThat(e.versionId()).isEqualTo(v1);
              assertThat(e.code()).isEqualTo("AccessDenied");
            });
  }

  @Test
  void putObject_lockHeaders_validatedAndReturnedOnHead() throws Exception {
    String bucket = lockedBucket("lock-headers");
    proxy
        .s3()
        .putObject(
            b ->
                b.bucket(bucket)
                    .key("k")
                    .objectLockMode(ObjectLockMode.GOVERNANCE)
                    .objectLockRetainUntilDate(FAR)
                    .objectLockLegalHoldStatus(ObjectLockLegalHoldStatus.ON),
            RequestBody.fromString("abc"));
    HeadObjectResponse head = proxy.s3().headObject(b -> b.bucket(bucket).key("k"));
    assertThat(head.objectLockMode()).isEqualTo(ObjectLockMode.GOVERNANCE);
    assertThat(head.objectLockRetainUntilDate()).isEqualTo(FAR);
    assertThat(head.objectLockLegalHoldStatus()).isEqualTo(ObjectLockLegalHoldStatus.ON);
    S3FrontEnd.Raw half =
        proxy.send(
            "PUT",
            "/" + bucket + "/half",
            "",
            Map.of("x-amz-object-lock-mode", "GOVERNANCE"),
            new byte[0]);
    assertThat(half.status()).isEqualTo(400);
    assertThat(half.code()).isEqualTo("InvalidArgument");
    S3FrontEnd.Raw past =
        proxy.send(
            "PUT",
            "/" + bucket + "/past",
            "",
            Map.of(
                "x-amz-object-lock-mode",
                "GOVERNANCE",
                "x-amz-object-lock-retain-until-date",
                "2001-01-01T00:00:00Z"),
            new byte[0]);
    assertThat(past.code()).isEqualTo("InvalidArgument");
    S3FrontEnd.Raw plain =
        proxy.send(
            "PUT",
            "/plain/locked",
            "",
            Map.of(
                "x-amz-object-lock-mode",
                "GOVERNANCE",
                "x-amz-object-lock-retain-until-date",
                "2130-01-01T00:00:00Z"),
            new byte[0]);
    assertThat(plain.code()).isEqualTo("InvalidRequest");
  }

  @Test
  void copyObject_withLockHeaders_locksTheCopy_notTheSource() {
    String bucket = lockedBucket("lock-copy");
    put(bucket, "src");
    String copy =
        proxy
            .s3()
            .copyObject(
                b ->
                    b.sourceBucket(bucket)
                        .sourceKey("src")
                        .destinationBucket(bucket)
                        .destinationKey("dst")
                        .objectLockMode(ObjectLockMode.COMPLIANCE)
                        .objectLockRetainUntilDate(FAR))
            .versionId();
    HeadObjectResponse head = proxy.s3().headObject(b -> b.bucket(bucket).key("dst"));
    assertThat(head.objectLockMode()).isEqualTo(ObjectLockMode.COMPLIANCE);
    assertThat(head.versionId()).isEqualTo(copy);
    assertThat(proxy.s3().headObject(b -> b.bucket(bucket).key("src")).objectLockMode()).isNull();
    S3Exception denied =
        S3FrontEnd.error(
            () ->
                proxy
                    .s3()
                    .deleteObject(
                        b ->
                            b.bucket(bucket)
                                .key("dst")
                                .versionId(copy)
                                .bypassGovernanceRetention(true)));
    assertThat(denied.statusCode()).isEqualTo(403);
  }
}
