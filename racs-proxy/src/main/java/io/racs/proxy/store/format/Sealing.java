package io.racs.proxy.store.format;

import io.racs.proxy.crypto.CustomerKey;
import java.util.Objects;

/**
 * How a write asks for its bytes to be sealed (encrypted and authenticated) before they are
 * striped: not at all, with a data key wrapped by the proxy's master key (SSE-S3), or with one
 * wrapped by the customer's own key (SSE-C).
 */
public sealed interface Sealing {
  /** Stored as sent. */
  Sealing NONE = new None();

  /** Sealed with a data key that the proxy's master key wraps (SSE-S3). */
  Sealing S3_MANAGED = new S3Managed();

  /** Stored as sent. */
  record None() implements Sealing {}

  /** Sealed with a data key that the proxy's master key wraps (SSE-S3). */
  record S3Managed() implements Sealing {}

  /** Sealed with a data key that the customer's key wraps (SSE-C); the key is never stored. */
  record Customer(CustomerKey key) implements Sealing {
    public Customer {
      Objects.requireNonNull(key, "key");
    }
  }
}
