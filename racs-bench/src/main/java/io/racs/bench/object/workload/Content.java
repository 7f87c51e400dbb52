package io.racs.bench.object.workload;

import java.io.InputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;

/**
 * The deterministic body of every benchmark object: bytes derived from {@code (runSeed, key,
 * version)} by SplitMix64 applied to the word index, so any byte range can be generated (and
 * checked) without the bytes before it. The same key and version always give the same bytes, on any
 * host, so a GET is verified byte-exact without keeping copies.
 */
public final class Content {
  private static final long GOLDEN = 0x9E3779B97F4A7C15L;

  private Content() {}

  /** The content seed of one object version. */
  public static long seed(long runSeed, String key, long version) {
    long h = 0xcbf29ce484222325L;
    for (byte b : key.getBytes(StandardCharsets.UTF_8)) {
      h ^= b & 0xff;
      h *= 0x100000001b3L;
    }
    return mix(h ^ mix(runSeed + GOLDEN * (version + 1)));
  }

  /** SplitMix64's finaliser. */
  public static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  /** The byte at {@code offset} of the object with content seed {@code seed}. */
  public static byte byteAt(long seed, long offset) {
    return (byte) (mix(seed + GOLDEN * (offset >>> 3)) >>> ((offset & 7) << 3));
  }

  /**
   * Fills {@code buffer[from, from+length)} with the bytes at {@code offset...}. Whole words are
   * stored eight bytes at a time (little-endian, as {@link #byteAt} numbers them): generating a PUT
   * body must cost the load generator far less than sending it.
   */
  public static void fill(long seed, long offset, byte[] buffer, int from, int length) {
    int i = 0;
    // The partial word before the first word boundary, byte by byte.
    int head = (int) Math.min(length, (8 - (offset & 7)) & 7);
    for (; i < head; i++) {
      buffer[from + i] = byteAt(seed, offset + i);
    }
    long word = (offset + i) >>> 3;
    for (; length - i >= 8; i += 8, word++) {
      LITTLE_ENDIAN_LONGS.set(buffer, from + i, mix(seed + GOLDEN * word));
    }
    for (; i < length; i++) {
      buffer[from + i] = byteAt(seed, offset + i);
    }
  }

  private static final VarHandle LITTLE_ENDIAN_LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  /** CRC32C of bytes {@code [offset, offset+length)} of the object with seed {@code seed}. */
  public static long crc(long seed, long offset, long length) {
    CRC32C crc = new CRC32C();
    byte[] buffer = new byte[64 * 1024];
    for (long done = 0; done < length; ) {
      int n = (int) Math.min(buffer.length, length - done);
      fill(seed, offset + done, buffer, 0, n);
      crc.update(buffer, 0, n);
      done += n;
    }
    return crc.getValue();
  }

  /** A stream of {@code length} bytes of the object with seed {@code seed}, from offset 0. */
  public static InputStream stream(long seed, long length) {
    return new InputStream() {
      private long position;

      @Override
      public int read() {
        if (position >= length) {
          return -1;
        }
        return byteAt(seed, position++) & 0xff;
      }

      @Override
      public int read(byte[] b, int off, int len) {
        if (len == 0) {
          return 0;
        }
        if (position >= length) {
          return -1;
        }
        int n = (int) Math.min(len, length - position);
        fill(seed, position, b, off, n);
        position += n;
        return n;
      }

      @Override
      public int available() {
        return (int) Math.min(Integer.MAX_VALUE, length - position);
      }
    };
  }
}
