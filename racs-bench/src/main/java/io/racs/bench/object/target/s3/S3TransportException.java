package io.racs.bench.object.target.s3;

import java.io.IOException;

/** A request got no S3 answer: the connection failed, or the answer was not HTTP. */
public final class S3TransportException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** Wraps {@code cause}. */
  public S3TransportException(String message, IOException cause) {
    super(message, cause);
  }
}
