package io.racs.proxy.s3.policy;

/**
 * A policy document that cannot be accepted: not JSON, too large, or naming something RACS does not
 * judge. The message says what and where, in one line; the S3 API answers it as {@code
 * MalformedPolicy}, the CLI prints it.
 */
public final class PolicyException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  /** A refusal with its one-line reason. */
  public PolicyException(String message) {
    super(message);
  }
}
