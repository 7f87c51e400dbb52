package io.racs.proxy.s3.precondition;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.s3.http.Headers;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Proves conditional headers give 200, 304 or 412 with S3's precedence (If-Match over
 * If-Unmodified-Since, If-None-Match over If-Modified-Since), for reads, copy sources and writes.
 */
class PreconditionsTest {
  private static final String ETAG = "abc123";
  private static final Instant MODIFIED = Instant.parse("2026-01-01T12:00:00.500Z");
  private static final String BEFORE = "Thu, 01 Jan 2026 11:00:00 GMT";
  private static final String SAME = "Thu, 01 Jan 2026 12:00:00 GMT";
  private static final String AFTER = "Thu, 01 Jan 2026 13:00:00 GMT";

  private static S3ErrorCode read(String... headers) {
    try {
      Preconditions.checkRead(Headers.of(headers), ETAG, MODIFIED);
      return null;
    } catch (S3Exception e) {
      return e.code();
    }
  }

  private static S3ErrorCode copy(String... headers) {
    try {
      Preconditions.checkCopySource(Headers.of(headers), ETAG, MODIFIED);
      return null;
    } catch (S3Exception e) {
      return e.code();
    }
  }

  @Test
  void checkRead_whenSingleConditions_evaluatesEach() {
    assertThat(read()).isNull();
    assertThat(read("If-Match", "\"abc123\"")).isNull();
    assertThat(read("If-Match", "abc123")).isNull();
    assertThat(read("If-Match", "\"x\", W/\"abc123\"")).isNull();
    assertThat(read("If-Match", "*")).isNull();
    assertThat(read("If-Match", "\"x\"")).isEqualTo(S3ErrorCode.PRECONDITION_FAILED);
    assertThat(read("If-None-Match", "\"abc123\"")).isEqualTo(S3ErrorCode.NOT_MODIFIED);
    assertThat(read("If-None-Match", "*")).isEqualTo(S3ErrorCode.NOT_MODIFIED);
    assertThat(read("If-None-Match", "\"x\"")).isNull();
    assertThat(read("If-Modified-Since", SAME)).isEqualTo(S3ErrorCode.NOT_MODIFIED);
    assertThat(read("If-Modified-Since", AFTER)).isEqualTo(S3ErrorCode.NOT_MODIFIED);
    assertThat(read("If-Modified-Since", BEFORE)).isNull();
    assertThat(read("If-Unmodified-Since", SAME)).isNull();
    assertThat(read("If-Unmodified-Since", BEFORE)).isEqualTo(S3ErrorCode.PRECONDITION_FAILED);
    assertThat(read("If-Modified-Since", "yesterday")).isNull();
  }

  @Test
  void checkRead_whenCombined_followsS3Precedence() {
    // If-Match true and If-Unmodified-Since false: 200.
    assertThat(read("If-Match", ETAG, "If-Unmodified-Since", BEFORE)).isNull();
    // If-None-Match false and If-Modified-Since true: 304.
    assertThat(read("If-None-Match", ETAG, "If-Modified-Since", BEFORE))
        .isEqualTo(S3ErrorCode.NOT_MODIFIED);
    // If-None-Match true (no match) wins over If-Modified-Since false: 200.
    assertThat(read("If-None-Match", "\"x\"", "If-Modified-Since", AFTER)).isNull();
    // A failing If-Match is 412 even when If-None-Match would be 304.
    assertThat(read("If-Match", "\"x\"", "If-None-Match", ETAG))
        .isEqualTo(S3ErrorCode.PRECONDITION_FAILED);
  }

  @Test
  void checkCopySource_whenConditionsFail_preconditionFailedNever304() {
    assertThat(copy("x-amz-copy-source-if-match", ETAG)).isNull();
    assertThat(copy("x-amz-copy-source-if-match", "x")).isEqualTo(S3ErrorCode.PRECONDITION_FAILED);
    assertThat(copy("x-amz-copy-source-if-none-match", ETAG))
        .isEqualTo(S3ErrorCode.PRECONDITION_FAILED);
    assertThat(copy("x-amz-copy-source-if-modified-since", AFTER))
        .isEqualTo(S3ErrorCode.PRECONDITION_FAILED);
    assertThat(copy("x-amz-copy-source-if-unmodified-since", BEFORE))
        .isEqualTo(S3ErrorCode.PRECONDITION_FAILED);
    assertThat(copy("If-Match", "x")).isNull();
  }

  @Test
  void checkWrite_whenConditionalPut_evaluatesAgainstCurrentObject() {
    Preconditions.checkWrite(Headers.of("If-None-Match", "*"), Optional.empty());
    Preconditions.checkWrite(Headers.of("If-Match", ETAG), Optional.of(ETAG));
    assertThat(writeError(Headers.of("If-None-Match", "*"), Optional.of(ETAG)))
        .isEqualTo(S3ErrorCode.PRECONDITION_FAILED);
    assertThat(writeError(Headers.of("If-Match", "x"), Optional.of(ETAG)))
        .isEqualTo(S3ErrorCode.PRECONDITION_FAILED);
    assertThat(writeError(Headers.of("If-Match", ETAG), Optional.empty()))
        .isEqualTo(S3ErrorCode.NO_SUCH_KEY);
  }

  private static S3ErrorCode writeError(Headers h, Optional<String> current) {
    try {
      Preconditions.checkWrite(h, current);
      return null;
    } catch (S3Exception e) {
      return e.code();
    }
  }
}
