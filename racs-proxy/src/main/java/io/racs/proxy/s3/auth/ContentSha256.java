package io.racs.proxy.s3.auth;

import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import java.util.Locale;

/**
 * The payload mode a request declares in {@code x-amz-content-sha256}: a hex SHA-256 of the body,
 * {@code UNSIGNED-PAYLOAD}, or one of the aws-chunked streaming modes.
 *
 * @param mode the mode
 * @param value the header value as sent (for {@link Mode#SHA256} the hex digest)
 */
public record ContentSha256(Mode mode, String value) {
  /** The modes. */
  public enum Mode {
    /** The body's SHA-256, to verify at its end. */
    SHA256("", false, false, false),
    /** No body hash; the body is sent as is. */
    UNSIGNED_PAYLOAD("UNSIGNED-PAYLOAD", false, false, false),
    /** aws-chunked with a signature per chunk. */
    STREAMING_SIGNED("STREAMING-AWS4-HMAC-SHA256-PAYLOAD", true, true, false),
    /** aws-chunked with chunk signatures and signed trailer headers. */
    STREAMING_SIGNED_TRAILER("STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER", true, true, true),
    /** aws-chunked without signatures, with trailer headers (usually a checksum). */
    STREAMING_UNSIGNED_TRAILER("STREAMING-UNSIGNED-PAYLOAD-TRAILER", true, false, true);

    private final String headerValue;
    private final boolean chunked;
    private final boolean signedChunks;
    private final boolean trailer;

    Mode(String headerValue, boolean chunked, boolean signedChunks, boolean trailer) {
      this.headerValue = headerValue;
      this.chunked = chunked;
      this.signedChunks = signedChunks;
      this.trailer = trailer;
    }

    /** The header value naming this mode (empty for {@link #SHA256}). */
    public String headerValue() {
      return headerValue;
    }

    /** Whether the body is aws-chunked framed. */
    public boolean chunked() {
      return chunked;
    }

    /** Whether each chunk carries a signature. */
    public boolean signedChunks() {
      return signedChunks;
    }

    /** Whether trailer headers follow the final chunk. */
    public boolean trailer() {
      return trailer;
    }
  }

  /** {@code UNSIGNED-PAYLOAD}. */
  public static final ContentSha256 UNSIGNED =
      new ContentSha256(Mode.UNSIGNED_PAYLOAD, Mode.UNSIGNED_PAYLOAD.headerValue());

  /**
   * Parses a header value.
   *
   * @throws S3Exception {@code InvalidArgument} for an unknown value, {@code NotImplemented} for
   *     the SigV4a (ECDSA) streaming modes
   */
  public static ContentSha256 parse(String value) {
    for (Mode m : Mode.values()) {
      if (m != Mode.SHA256 && m.headerValue.equals(value)) {
        return new ContentSha256(m, value);
      }
    }
    if (value.startsWith("STREAMING-AWS4-ECDSA-P256-SHA256")) {
      throw S3Exception.of(
          S3ErrorCode.NOT_IMPLEMENTED, "SigV4a streaming payloads are not implemented.");
    }
    if (isHexSha256(value)) {
      return new ContentSha256(Mode.SHA256, value.toLowerCase(Locale.ROOT));
    }
    throw S3Exception.of(
            S3ErrorCode.INVALID_ARGUMENT,
            "x-amz-content-sha256 must be UNSIGNED-PAYLOAD, STREAMING-UNSIGNED-PAYLOAD-TRAILER,"
                + " STREAMING-AWS4-HMAC-SHA256-PAYLOAD, STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER"
                + " or a valid sha256 value.")
        .withDetail("ArgumentName", "x-amz-content-sha256")
        .withDetail("ArgumentValue", value);
  }

  private static boolean isHexSha256(String v) {
    if (v.length() != 64) {
      return false;
    }
    for (int i = 0; i < 64; i++) {
      if (Character.digit(v.charAt(i), 16) < 0) {
        return false;
      }
    }
    return true;
  }
}
