package io.racs.proxy.s3.handler;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadResponse;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.DeleteObjectsResponse;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Proves S3's conditional writes on CompleteMultipartUpload ({@code If-None-Match: *}, {@code
 * If-Match}) and conditional deletes on DeleteObject ({@code If-Match}) and DeleteObjects ({@code
 * <ETag>}): a condition that does not hold is 412 PreconditionFailed (404 NoSuchKey for {@code
 * If-Match} on a missing key, as S3 answers for general purpose buckets) and changes nothing.
 */
class ConditionalWritesTest {
  private static final String BUCKET = "conditional";
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

  private static String put(String key, String text) {
    return s3.putObject(b -> b.bucket(BUCKET).key(key), RequestBody.fromString(text)).eTag();
  }

  private static String get(String key) {
    return s3.getObjectAsBytes(b -> b.bucket(BUCKET).key(key)).asUtf8String();
  }

  /** A one-part upload of {@code text}, ready to complete; returns its id and part ETag. */
  private static String[] upload(String key, String text) {
    String uploadId = s3.createMultipartUpload(b -> b.bucket(BUCKET).key(key)).uploadId();
    String etag =
        s3.uploadPart(
                b -> b.bucket(BUCKET).key(key).uploadId(uploadId).partNumber(1),
                RequestBody.fromString(text))
            .eTag();
    return new String[] {uploadId, etag};
  }

  private static CompleteMultipartUploadResponse complete(
      String key, String[] upload, String ifMatch, String ifNoneMatch) {
    return s3.completeMultipartUpload(
        b ->
            b.bucket(BUCKET)
                .key(key)
                .uploadId(upload[0])
                .ifMatch(ifMatch)
                .ifNoneMatch(ifNoneMatch)
                .multipartUpload(
                    m -> m.parts(CompletedPart.builder().partNumber(1).eTag(upload[1]).build())));
  }

  private static void assertError(S3Exception e, int status, String code) {
    assertThat(e.statusCode()).isEqualTo(status);
    assertThat(e.awsErrorDetails().errorCode()).isEqualTo(code);
  }

  @Test
  void completeMultipartUpload_ifNoneMatchStarWhenKeyExists_preconditionFailedAndKeyKept() {
    put("mp-exists", "first");
    String[] upload = upload("mp-exists", "second");
    assertError(
        S3FrontEnd.error(() -> complete("mp-exists", upload, null, "*")),
        412,
        "PreconditionFailed");
    assertThat(get("mp-exists")).isEqualTo("first");
    // The upload is untouched: completing it without the condition still works.
    complete("mp-exists", upload, null, null);
    assertThat(get("mp-exists")).isEqualTo("second");
  }

  @Test
  void completeMultipartUpload_ifNoneMatchStarWhenKeyMissing_completes() {
    complete("mp-new", upload("mp-new", "new"), null, "*");
    assertThat(get("mp-new")).isEqualTo("new");
  }

  @Test
  void completeMultipartUpload_ifMatch_completesOnlyOverTheNamedVersion() {
    String etag = put("mp-match", "first");
    assertError(
        S3FrontEnd.error(
            () -> complete("mp-match", upload("mp-match", "x"), "\"0123456789abcdef\"", null)),
        412,
        "PreconditionFailed");
    assertThat(get("mp-match")).isEqualTo("first");
    complete("mp-match", upload("mp-match", "second"), etag, null);
    assertThat(get("mp-match")).isEqualTo("second");
  }

  @Test
  void completeMultipartUpload_ifMatchWhenKeyMissing_noSuchKey() {
    assertError(
        S3FrontEnd.error(() -> complete("mp-missing", upload("mp-missing", "x"), "*", null)),
        404,
        "NoSuchKey");
    assertThat(
            S3FrontEnd.error(() -> s3.headObject(b -> b.bucket(BUCKET).key("mp-missing")))
                .statusCode())
        .isEqualTo(404);
  }

  @Test
  void deleteObject_ifMatchOtherEtag_preconditionFailedAndKeyKept() {
    put("del-other", "kept");
    assertError(
        S3FrontEnd.error(
            () ->
                s3.deleteObject(
                    b -> b.bucket(BUCKET).key("del-other").ifMatch("\"0123456789abcdef\""))),
        412,
        "PreconditionFailed");
    assertThat(get("del-other")).isEqualTo("kept");
  }

  @Test
  void deleteObject_ifMatchCurrentEtagOrStar_deletes() {
    String etag = put("del-match", "gone");
    s3.deleteObject(b -> b.bucket(BUCKET).key("del-match").ifMatch(etag));
    assertError(S3FrontEnd.error(() -> get("del-match")), 404, "NoSuchKey");
    put("del-star", "gone");
    s3.deleteObject(b -> b.bucket(BUCKET).key("del-star").ifMatch("*"));
    assertError(S3FrontEnd.error(() -> get("del-star")), 404, "NoSuchKey");
  }

  @Test
  void deleteObject_ifMatchWhenKeyMissing_noSuchKey() throws Exception {
    S3FrontEnd.Raw raw =
        proxy.send("DELETE", "/" + BUCKET + "/del-missing", "", Map.of("If-Match", "*"), null);
    assertThat(raw.status()).isEqualTo(404);
    assertThat(raw.code()).isEqualTo("NoSuchKey");
  }

  @Test
  void deleteObjects_withEtag_deletesOnlyWhereItMatches() {
    String etag = put("batch-match", "gone");
    put("batch-other", "kept");
    DeleteObjectsResponse response =
        s3.deleteObjects(
            b ->
                b.bucket(BUCKET)
                    .delete(
                        d ->
                            d.objects(
                                ObjectIdentifier.builder().key("batch-match").eTag(etag).build(),
                                ObjectIdentifier.builder()
                                    .key("batch-other")
                                    .eTag("\"0123456789abcdef\"")
                                    .build())));
    assertThat(response.deleted()).extracting(d -> d.key()).containsExactly("batch-match");
    assertThat(response.errors())
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.key()).isEqualTo("batch-other");
              assertThat(e.code()).isEqualTo("PreconditionFailed");
            });
    assertThat(get("batch-other")).isEqualTo("kept");
    assertError(S3FrontEnd.error(() -> get("batch-match")), 404, "NoSuchKey");
  }

  @Test
  void deleteObject_withDirectoryBucketCondition_notImplementedAndKeyKept() {
    put("del-size", "kept");
    assertError(
        S3FrontEnd.error(
            () -> s3.deleteObject(b -> b.bucket(BUCKET).key("del-size").ifMatchSize(4L))),
        501,
        "NotImplemented");
    assertThat(get("del-size")).isEqualTo("kept");
  }
}
