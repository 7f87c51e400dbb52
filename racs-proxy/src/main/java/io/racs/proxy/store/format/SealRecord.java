package io.racs.proxy.store.format;

/**
 * How a version's (or an upload's) bytes are sealed, kept in its record: every part holds the
 * sealed bytes (chunks of {@link io.racs.proxy.crypto.SealedLayout}), so heal and degraded reads
 * rebuild them without a key; only a read opens them.
 *
 * @param mode {@link #SSE_S3} or {@link #SSE_C}
 * @param wrappedKey the data key, wrapped ({@link io.racs.proxy.crypto.WrappedKey#encode()})
 * @param baseNonce the data key's base nonce, base64
 * @param salt SSE-C only: the salt of {@code verifier}, base64
 * @param verifier SSE-C only: a salted HMAC-SHA256 of the customer's key, base64
 */
public record SealRecord(
    String mode, String wrappedKey, String baseNonce, String salt, String verifier) {
  /** The proxy's master key wraps the data key; S3 calls it {@code AES256}. */
  public static final String SSE_S3 = "AES256";

  /** The customer's key wraps the data key. */
  public static final String SSE_C = "SSE-C";

  /** True for SSE-C: reading needs the customer's key. */
  public boolean customer() {
    return SSE_C.equals(mode);
  }
}
