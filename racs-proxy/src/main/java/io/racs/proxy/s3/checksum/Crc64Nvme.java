package io.racs.proxy.s3.checksum;

import java.nio.ByteBuffer;
import java.util.zip.Checksum;

/**
 * CRC-64/NVME, the {@code CRC64NVME} of S3: reflected polynomial {@code 0x9a6c9329ac4bc9b5},
 * initial value and final XOR all ones ({@code "123456789"} gives {@code 0xae8b14860a799888}).
 * Table-driven, slicing-by-8. Not thread-safe.
 */
public final class Crc64Nvme implements Checksum {
  /** The reflected polynomial. */
  public static final long POLYNOMIAL = 0x9a6c9329ac4bc9b5L;

  private static final long[][] TABLES = tables();

  private long crc = -1L;

  /** A checksum of no bytes. */
  public Crc64Nvme() {}

  private static long[][] tables() {
    long[][] t = new long[8][256];
    for (int i = 0; i < 256; i++) {
      long c = i;
      for (int k = 0; k < 8; k++) {
        c = (c & 1) != 0 ? (c >>> 1) ^ POLYNOMIAL : c >>> 1;
      }
      t[0][i] = c;
    }
    for (int i = 0; i < 256; i++) {
      for (int s = 1; s < 8; s++) {
        t[s][i] = (t[s - 1][i] >>> 8) ^ t[0][(int) (t[s - 1][i] & 0xFF)];
      }
    }
    return t;
  }

  @Override
  public void update(int b) {
    crc = (crc >>> 8) ^ TABLES[0][(int) ((crc ^ b) & 0xFF)];
  }

  @Override
  public void update(byte[] b, int off, int len) {
    java.util.Objects.checkFromIndexSize(off, len, b.length);
    long c = crc;
    int i = off;
    int end = off + len;
    long[] t0 = TABLES[0];
    long[] t1 = TABLES[1];
    long[] t2 = TABLES[2];
    long[] t3 = TABLES[3];
    long[] t4 = TABLES[4];
    long[] t5 = TABLES[5];
    long[] t6 = TABLES[6];
    long[] t7 = TABLES[7];
    while (end - i >= 8) {
      long x =
          c
              ^ ((b[i] & 0xFFL)
                  | (b[i + 1] & 0xFFL) << 8
                  | (b[i + 2] & 0xFFL) << 16
                  | (b[i + 3] & 0xFFL) << 24
                  | (b[i + 4] & 0xFFL) << 32
                  | (b[i + 5] & 0xFFL) << 40
                  | (b[i + 6] & 0xFFL) << 48
                  | (b[i + 7] & 0xFFL) << 56);
      c =
          t7[(int) (x & 0xFF)]
              ^ t6[(int) ((x >>> 8) & 0xFF)]
              ^ t5[(int) ((x >>> 16) & 0xFF)]
              ^ t4[(int) ((x >>> 24) & 0xFF)]
              ^ t3[(int) ((x >>> 32) & 0xFF)]
              ^ t2[(int) ((x >>> 40) & 0xFF)]
              ^ t1[(int) ((x >>> 48) & 0xFF)]
              ^ t0[(int) (x >>> 56)];
      i += 8;
    }
    while (i < end) {
      c = (c >>> 8) ^ t0[(int) ((c ^ b[i++]) & 0xFF)];
    }
    crc = c;
  }

  @Override
  public void update(ByteBuffer buffer) {
    if (buffer.hasArray()) {
      int pos = buffer.position();
      update(buffer.array(), buffer.arrayOffset() + pos, buffer.remaining());
      buffer.position(buffer.limit());
      return;
    }
    byte[] chunk = new byte[Math.min(buffer.remaining(), 8192)];
    while (buffer.hasRemaining()) {
      int n = Math.min(chunk.length, buffer.remaining());
      buffer.get(chunk, 0, n);
      update(chunk, 0, n);
    }
  }

  /** The CRC of the bytes so far. */
  @Override
  public long getValue() {
    return ~crc;
  }

  @Override
  public void reset() {
    crc = -1L;
  }
}
