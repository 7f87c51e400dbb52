package io.racs.proxy.s3.handler;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.DeleteObjectsResponse;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Proves that a request naming a version is answered truthfully by an array without bucket
 * versioning, whose every object has the one version {@code null}: that version is the current
 * object, any other version does not exist (GET and HEAD answer 404 NoSuchVersion), and a delete of
 * a version other than {@code null} is refused (501 NotImplemented) and hides nothing.
 */
class VersionIdTest {
  private static final String BUCKET = "versions";
  private static final String OTHER_VERSION = "3HL4kqtJlcpXroDTDmJ.rmSpXd3dIbrHY";
  private static S3FrontEnd proxy;
  private static S3Client s3;

  @BeforeAll
  static void start() throws Exception {
    proxy = S3FrontEnd.start();
    s3 = proxy.s3();
    s3.createBucket(b -> b.bucket(BUCKET));
  }

  @AfterAll
  static void stop() {
    proxy.close();
  }

  private static void put(String key, String text) {
    s3.putObject(b -> b.bucket(BUCKET).key(key), RequestBody.fromString(text));
  }

  private static String get(String key) {
    return s3.getObjectAsBytes(b -> b.bucket(BUCKET).key(key)).asUtf8String();
  }

  @Test
  void getObject_whenVersionIdUnknown_noSuchVersion() throws Exception {
    put("get-other", "current");
    S3FrontEnd.Raw raw =
        proxy.send(
            "GET", "/" + BUCKET + "/get-other", "versionId=" + OTHER_VERSION, Map.of(), null);
    assertThat(raw.status()).isEqualTo(404);
    assertThat(raw.code()).isEqualTo("NoSuchVersion");
    assertThat(raw.text()).contains("<VersionId>" + OTHER_VERSION + "</VersionId>");
  }

  @Test
  void headObject_whenVersionIdUnknown_notFound() {
    put("head-other", "current");
    S3Exception e =
        S3FrontEnd.error(
            () -> s3.headObject(b -> b.bucket(BUCKET).key("head-other").versionId(OTHER_VERSION)));
    assertThat(e.statusCode()).isEqualTo(404);
  }

  @Test
  void getObject_whenVersionIdEmpty_invalidArgument() throws Exception {
    put("get-empty", "current");
    S3FrontEnd.Raw raw =
        proxy.send("GET", "/" + BUCKET + "/get-empty", "versionId=", Map.of(), null);
    assertThat(raw.status()).isEqualTo(400);
    assertThat(raw.code()).isEqualTo("InvalidArgument");
  }

  @Test
  void getObject_whenVersionIdNull_servesTheObject() {
    put("get-null", "current");
    assertThat(
            s3.getObjectAsBytes(b -> b.bucket(BUCKET).key("get-null").versionId("null"))
                .asUtf8String())
        .isEqualTo("current");
    assertThat(s3.headObject(b -> b.bucket(BUCKET).key("get-null").versionId("null")).eTag())
        .isNotEmpty();
  }

  @Test
  void deleteObject_whenVersionIdUnknown_notImplementedAndObjectKept() {
    put("delete-other", "kept");
    S3Exception e =
        S3FrontEnd.error(
            () ->
                s3.deleteObject(
                    b -> b.bucket(BUCKET).key("delete-other").versionId(OTHER_VERSION)));
    assertThat(e.statusCode()).isEqualTo(501);
    assertThat(e.awsErrorDetails().errorCode()).isEqualTo("NotImplemented");
    assertThat(get("delete-other")).isEqualTo("kept");
  }

  @Test
  void deleteObject_whenVersionIdNull_deletesTheObject() {
    put("delete-null", "gone");
    s3.deleteObject(b -> b.bucket(BUCKET).key("delete-null").versionId("null"));
    S3Exception e = S3FrontEnd.error(() -> get("delete-null"));
    assertThat(e.awsErrorDetails().errorCode()).isEqualTo("NoSuchKey");
  }

  @Test
  void deleteObjects_whenAnEntryNamesAnUnknownVersion_thatEntryRefusedAndKept() {
    put("batch-other", "kept");
    put("batch-plain", "gone");
    DeleteObjectsResponse response =
        s3.deleteObjects(
            b ->
                b.bucket(BUCKET)
                    .delete(
                        d ->
                            d.objects(
                                ObjectIdentifier.builder()
                                    .key("batch-other")
                                    .versionId(OTHER_VERSION)
                                    .build(),
                                ObjectIdentifier.builder().key("batch-plain").build())));
    assertThat(response.deleted()).extracting(d -> d.key()).containsExactly("batch-plain");
    assertThat(response.errors()).hasSize(1);
    assertThat(response.errors().get(0).key()).isEqualTo("batch-other");
    assertThat(response.errors().get(0).versionId()).isEqualTo(OTHER_VERSION);
    assertThat(response.errors().get(0).code()).isEqualTo("NotImplemented");
    assertThat(get("batch-other")).isEqualTo("kept");
  }

  @Test
  void copyObject_whenSourceVersionUnknown_noSuchVersion() {
    put("copy-source", "source");
    S3Exception e =
        S3FrontEnd.error(
            () ->
                s3.copyObject(
                    b ->
                        b.sourceBucket(BUCKET)
                            .sourceKey("copy-source")
                            .sourceVersionId(OTHER_VERSION)
                            .destinationBucket(BUCKET)
                            .destinationKey("copy-target")));
    assertThat(e.statusCode()).isEqualTo(404);
    assertThat(e.awsErrorDetails().errorCode()).isEqualTo("NoSuchVersion");
  }
}
