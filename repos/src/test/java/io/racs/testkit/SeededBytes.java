package io.racs.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The one way tests make seeded data: a stream of any length that is never held in memory, its
 * bytes for small bodies, and digests to compare bodies by, so that a 64 MiB round trip costs no 64
 * MiB buffer. The same seed gives the same bytes on every JVM; a test that draws its seed from
 * {@link TestSeed} has it printed, so a failure replays.
 */
public final class SeededBytes {
  private SeededBytes() {}

  /** A stream of {@code lengthBytes} pseudo-random bytes determined by {@code seed}. */
  public static InputStream stream(long seed, long lengthBytes) {
    return new InputStream() {
      private long state = seed ^ 0x9E3779B97F4A7C15L;
      private long remaining = lengthBytes;
      private long word;
      private int wordBytes;

      @Override
      public int read() {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
      }

      @Override
      public int read(byte[] b, int off, int len) {
        if (len == 0) {
          return 0;
        }
        if (remaining == 0) {
          return -1;
        }
        int n = (int) Math.min(len, remaining);
        for (int i = 0; i < n; i++) {
          if (wordBytes == 0) {
            // xorshift64*: fast, and plenty for test data.
            state ^= state >>> 12;
            state ^= state << 25;
            state ^= state >>> 27;
            word = state * 0x2545F4914F6CDD1DL;
            wordBytes = 8;
          }
          b[off + i] = (byte) word;
          word >>>= 8;
          wordBytes--;
        }
        remaining -= n;
        return n;
      }
    };
  }

  /** The bytes of {@link #stream}, for small bodies. */
  public static byte[] bytes(long seed, int lengthBytes) {
    try {
      return stream(seed, lengthBytes).readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The SHA-256 of {@link #stream}, in hex. */
  public static String sha256(long seed, long lengthBytes) {
    return sha256(stream(seed, lengthBytes));
  }

  /** The SHA-256 of bytes {@code [offset, offset + length)} of {@link #stream}, in hex. */
  public static String sha256(long seed, long lengthBytes, long offset, long length) {
    try {
      InputStream in = stream(seed, lengthBytes);
      in.skipNBytes(offset);
      return sha256(
          new java.io.ByteArrayInputStream(new byte[0]) {
            private long left = length;

            @Override
            public int read(byte[] b, int off, int len) {
              if (left == 0) {
                return -1;
              }
              try {
                int n = in.read(b, off, (int) Math.min(len, left));
                left -= Math.max(n, 0);
                return n;
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
            }
          });
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The SHA-256 of everything left in {@code in}, in hex; closes nothing. */
  public static String sha256(InputStream in) {
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      byte[] buffer = new byte[64 * 1024];
      for (int n; (n = in.read(buffer)) >= 0; ) {
        digest.update(buffer, 0, n);
      }
      return HexFormat.of().formatHex(digest.digest());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
