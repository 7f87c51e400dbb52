package io.racs.proxy.s3.chunked;

import io.racs.proxy.s3.auth.SigV4;
import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Map;
import java.util.Objects;

/**
 * A body sent as is: passed to the sink unchanged, counted against {@code Content-Length} when
 * known, and, for a hex {@code x-amz-content-sha256}, hashed and compared at its end ({@code
 * XAmzContentSHA256Mismatch}). Not thread-safe; see {@link BodyDecoder}.
 */
public final class PlainBodyDecoder implements BodyDecoder {
  private final byte[] expectedSha256;
  private final MessageDigest digest;
  private final long expectedLengthBytes;
  private final PayloadSink sink;
  private long seen;
  private S3Exception failure;

  private PlainBodyDecoder(byte[] expectedSha256, long expectedLengthBytes, PayloadSink sink) {
    this.expectedSha256 = expectedSha256;
    this.digest = expectedSha256 == null ? null : SigV4.newSha256();
    this.expectedLengthBytes = expectedLengthBytes;
    this.sink = Objects.requireNonNull(sink, "sink");
  }

  /**
   * A body checked against its SHA-256.
   *
   * @param expectedSha256Hex the {@code x-amz-content-sha256} value (64 hex digits)
   * @param expectedLengthBytes {@code Content-Length}, or -1 when unknown
   */
  public static PlainBodyDecoder sha256(
      String expectedSha256Hex, long expectedLengthBytes, PayloadSink sink) {
    byte[] expected;
    try {
      expected = HexFormat.of().parseHex(expectedSha256Hex);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "expectedSha256Hex: " + expectedSha256Hex + " (expected: 64 hex digits)", e);
    }
    if (expected.length != 32) {
      throw new IllegalArgumentException(
          "expectedSha256Hex: " + expectedSha256Hex + " (expected: 64 hex digits)");
    }
    return new PlainBodyDecoder(expected, expectedLengthBytes, sink);
  }

  /** A body not hashed ({@code UNSIGNED-PAYLOAD}, presigned or SigV2 requests). */
  public static PlainBodyDecoder unsigned(long expectedLengthBytes, PayloadSink sink) {
    return new PlainBodyDecoder(null, expectedLengthBytes, sink);
  }

  @Override
  public void feed(ByteBuffer data) {
    if (failure != null) {
      throw failure;
    }
    int n = data.remaining();
    if (expectedLengthBytes >= 0 && seen + n > expectedLengthBytes) {
      failure =
          S3Exception.of(
              S3ErrorCode.INVALID_REQUEST, "The body is longer than its Content-Length.");
      throw failure;
    }
    seen += n;
    ByteBuffer view = data.asReadOnlyBuffer();
    if (digest != null) {
      digest.update(view.duplicate());
    }
    data.position(data.limit());
    sink.accept(view);
  }

  @Override
  public DecodedBody finish() {
    if (failure != null) {
      throw failure;
    }
    if (expectedLengthBytes >= 0 && seen < expectedLengthBytes) {
      failure = S3Exception.of(S3ErrorCode.INCOMPLETE_BODY);
      throw failure;
    }
    if (digest != null && !MessageDigest.isEqual(digest.digest(), expectedSha256)) {
      failure = S3Exception.of(S3ErrorCode.X_AMZ_CONTENT_SHA256_MISMATCH);
      throw failure;
    }
    return new DecodedBody(seen, Map.of());
  }
}
