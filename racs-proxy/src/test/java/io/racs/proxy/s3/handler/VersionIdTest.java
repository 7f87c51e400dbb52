package io.racs.proxy.s3.handler;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
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
  @RegisterExtension static final S3FrontEnd proxy = S3FrontEnd.withBucket(BUCKET);

  @Test
  void getObject_whenVersionIdUnknown_noSuchVersion() throws Exception {
    proxy.put("get-other", "current");
    S3FrontEnd.Raw raw =
        proxy.send(
            "GET", "/" + BUCKET + "/get-other", "versionId=" + OTHER_VERSION, Map.of(), null);
    assertThat(raw.status()).isEqualTo(404);
    assertThat(raw.code()).isEqualTo("NoSuchVersion");
    assertThat(raw.text()).contains("<VersionId>" + OTHER_VERSION + "</VersionId>");
  }

  @Test
  void headObject_whenVersionIdUnknown_notFound() {
    proxy.put("head-other", "current");
    S3Exception e =
        S3FrontEnd.error(
            () ->
                proxy
                    .s3()
                    .headObject(b -> b.bucket(BUCKET).key("head-other").versionId(OTHER_VERSION)));
    assertThat(e.statusCode()).isEqualTo(404);
  }

  @Test
  void getObject_whenVersionIdEmpty_invalidArgument() throws Exception {
    proxy.put("get-empty", "current");
    S3FrontEnd.Raw raw =
        proxy.send("GET", "/" + BUCKET + "/get-empty", "versionId=", Map.of(), null);
    assertThat(raw.status()).isEqualTo(400);
    assertThat(raw.code()).isEqualTo("InvalidArgument");
  }

  @Test
  void getObject_whenVersionIdNull_servesTheObject() {
    proxy.put("get-null", "current");
    assertThat(
            proxy
                .s3()
                .getObjectAsBytes(b -> b.bucket(BUCKET).key("get-null").versionId("null"))
                .asUtf8String())
        .isEqualTo("current");
    assertThat(
            proxy.s3().headObject(b -> b.bucket(BUCKET).key("get-null").versionId("null")).eTag())
        .isNotEmpty();
  }

  @Test
  void deleteObject_whenVersionIdUnknown_notImplementedAndObjectKept() {
    proxy.put("delete-other", "kept");
    S3Exception e =
        S3FrontEnd.error(
            () ->
                proxy
                    .s3()
                    .deleteObject(
                        b -> b.bucket(BUCKET).key("delete-other").versionId(OTHER_VERSION)));
    assertThat(e.statusCode()).isEqualTo(501);
    assertThat(e.awsErrorDetails().errorCode()).isEqualTo("NotImplemented");
    assertThat(proxy.get("delete-other")).isEqualTo("kept");
  }

  @Test
  void deleteObject_whenVersionIdNull_deletesTheObject() {
    proxy.put("delete-null", "gone");
    proxy.s3().deleteObject(b -> b.bucket(BUCKET).key("delete-null").versionId("null"));
    S3Exception e = S3FrontEnd.error(() -> proxy.get("delete-null"));
    assertThat(e.awsErrorDetails().errorCode()).isEqualTo("NoSuchKey");
  }

  @Test
  void deleteObjects_whenAnEntryNamesAnUnknownVersion_thatEntryRefusedAndKept() {
    proxy.put("batch-other", "kept");
    proxy.put("batch-plain", "gone");
    DeleteObjectsResponse response =
        proxy
            .s3()
            .deleteObjects(
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
    assertThat(proxy.get("batch-other")).isEqualTo("kept");
  }

  @Test
  void copyObject_whenSourceVersionUnknown_noSuchVersion() {
    proxy.put("copy-source", "source");
    S3Exception e =
        S3FrontEnd.error(
            () ->
                proxy
                    .s3()
                    .copyObject(
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
