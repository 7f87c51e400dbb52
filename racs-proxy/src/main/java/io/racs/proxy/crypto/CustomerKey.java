package io.racs.proxy.crypto;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * A customer-provided key (SSE-C): the 256-bit key a client sends with each request, checked
 * against the MD5 the client sends beside it. The proxy never stores it: it wraps the object's data
 * key with it and keeps a salted HMAC of it, which tells a wrong key from a right one without
 * revealing it. {@link #toString()} never shows the key.
 */
public final class CustomerKey {
  /** The only algorithm SSE-C names. */
  public static final String ALGORITHM = "AES256";

  /** The id recorded with data keys a customer key wraps. */
  public static final String KEY_ID = "sse-c";

  private final byte[] key;
  private final String keyMd5;

  private CustomerKey(byte[] key, String keyMd5) {
    this.key = key;
    this.keyMd5 = keyMd5;
  }

  /**
   * The key from the three SSE-C request values.
   *
   * @param algorithm {@code x-amz-server-side-encryption-customer-algorithm}
   * @param keyBase64 {@code x-amz-server-side-encryption-customer-key}
   * @param keyMd5Base64 {@code x-amz-server-side-encryption-customer-key-MD5}
   * @throws IllegalArgumentException with S3's reason when a value is missing or wrong
   */
  public static CustomerKey of(String algorithm, String keyBase64, String keyMd5Base64) {
    if (algorithm == null || !algorithm.equals(ALGORITHM)) {
      throw new IllegalArgumentException(
          "The encryption algorithm must be " + ALGORITHM + ", not " + algorithm + ".");
    }
    if (keyBase64 == null || keyMd5Base64 == null) {
      throw new IllegalArgumentException(
          "Requests specifying Server Side Encryption with Customer provided keys must provide"
              + " the key and its MD5.");
    }
    byte[] key;
    try {
      key = Base64.getDecoder().decode(keyBase64.strip());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("The secret key is not valid base64.");
    }
    if (key.length != ChunkSealer.KEY_BYTES) {
      throw new IllegalArgumentException(
          "The secret key was invalid for the specified algorithm: it is "
              + key.length
              + " bytes, not "
              + ChunkSealer.KEY_BYTES
              + ".");
    }
    String md5 = Base64.getEncoder().encodeToString(md5(key));
    if (!MessageDigest.isEqual(
        md5.getBytes(StandardCharsets.US_ASCII),
        keyMd5Base64.strip().getBytes(StandardCharsets.US_ASCII))) {
      throw new IllegalArgumentException(
          "The calculated MD5 hash of the key did not match the hash that was provided.");
    }
    return new CustomerKey(key, md5);
  }

  /** The base64 MD5 of the key, as S3 echoes it in {@code ...-customer-key-MD5}. */
  public String keyMd5() {
    return keyMd5;
  }

  /** Seals a data key with this key. */
  public WrappedKey wrap(byte[] dataKey) {
    return KeyWrap.wrap(key, KEY_ID, dataKey);
  }

  /**
   * Opens a data key this key sealed.
   *
   * @throws TamperedDataException if another key sealed it
   */
  public byte[] unwrap(WrappedKey wrapped) throws TamperedDataException {
    return KeyWrap.unwrap(key, wrapped);
  }

  /** A salted HMAC-SHA256 of the key, to keep in place of it. */
  public byte[] verifier(byte[] salt) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(salt, "HmacSHA256"));
      return mac.doFinal(key);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /** True when this is the key whose {@link #verifier} with {@code salt} is {@code expected}. */
  public boolean matches(byte[] salt, byte[] expected) {
    return MessageDigest.isEqual(verifier(salt), expected);
  }

  private static byte[] md5(byte[] b) {
    try {
      return MessageDigest.getInstance("MD5").digest(b);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public String toString() {
    return "CustomerKey[md5=" + keyMd5 + "]";
  }
}
