package io.racs.proxy.crypto;

import java.util.Base64;
import java.util.Objects;

/**
 * An object's data key, sealed (AES-256-GCM) by a key-encryption key: the master key for SSE-S3,
 * the customer's key for SSE-C. Stored in the version's record; it says which key sealed it, never
 * anything of the key itself.
 *
 * @param keyId the id of the key that sealed it ({@link MasterKey#id()}, or {@code "sse-c"})
 * @param nonce the 12-byte nonce it was sealed with
 * @param sealed the sealed data key and its tag
 */
public record WrappedKey(String keyId, byte[] nonce, byte[] sealed) {
  private static final String FORMAT = "v1";

  public WrappedKey {
    Objects.requireNonNull(keyId, "keyId");
    if (keyId.isEmpty() || keyId.indexOf(':') >= 0) {
      throw new IllegalArgumentException("keyId: " + keyId + " (expected: non-empty, no ':')");
    }
    nonce = nonce.clone();
    sealed = sealed.clone();
  }

  @Override
  public byte[] nonce() {
    return nonce.clone();
  }

  @Override
  public byte[] sealed() {
    return sealed.clone();
  }

  /** The text form kept in a version record: {@code v1:<keyId>:<nonce>:<sealed>} (base64). */
  public String encode() {
    Base64.Encoder b64 = Base64.getEncoder();
    return FORMAT
        + ":"
        + keyId
        + ":"
        + b64.encodeToString(nonce)
        + ":"
        + b64.encodeToString(sealed);
  }

  /**
   * Reads {@link #encode()}'s form.
   *
   * @throws IllegalArgumentException if the text is not one
   */
  public static WrappedKey decode(String text) {
    String[] parts = text.split(":", -1);
    if (parts.length != 4 || !parts[0].equals(FORMAT)) {
      throw new IllegalArgumentException("wrapped key: not in the " + FORMAT + " form");
    }
    Base64.Decoder b64 = Base64.getDecoder();
    return new WrappedKey(parts[1], b64.decode(parts[2]), b64.decode(parts[3]));
  }

  @Override
  public String toString() {
    return "WrappedKey[" + keyId + "]";
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof WrappedKey w
        && keyId.equals(w.keyId)
        && java.util.Arrays.equals(nonce, w.nonce)
        && java.util.Arrays.equals(sealed, w.sealed);
  }

  @Override
  public int hashCode() {
    return keyId.hashCode() * 31 + java.util.Arrays.hashCode(sealed);
  }
}
