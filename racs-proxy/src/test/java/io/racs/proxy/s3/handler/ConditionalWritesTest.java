package io.racs.proxy.s3.handler;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.core.sync.RequestBody;
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
  @RegisterExtension static final S3FrontEnd proxy = S3FrontEnd.withBucket(BUCKET);

  /** A one-part upload of {@code text}, ready to complete; returns its id and part ETag. */
  private static String[] upload(String key, String text) {
    String uploadId = proxy.s3().createMultipartUpload(b -> b.bucket(BUCKET).key(key)).uploadId();
    String etag =
        proxy
            .s3()
            .uploadPart(
                b -> b.bucket(BUCKET).key(key).uploadId(uploadId).partNumber(1),
                RequestBody.fromString(text))
            .eTag();
    return new String[] {uploadId, etag};
  }

  private static CompleteMultipartUploadResponse complete(
      String key, String[] upload, String ifMatch, String ifNoneMatch) {
    return proxy
        .s3()
        .completeMultipartUpload(
            b ->
                b.bucket(BUCKET)
                    .key(key)
                    .uploadId(upload[0])
                    .ifMatch(ifMatch)
                    .ifNoneMatch(ifNoneMatch)
                    .multipartUpload(
                        m ->
                            m.parts(
                                CompletedPart.builder().partNumber(1).eTag(upload[1]).build())));
  }

  private static void assertError(S3Exception e, int status, String code) {
    assertThat(e.statusCode()).isEqualTo(status);
    assertThat(e.awsErrorDetails().errorCode()).isEqualTo(code);
  }

  @Test
  void completeMultipartUpload_ifNoneMatchStarWhenKeyExists_preconditionFailedAndKeyKept() {
    proxy.put("mp-exists", "first");
    String[] upload = upload("mp-exists", "second");
    assertError(
        S3FrontEnd.error(() -> complete("mp-exists", upload, null, "*")),
        412,
        "PreconditionFailed");
    assertThat(proxy.get("mp-exists")).isEqualTo("first");
    // The upload is untouched: completing it without the condition still works.
    complete("mp-exists", upload, null, null);
    assertThat(proxy.get("mp-exists")).isEqualTo("second");
  }

  @Test
  void completeMultipartUpload_ifNoneMatchStarWhenKeyMissing_completes() {
    complete("mp-new", upload("mp-new", "new"), null, "*");
    assertThat(proxy.get("mp-new")).isEqualTo("new");
  }

  @Test
  void completeMultipartUpload_ifMatch_completesOnlyOverTheNamedVersion() {
    String etag = proxy.put("mp-match", "first");
    assertError(
        S3FrontEnd.error(
            () -> complete("mp-match", upload("mp-match", "x"), "\"0123456789abcdef\"", null)),
        412,
        "PreconditionFailed");
    assertThat(proxy.get("mp-match")).isEqualTo("first");
    complete("mp-match", upload("mp-match", "second"), etag, null);
    assertThat(proxy.get("mp-match")).isEqualTo("second");
  }

  @Test
  void completeMultipartUpload_ifMatchWhenKeyMissing_noSuchKey() {
    assertError(
        S3FrontEnd.error(() -> complete("mp-missing", upload("mp-missing", "x"), "*", null)),
        404,
        "NoSuchKey");
    assertThat(
            S3FrontEnd.error(() -> proxy.s3().headObject(b -> b.bucket(BUCKET).key("mp-missing")))
                .statusCode())
        .isEqualTo(404);
  }

  @Test
  void deleteObject_ifMatchOtherEtag_preconditionFailedAndKeyKept() {
    proxy.put("del-other", "kept");
    assertError(
        S3FrontEnd.error(
            () ->
                proxy
                    .s3()
                    .deleteObject(
                        b -> b.bucket(BUCKET).key("del-other").ifMatch("\"0123456789abcdef\""))),
        412,
        "PreconditionFailed");
    assertThat(proxy.get("del-other")).isEqualTo("kept");
  }

  @Test
  void deleteObject_ifMatchCurrentEtagOrStar_deletes() {
    String etag = proxy.put("del-match", "gone");
    proxy.s3().deleteObject(b -> b.bucket(BUCKET).key("del-match").ifMatch(etag));
    assertError(S3FrontEnd.error(() -> proxy.get("del-match")), 404, "NoSuchKey");
    proxy.put("del-star", "gone");
    proxy.s3().deleteObject(b -> b.bucket(BUCKET).key("del-star").ifMatch("*"));
    assertError(S3FrontEnd.error(() -> proxy.get("del-star")), 404, "NoSuchKey");
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
    String etag = proxy.put("batch-match", "gone");
    proxy.put("batch-other", "kept");
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
                                        .key("batch-match")
                                        .eTag(etag)
                                        .build(),
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
    assertThat(proxy.get("batch-other")).isEqualTo("kept");
    assertError(S3FrontEnd.error(() -> proxy.get("batch-match")), 404, "NoSuchKey");
  }

  @Test
  void deleteObject_withDirectoryBucketCondition_notImplementedAndKeyKept() {
    proxy.put("del-size", "kept");
    assertError(
        S3FrontEnd.error(
            () -> proxy.s3().deleteObject(b -> b.bucket(BUCKET).key("del-size").ifMatchSize(4L))),
        501,
        "NotImplemented");
    assertThat(proxy.get("del-size")).isEqualTo("kept");
  }
}
