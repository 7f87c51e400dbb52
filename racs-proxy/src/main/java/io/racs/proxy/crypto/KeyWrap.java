package io.racs.proxy.crypto;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Seals data keys with a key-encryption key (AES-256-GCM, a fresh random nonce each time). The
 * associated data names the format, so a wrapped key is never mistaken for anything else sealed
 * with the same key.
 */
final class KeyWrap {
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final byte[] AAD = "racs data key v1".getBytes(StandardCharsets.US_ASCII);

  private KeyWrap() {}

  static WrappedKey wrap(byte[] kek, String keyId, byte[] dataKey) {
    byte[] nonce = randomBytes(ChunkSealer.NONCE_BYTES);
    try {
      return new WrappedKey(
          keyId, nonce, cipher(Cipher.ENCRYPT_MODE, kek, nonce, AAD).doFinal(dataKey));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("wrapping a data key failed", e);
    }
  }

  static byte[] unwrap(byte[] kek, WrappedKey wrapped) throws TamperedDataException {
    try {
      byte[] key = cipher(Cipher.DECRYPT_MODE, kek, wrapped.nonce(), AAD).doFinal(wrapped.sealed());
      if (key.length != ChunkSealer.KEY_BYTES) {
        throw new TamperedDataException("the unwrapped data key is " + key.length + " bytes");
      }
      return key;
    } catch (AEADBadTagException e) {
      throw new TamperedDataException(
          "the data key sealed by " + wrapped.keyId() + " does not open with this key", e);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("unwrapping a data key failed", e);
    }
  }

  /**
   * An AES-256-GCM cipher of {@code kek} in {@code mode} for one message under {@code nonce}, with
   * {@code aad} as its associated data: the one setup of every key-encryption-key seal (data keys
   * here, user secrets in {@link SecretSeal}).
   */
  static Cipher cipher(int mode, byte[] kek, byte[] nonce, byte[] aad)
      throws GeneralSecurityException {
    Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
    cipher.init(
        mode,
        new SecretKeySpec(kek, "AES"),
        new GCMParameterSpec(SealedLayout.TAG_BYTES * 8, nonce));
    cipher.updateAAD(aad);
    return cipher;
  }

  static byte[] randomBytes(int n) {
    byte[] b = new byte[n];
    RANDOM.nextBytes(b);
    return b;
  }
}
