package io.racs.proxy.crypto;

import java.security.GeneralSecurityException;
import java.util.Arrays;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Seals and opens the chunks of one object with its data key (AES-256-GCM through the JCA, which
 * uses the AES-NI and carry-less multiply intrinsics on x86).
 *
 * <p>Each chunk gets its own nonce: the object's random base nonce with the stream number (the part
 * number of a multipart upload, 0 otherwise) and the chunk index mixed into it, so no two chunks of
 * one key ever share a nonce. The stream number, the chunk index and whether the chunk is the last
 * one are also authenticated as associated data: a chunk moved to another place, or a stream cut at
 * a chunk boundary, fails to open.
 *
 * <p>Not thread-safe: one sealer per stream (it reuses one {@link Cipher}).
 */
public final class ChunkSealer {
  static final int KEY_BYTES = 32;
  static final int NONCE_BYTES = 12;
  private static final int AAD_BYTES = 13;

  private final SecretKeySpec key;
  private final byte[] baseNonce;
  private final int stream;
  private final Cipher cipher;
  private final byte[] nonce = new byte[NONCE_BYTES];
  private final byte[] aad = new byte[AAD_BYTES];

  /**
   * A sealer for one stream of an object.
   *
   * @param dataKey the object's 32-byte data key
   * @param baseNonce the object's 12-byte random base nonce
   * @param stream the stream number: the part number of a multipart upload, otherwise 0
   */
  public ChunkSealer(byte[] dataKey, byte[] baseNonce, int stream) {
    if (dataKey.length != KEY_BYTES) {
      throw new IllegalArgumentException(
          "dataKey: " + dataKey.length + " bytes (expected: " + KEY_BYTES + ")");
    }
    if (baseNonce.length != NONCE_BYTES) {
      throw new IllegalArgumentException(
          "baseNonce: " + baseNonce.length + " bytes (expected: " + NONCE_BYTES + ")");
    }
    if (stream < 0) {
      throw new IllegalArgumentException("stream: " + stream + " (expected: >= 0)");
    }
    this.key = new SecretKeySpec(dataKey, "AES");
    this.baseNonce = baseNonce.clone();
    this.stream = stream;
    try {
      this.cipher = Cipher.getInstance("AES/GCM/NoPadding");
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("this JVM has no AES/GCM/NoPadding", e);
    }
  }

  /**
   * Seals one chunk: writes {@code length + TAG_BYTES} bytes at {@code out[outOffset]}.
   *
   * @return the number of bytes written
   */
  public int seal(
      long index, boolean last, byte[] in, int offset, int length, byte[] out, int outOffset) {
    checkChunk(length);
    try {
      prepare(Cipher.ENCRYPT_MODE, index, last);
      return cipher.doFinal(in, offset, length, out, outOffset);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("sealing chunk " + index + " failed", e);
    }
  }

  /**
   * Opens one sealed chunk ({@code length} includes the tag): writes its plaintext at {@code
   * out[outOffset]}. A chunk that fails to open leaves no plaintext in {@code out}: the JCA's
   * AES-GCM clears what it wrote there before it throws ({@code SealedStreamsTest} checks it).
   *
   * @return the number of plaintext bytes written
   * @throws TamperedDataException if the chunk is not what this key sealed at this place
   */
  public int open(
      long index, boolean last, byte[] in, int offset, int length, byte[] out, int outOffset)
      throws TamperedDataException {
    if (length < SealedLayout.TAG_BYTES || length > SealedLayout.SEALED_CHUNK_BYTES) {
      throw new TamperedDataException(
          "sealed chunk " + index + " is " + length + " bytes, not a sealed chunk's length");
    }
    try {
      prepare(Cipher.DECRYPT_MODE, index, last);
      return cipher.doFinal(in, offset, length, out, outOffset);
    } catch (AEADBadTagException e) {
      throw new TamperedDataException(
          "sealed chunk " + index + (last ? " (the last)" : "") + " failed authentication", e);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("opening chunk " + index + " failed", e);
    }
  }

  private void prepare(int mode, long index, boolean last) throws GeneralSecurityException {
    if (index < 0) {
      throw new IllegalArgumentException("index: " + index + " (expected: >= 0)");
    }
    System.arraycopy(baseNonce, 0, nonce, 0, NONCE_BYTES);
    for (int i = 0; i < 4; i++) {
      nonce[i] ^= (byte) (stream >>> (24 - 8 * i));
    }
    for (int i = 0; i < 8; i++) {
      nonce[4 + i] ^= (byte) (index >>> (56 - 8 * i));
    }
    for (int i = 0; i < 4; i++) {
      aad[i] = (byte) (stream >>> (24 - 8 * i));
    }
    for (int i = 0; i < 8; i++) {
      aad[4 + i] = (byte) (index >>> (56 - 8 * i));
    }
    aad[12] = (byte) (last ? 1 : 0);
    cipher.init(mode, key, new GCMParameterSpec(SealedLayout.TAG_BYTES * 8, nonce));
    cipher.updateAAD(aad);
  }

  private static void checkChunk(int length) {
    if (length < 0 || length > SealedLayout.CHUNK_BYTES) {
      throw new IllegalArgumentException(
          "length: " + length + " (expected: 0 to " + SealedLayout.CHUNK_BYTES + ")");
    }
  }

  @Override
  public String toString() {
    // Never the key.
    return "ChunkSealer[stream=" + stream + ", nonce=" + Arrays.hashCode(baseNonce) + "]";
  }
}
