package io.racs.proxy.s3.checksum;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.zip.Checksum;

/**
 * One checksum computed over bytes as they stream by; {@link #digest()} gives the big-endian bytes
 * S3 base64-encodes. Not thread-safe; {@link #digest()} ends the computation.
 */
public final class StreamingChecksum {
  private final ChecksumAlgorithm algorithm;
  private final Checksum crc;
  private final MessageDigest md;

  private StreamingChecksum(ChecksumAlgorithm algorithm, Checksum crc, MessageDigest md) {
    this.algorithm = algorithm;
    this.crc = crc;
    this.md = md;
  }

  static StreamingChecksum ofCrc(ChecksumAlgorithm algorithm, Checksum crc) {
    return new StreamingChecksum(algorithm, crc, null);
  }

  static StreamingChecksum ofDigest(ChecksumAlgorithm algorithm, MessageDigest md) {
    return new StreamingChecksum(algorithm, null, md);
  }

  /** The algorithm. */
  public ChecksumAlgorithm algorithm() {
    return algorithm;
  }

  /** Adds the remaining bytes of {@code data} without moving its position. */
  public void update(ByteBuffer data) {
    ByteBuffer view = data.duplicate();
    if (crc != null) {
      crc.update(view);
    } else {
      md.update(view);
    }
  }

  /** Adds {@code length} bytes of {@code data} from {@code offset}. */
  public void update(byte[] data, int offset, int length) {
    if (crc != null) {
      crc.update(data, offset, length);
    } else {
      md.update(data, offset, length);
    }
  }

  /** The checksum bytes, big-endian for CRCs. */
  public byte[] digest() {
    if (md != null) {
      return md.digest();
    }
    long v = crc.getValue();
    int n = algorithm.lengthBytes();
    byte[] out = new byte[n];
    for (int i = 0; i < n; i++) {
      out[i] = (byte) (v >>> (8 * (n - 1 - i)));
    }
    return out;
  }

  /** The checksum as a header value: base64 of {@link #digest()}. */
  public String base64() {
    return Base64.getEncoder().encodeToString(digest());
  }
}
