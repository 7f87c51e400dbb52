package io.racs.proxy.crypto;

import java.io.IOException;

/**
 * Sealed bytes that fail authentication: altered, truncated, reordered, taken from another object,
 * or opened with the wrong key. Nothing of them is ever returned.
 */
public final class TamperedDataException extends IOException {
  private static final long serialVersionUID = 1L;

  public TamperedDataException(String message) {
    super(message);
  }

  public TamperedDataException(String message, Throwable cause) {
    super(message, cause);
  }
}
