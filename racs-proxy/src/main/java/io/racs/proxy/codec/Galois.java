package io.racs.proxy.codec;

/**
 * Arithmetic in GF(2^8) with the field polynomial x^8 + x^4 + x^3 + x^2 + 1 (0x11D) and generator 2
 * — the field of Backblaze JavaReedSolomon and klauspost/reedsolomon. Addition is XOR.
 *
 * <p>All tables are built once at class initialisation and never change; every method is
 * thread-safe and allocation-free.
 */
final class Galois {
  /** The field polynomial, including the x^8 term. */
  static final int POLYNOMIAL = 0x11D;

  /** {@code LOG[a]} is the discrete logarithm of {@code a != 0} to base 2. */
  private static final int[] LOG = new int[256];

  /** {@code EXP[i]} is 2^i, doubled in length so that {@code EXP[LOG[a] + LOG[b]]} needs no mod. */
  private static final byte[] EXP = new byte[510];

  /** {@code MULTIPLY[a][b]} is a·b: the byte table of the scalar path (64 KiB). */
  static final byte[][] MULTIPLY = new byte[256][256];

  static {
    int x = 1;
    for (int i = 0; i < 255; i++) {
      EXP[i] = (byte) x;
      EXP[i + 255] = (byte) x;
      LOG[x] = i;
      x <<= 1;
      if (x >= 256) {
        x ^= POLYNOMIAL;
      }
    }
    for (int a = 0; a < 256; a++) {
      for (int b = 0; b < 256; b++) {
        MULTIPLY[a][b] = slowMultiply(a, b);
      }
    }
  }

  private Galois() {}

  private static byte slowMultiply(int a, int b) {
    if (a == 0 || b == 0) {
      return 0;
    }
    return EXP[LOG[a] + LOG[b]];
  }

  /** a·b in the field; arguments are taken as unsigned bytes. */
  static byte multiply(byte a, byte b) {
    return MULTIPLY[a & 0xFF][b & 0xFF];
  }

  /**
   * a/b in the field.
   *
   * @throws ArithmeticException if {@code b} is zero
   */
  static byte divide(byte a, byte b) {
    if (b == 0) {
      throw new ArithmeticException("division by zero in GF(2^8)");
    }
    if (a == 0) {
      return 0;
    }
    int log = LOG[a & 0xFF] - LOG[b & 0xFF];
    return EXP[log < 0 ? log + 255 : log];
  }

  /**
   * a raised to {@code n >= 0}, with 0^0 = 1 as in Backblaze's {@code Galois.exp}: the first row of
   * the Vandermonde matrix is therefore (1, 0, 0, ...).
   */
  static byte power(byte a, int n) {
    if (n == 0) {
      return 1;
    }
    if (a == 0) {
      return 0;
    }
    return EXP[(LOG[a & 0xFF] * n) % 255];
  }

  /**
   * Writes the split-nibble tables of {@code coefficient} into {@code tables[offset..offset+32)}:
   * 16 products with the low nibbles 0..15, then 16 with the high nibbles 0x00..0xF0. Then c·x =
   * low[x &amp; 15] ^ high[x &gt;&gt;&gt; 4], which a 16-byte shuffle computes for 16 bytes at a
   * time.
   */
  static void nibbleTables(byte coefficient, byte[] tables, int offset) {
    byte[] row = MULTIPLY[coefficient & 0xFF];
    for (int i = 0; i < 16; i++) {
      tables[offset + i] = row[i];
      tables[offset + 16 + i] = row[i << 4];
    }
  }
}
