package io.racs.proxy.crypto;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;

/**
 * Seals a user's secret access key with a master key (AES-256-GCM, a fresh random nonce each time),
 * as {@link KeyWrap} seals data keys. The associated data names the format and the access key id,
 * so a sealed secret opens only as the secret of the key it was sealed for: one copied into another
 * user's record does not open, and a data key never opens as a secret.
 */
final class SecretSeal {
  private SecretSeal() {}

  private static byte[] aad(String accessKeyId) {
    return ("racs user secret v1\0" + accessKeyId).getBytes(StandardCharsets.UTF_8);
  }

  static WrappedKey seal(byte[] kek, String keyId, String accessKeyId, String secret) {
    byte[] nonce = KeyWrap.randomBytes(ChunkSealer.NONCE_BYTES);
    try {
      Cipher cipher = KeyWrap.cipher(Cipher.ENCRYPT_MODE, kek, nonce, aad(accessKeyId));
      return new WrappedKey(keyId, nonce, cipher.doFinal(secret.getBytes(StandardCharsets.UTF_8)));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("sealing a secret failed", e);
    }
  }

  static String open(byte[] kek, String accessKeyId, WrappedKey sealed)
      throws TamperedDataException {
    try {
      Cipher cipher = KeyWrap.cipher(Cipher.DECRYPT_MODE, kek, sealed.nonce(), aad(accessKeyId));
      return new String(cipher.doFinal(sealed.sealed()), StandardCharsets.UTF_8);
    } catch (AEADBadTagException e) {
      throw new TamperedDataException(
          "the secret of " + accessKeyId + " sealed by " + sealed.keyId() + " does not open", e);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("opening a secret failed", e);
    }
  }
}
