package io.racs.proxy.s3.handler;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.format.DateTimeFormatter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.MetadataDirective;

/**
 * Proves that the standard object headers S3 stores with an object (Cache-Control,
 * Content-Disposition, Content-Encoding, Content-Language, Expires) are kept by PutObject,
 * CopyObject (copied with the COPY directive, replaced with REPLACE) and multipart uploads (from
 * CreateMultipartUpload), and returned by GET and HEAD. (Tags are proven by ObjectTaggingTest.)
 */
class ObjectHeadersTest {
  private static final String BUCKET = "headers";
  private static final Instant EXPIRES = Instant.parse("2031-05-06T07:08:09Z");
  @RegisterExtension static final S3FrontEnd proxy = S3FrontEnd.withBucket(BUCKET);

  private static void putWithHeaders(String key) {
    proxy
        .s3()
        .putObject(
            b ->
                b.bucket(BUCKET)
                    .key(key)
                    .contentType("text/plain")
                    .cacheControl("max-age=3600, public")
                    .contentDisposition("attachment; filename=\"report.txt\"")
                    .contentEncoding("identity")
                    .contentLanguage("de-CH")
                    .expires(EXPIRES),
            RequestBody.fromString("body of " + key));
  }

  private static Instant httpDate(String value) {
    assertThat(value).as("Expires").isNotNull();
    return Instant.from(DateTimeFormatter.RFC_1123_DATE_TIME.parse(value));
  }

  private static void assertStoredHeaders(HeadObjectResponse head) {
    assertThat(head.cacheControl()).isEqualTo("max-age=3600, public");
    assertThat(head.contentDisposition()).isEqualTo("attachment; filename=\"report.txt\"");
    assertThat(head.contentEncoding()).isEqualTo("identity");
    assertThat(head.contentLanguage()).isEqualTo("de-CH");
    assertThat(httpDate(head.expiresString())).isEqualTo(EXPIRES);
    assertThat(head.contentType()).isEqualTo("text/plain");
  }

  @Test
  void putObject_withContentHeaders_returnedByGetAndHead() {
    putWithHeaders("put");
    assertStoredHeaders(proxy.s3().headObject(b -> b.bucket(BUCKET).key("put")));
    GetObjectResponse get =
        proxy.s3().getObjectAsBytes(b -> b.bucket(BUCKET).key("put")).response();
    assertThat(get.cacheControl()).isEqualTo("max-age=3600, public");
    assertThat(get.contentDisposition()).isEqualTo("attachment; filename=\"report.txt\"");
    assertThat(get.contentEncoding()).isEqualTo("identity");
    assertThat(get.contentLanguage()).isEqualTo("de-CH");
    assertThat(httpDate(get.expiresString())).isEqualTo(EXPIRES);
  }

  @Test
  void putObject_withContentEncodingAndAwsChunkedBody_storesOnlyTheClientsEncoding() {
    // With a trailing checksum the SDK frames the body as aws-chunked and says so in
    // Content-Encoding beside the client's own encoding; S3 stores only the latter.
    proxy
        .s3()
        .putObject(
            b ->
                b.bucket(BUCKET)
                    .key("encoded")
                    .contentEncoding("gzip")
                    .checksumAlgorithm(ChecksumAlgorithm.CRC32),
            RequestBody.fromBytes(new byte[] {1, 2, 3}));
    assertThat(proxy.s3().headObject(b -> b.bucket(BUCKET).key("encoded")).contentEncoding())
        .isEqualTo("gzip");
  }

  @Test
  void copyObject_withCopyDirective_copiesContentHeaders() {
    putWithHeaders("copy-source");
    proxy
        .s3()
        .copyObject(
            b ->
                b.sourceBucket(BUCKET)
                    .sourceKey("copy-source")
                    .destinationBucket(BUCKET)
                    .destinationKey("copy-target"));
    assertStoredHeaders(proxy.s3().headObject(b -> b.bucket(BUCKET).key("copy-target")));
  }

  @Test
  void copyObject_withReplaceDirective_replacesContentHeaders() {
    putWithHeaders("replace-source");
    proxy
        .s3()
        .copyObject(
            b ->
                b.sourceBucket(BUCKET)
                    .sourceKey("replace-source")
                    .destinationBucket(BUCKET)
                    .destinationKey("replace-target")
                    .metadataDirective(MetadataDirective.REPLACE)
                    .contentType("text/html")
                    .cacheControl("no-store"));
    HeadObjectResponse head = proxy.s3().headObject(b -> b.bucket(BUCKET).key("replace-target"));
    assertThat(head.cacheControl()).isEqualTo("no-store");
    assertThat(head.contentType()).isEqualTo("text/html");
    assertThat(head.contentDisposition()).isNull();
    assertThat(head.contentEncoding()).isNull();
    assertThat(head.contentLanguage()).isNull();
    assertThat(head.expiresString()).isNull();
  }

  @Test
  void completeMultipartUpload_keepsContentHeadersOfCreate() {
    String uploadId =
        proxy
            .s3()
            .createMultipartUpload(
                b ->
                    b.bucket(BUCKET)
                        .key("multipart")
                        .contentType("text/plain")
                        .cacheControl("max-age=3600, public")
                        .contentDisposition("attachment; filename=\"report.txt\"")
                        .contentEncoding("identity")
                        .contentLanguage("de-CH")
                        .expires(EXPIRES))
            .uploadId();
    String etag =
        proxy
            .s3()
            .uploadPart(
                b -> b.bucket(BUCKET).key("multipart").uploadId(uploadId).partNumber(1),
                RequestBody.fromString("only part"))
            .eTag();
    proxy
        .s3()
        .completeMultipartUpload(
            b ->
                b.bucket(BUCKET)
                    .key("multipart")
                    .uploadId(uploadId)
                    .multipartUpload(
                        m -> m.parts(CompletedPart.builder().partNumber(1).eTag(etag).build())));
    assertStoredHeaders(proxy.s3().headObject(b -> b.bucket(BUCKET).key("multipart")));
  }
}
