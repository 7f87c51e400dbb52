package io.racs.proxy.s3.range;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.s3.http.Headers;
import io.racs.proxy.s3.precondition.Preconditions;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzzes the headers a GET, HEAD, copy or write is conditioned on: {@code Range} ({@link
 * ByteRange#parse}) and the {@code If-*} and {@code x-amz-copy-source-if-*} conditions ({@link
 * Preconditions}). Whatever the values: a range is either ignored (whole object), a satisfiable
 * range inside the object, or {@code InvalidRange} exactly when it starts at or past the end; the
 * conditions only ever answer {@code NotModified}, {@code PreconditionFailed} or (writes) {@code
 * NoSuchKey}, and an {@code If-Match} or {@code If-None-Match} naming the object's own ETag, quoted
 * or not, is always recognised.
 */
class ConditionalHeadersFuzzTest {
  private static final String[] NAMES = {
    "if-match",
    "if-none-match",
    "if-modified-since",
    "if-unmodified-since",
    "x-amz-copy-source-if-match",
    "x-amz-copy-source-if-none-match",
    "x-amz-copy-source-if-modified-since",
    "x-amz-copy-source-if-unmodified-since"
  };

  @FuzzTest
  @Timeout(value = 10, unit = TimeUnit.SECONDS)
  void evaluate(FuzzedDataProvider data) {
    long size = data.consumeBoolean() ? data.consumeLong(0, 1 << 20) : data.consumeLong();
    size = Math.max(0, size);
    // ETags as the store makes them: hex, or hex-N for multipart objects.
    String etag =
        HexFormat.of().formatHex(data.consumeBytes(16))
            + (data.consumeBoolean() ? "-" + data.consumeInt(1, 10_000) : "");
    Instant lastModified = Instant.ofEpochSecond(data.consumeLong(0, 4_102_444_800L));
    String range = data.consumeString(80);
    Headers.Builder headers = Headers.builder();
    for (int i = data.consumeInt(0, 4); i > 0; i--) {
      headers.add(data.pickValue(NAMES), data.consumeString(60));
    }
    if (data.consumeBoolean()) {
      // The object's own ETag, in one of the forms clients send it.
      String own =
          switch (data.consumeInt(0, 3)) {
            case 0 -> etag;
            case 1 -> "\"" + etag + "\"";
            case 2 -> "W/\"" + etag + "\"";
            default -> "a, \"" + etag + "\" ,b";
          };
      headers.set(data.consumeBoolean() ? "if-match" : "if-none-match", own);
    }
    Headers h = headers.build();

    checkRange(range, size);
    checkRead(h, etag, lastModified);
    try {
      Preconditions.checkCopySource(h, etag, lastModified);
    } catch (S3Exception e) {
      assertThat(e.code()).isEqualTo(S3ErrorCode.PRECONDITION_FAILED);
    }
    Optional<String> current = data.consumeBoolean() ? Optional.of(etag) : Optional.empty();
    try {
      Preconditions.checkWrite(h, current);
    } catch (S3Exception e) {
      assertThat(e.code()).isIn(S3ErrorCode.PRECONDITION_FAILED, S3ErrorCode.NO_SUCH_KEY);
    }
  }

  private static void checkRange(String header, long size) {
    Optional<ByteRange> range;
    try {
      range = ByteRange.parse(header, size);
    } catch (S3Exception e) {
      assertThat(e.code()).isEqualTo(S3ErrorCode.INVALID_RANGE);
      assertThat(e.details()).containsEntry("ActualObjectSize", Long.toString(size));
      return;
    }
    range.ifPresent(
        r -> {
          assertThat(r.first()).isBetween(0L, size - 1);
          assertThat(r.last()).isBetween(r.first(), size - 1);
          assertThat(r.lengthBytes()).isBetween(1L, size);
          assertThat(r.contentRange(size))
              .isEqualTo("bytes " + r.first() + "-" + r.last() + "/" + size);
        });
  }

  private static void checkRead(Headers h, String etag, Instant lastModified) {
    try {
      Preconditions.checkRead(h, etag, lastModified);
    } catch (S3Exception e) {
      assertThat(e.code()).isIn(S3ErrorCode.NOT_MODIFIED, S3ErrorCode.PRECONDITION_FAILED);
      if (e.code() == S3ErrorCode.PRECONDITION_FAILED) {
        // If-Match (or, without it, If-Unmodified-Since) failed: an own-ETag If-Match cannot.
        String ifMatch = h.get("if-match");
        assertThat(ifMatch == null || !names(ifMatch, etag)).as("If-Match " + ifMatch).isTrue();
      }
      return;
    }
    String ifNoneMatch = h.get("if-none-match");
    assertThat(ifNoneMatch == null || !names(ifNoneMatch, etag))
        .as("If-None-Match " + ifNoneMatch + " names " + etag)
        .isTrue();
  }

  /** Whether a list of entity tags names {@code etag} by the forms this test sends. */
  private static boolean names(String header, String etag) {
    String e = etag.strip();
    if (e.startsWith("W/")) {
      e = e.substring(2);
    }
    if (e.length() >= 2 && e.startsWith("\"") && e.endsWith("\"")) {
      e = e.substring(1, e.length() - 1);
    }
    return header.equals(e)
        || header.equals("\"" + e + "\"")
        || header.equals("W/\"" + e + "\"")
        || header.equals("a, \"" + e + "\" ,b");
  }
}
