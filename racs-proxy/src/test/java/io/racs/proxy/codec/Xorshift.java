package io.racs.proxy.codec;

/**
 * The xorshift64* byte stream that the klauspost fixture program ({@code src/test/go/rsfixtures})
 * also uses, so both sides fill data shards with identical bytes from a seed.
 */
final class Xorshift {
  private long x;

  Xorshift(long seed) {
    this.x = seed | 1;
  }

  byte next() {
    x ^= x >>> 12;
    x ^= x << 25;
    x ^= x >>> 27;
    return (byte) ((x * 0x2545F4914F6CDD1DL) >>> 56);
  }

  /** k data shards of {@code length} bytes, then m zeroed parity shards. */
  static byte[][] shards(int k, int m, int length, long seed) {
    Xorshift g = new Xorshift(seed);
    byte[][] shards = new byte[k + m][length];
    for (int s = 0; s < k; s++) {
      for (int i = 0; i < length; i++) {
        shards[s][i] = g.next();
      }
    }
    return shards;
  }
}
