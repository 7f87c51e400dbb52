package io.racs.proxy.crypto;

import java.util.Base64;

/**
 * One object's data key and base nonce, both random: the key seals the object's chunks and is
 * itself kept only wrapped ({@link MasterKey#wrap}, {@link CustomerKey#wrap}); the base nonce is
 * not secret and is stored as it is. {@link #toString()} never shows the key.
 */
public final class DataKey {
  private final byte[] key;
  private final byte[] baseNonce;

  private DataKey(byte[] key, byte[] baseNonce) {
    this.key = key;
    this.baseNonce = baseNonce;
  }

  /** A fresh random data key and base nonce. */
  public static DataKey generate() {
    return new DataKey(
        KeyWrap.randomBytes(ChunkSealer.KEY_BYTES), KeyWrap.randomBytes(ChunkSealer.NONCE_BYTES));
  }

  /**
   * A data key unwrapped from a record, with the base nonce stored beside it.
   *
   * @throws IllegalArgumentException if either has the wrong length
   */
  public static DataKey of(byte[] key, String baseNonceBase64) {
    byte[] nonce = Base64.getDecoder().decode(baseNonceBase64);
    if (key.length != ChunkSealer.KEY_BYTES || nonce.length != ChunkSealer.NONCE_BYTES) {
      throw new IllegalArgumentException(
          "data key: "
              + key.length
              + " bytes, nonce "
              + nonce.length
              + " bytes (expected: 32, 12)");
    }
    return new DataKey(key.clone(), nonce);
  }

  /** The key's bytes, to wrap. */
  public byte[] key() {
    return key.clone();
  }

  /** The base nonce, base64, as stored in the record. */
  public String baseNonce() {
    return Base64.getEncoder().encodeToString(baseNonce);
  }

  /** A sealer for one stream of the object (0, or a multipart upload's part number). */
  public ChunkSealer sealer(int stream) {
    return new ChunkSealer(key, baseNonce, stream);
  }

  /**
   * The ETag of an object sealed with a customer's key: S3's is not the MD5 of the plaintext, and
   * neither is this (which would let anyone who guesses the plaintext confirm it). It is keyed by
   * this data key: 16 bytes of HMAC-SHA256 of the plaintext's MD5, as hex.
   */
  public String opaqueEtag(byte[] plainMd5) {
    try {
      javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
      mac.init(new javax.crypto.spec.SecretKeySpec(key, "HmacSHA256"));
      return java.util.HexFormat.of().formatHex(mac.doFinal(plainMd5), 0, 16);
    } catch (java.security.GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public String toString() {
    return "DataKey[nonce=" + baseNonce() + "]";
  }
}
