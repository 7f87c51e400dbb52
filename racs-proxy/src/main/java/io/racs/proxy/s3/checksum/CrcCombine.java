package io.racs.proxy.s3.checksum;

/**
 * The CRC of a concatenation from the CRCs of its pieces and their lengths, without the data
 * (zlib's {@code crc32_combine}): {@code crc(A || B) = crc(A) * x^(8 * |B|) mod P xor crc(B)}. This
 * holds for CRCs whose initial value equals their final XOR (all ones for CRC32, CRC32C and
 * CRC64NVME), as the conditioning then cancels out. Arithmetic is in the reflected bit order the
 * three algorithms use. Immutable and thread-safe.
 */
public final class CrcCombine {
  /** The CRC-32 of zlib and S3's {@code CRC32}. */
  public static final CrcCombine CRC32 = new CrcCombine(32, 0xedb88320L);

  /** The CRC-32C (Castagnoli) of S3's {@code CRC32C}. */
  public static final CrcCombine CRC32C = new CrcCombine(32, 0x82f63b78L);

  /** S3's {@code CRC64NVME} ({@link Crc64Nvme}). */
  public static final CrcCombine CRC64NVME = new CrcCombine(64, Crc64Nvme.POLYNOMIAL);

  private final long polynomial;
  private final long one; // x^0 in the reflected order: the top bit
  // x^(2^k) mod P for k = 0..66: a length in bytes (under 2^63) is under 2^66 bits.
  private final long[] powers = new long[67];

  private CrcCombine(int widthBits, long polynomial) {
    this.polynomial = polynomial;
    this.one = 1L << (widthBits - 1);
    powers[0] = one >>> 1; // x^1
    for (int k = 1; k < powers.length; k++) {
      powers[k] = multiply(powers[k - 1], powers[k - 1]);
    }
  }

  /** The combiner for {@code algorithm}, which must be a CRC. */
  public static CrcCombine of(ChecksumAlgorithm algorithm) {
    return switch (algorithm) {
      case CRC32 -> CRC32;
      case CRC32C -> CRC32C;
      case CRC64NVME -> CRC64NVME;
      default ->
          throw new IllegalArgumentException(
              "algorithm: " + algorithm + " (expected: CRC32, CRC32C or CRC64NVME)");
    };
  }

  /**
   * The CRC of {@code A || B}.
   *
   * @param crcA the CRC of {@code A} (a 32-bit CRC in the low bits)
   * @param crcB the CRC of {@code B}
   * @param lengthBytesB the length of {@code B}
   */
  public long combine(long crcA, long crcB, long lengthBytesB) {
    if (lengthBytesB < 0) {
      throw new IllegalArgumentException("lengthBytesB: " + lengthBytesB + " (expected: >= 0)");
    }
    return multiply(shiftOf(lengthBytesB), crcA) ^ crcB;
  }

  /** {@code x^(8 * lengthBytes) mod P}. */
  private long shiftOf(long lengthBytes) {
    long p = one;
    int k = 3; // 8 bits a byte: start at x^(2^3)
    for (long n = lengthBytes; n != 0; n >>>= 1, k++) {
      if ((n & 1) != 0) {
        p = multiply(powers[k], p);
      }
    }
    return p;
  }

  /** {@code a * b mod P}, both reflected. */
  private long multiply(long a, long b) {
    long m = one;
    long p = 0;
    while (true) {
      if ((a & m) != 0) {
        p ^= b;
        if ((a & (m - 1)) == 0) {
          return p;
        }
      }
      m >>>= 1;
      if (m == 0) {
        return p;
      }
      b = (b & 1) != 0 ? (b >>> 1) ^ polynomial : b >>> 1;
    }
  }
}
