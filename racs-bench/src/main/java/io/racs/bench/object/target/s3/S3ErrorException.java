package io.racs.bench.object.target.s3;

/**
 * An S3 endpoint answered with an error status: the status and the {@code Code} of its error XML
 * (null when the answer had none, as a HEAD's has not).
 */
public final class S3ErrorException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final int status;
  private final String code;

  /** An error answer. */
  public S3ErrorException(int status, String code, String message) {
    super(status + (code == null ? "" : " " + code) + (message == null ? "" : ": " + message));
    this.status = status;
    this.code = code;
  }

  /** The HTTP status. */
  public int status() {
    return status;
  }

  /** The S3 error code ({@code NoSuchKey}, ...), or null. */
  public String code() {
    return code;
  }
}
