package io.racs.proxy.s3.checksum;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.testkit.TestSeed;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Proves that combining the CRCs of pieces gives the CRC computed over their concatenation, for
 * CRC32, CRC32C and CRC64NVME, over random piece counts and sizes (empty pieces and sizes around a
 * power of two among them).
 */
class CrcCombineTest {
  @ParameterizedTest
  @EnumSource(
      value = ChecksumAlgorithm.class,
      names = {"CRC32", "CRC32C", "CRC64NVME"})
  void combine_whenRandomPieces_equalsCrcOfTheWhole(ChecksumAlgorithm algorithm) {
    long seed = TestSeed.get();
    Random random = new Random(seed);
    CrcCombine combine = CrcCombine.of(algorithm);
    for (int round = 0; round < 40; round++) {
      int pieces = 1 + random.nextInt(6);
      byte[][] data = new byte[pieces][];
      for (int i = 0; i < pieces; i++) {
        int size =
            switch (random.nextInt(4)) {
              case 0 -> 0;
              case 1 -> (1 << random.nextInt(17)) + random.nextInt(3) - 1;
              default -> random.nextInt(70_000);
            };
        data[i] = new byte[Math.max(0, size)];
        random.nextBytes(data[i]);
      }
      StreamingChecksum whole = algorithm.newChecksum();
      long combined = 0;
      for (int i = 0; i < pieces; i++) {
        whole.update(data[i], 0, data[i].length);
        long piece = crc(algorithm, data[i]);
        combined = i == 0 ? piece : combine.combine(combined, piece, data[i].length);
      }
      assertThat(combined)
          .as("seed %d round %d sizes %s", seed, round, Arrays.toString(sizes(data)))
          .isEqualTo(value(algorithm, whole.digest()));
    }
  }

  @ParameterizedTest
  @EnumSource(
      value = ChecksumAlgorithm.class,
      names = {"CRC32", "CRC32C", "CRC64NVME"})
  void combine_whenPiecesAreGibibytes_agreesWithMebibyteSteps(ChecksumAlgorithm algorithm) {
    // 4 GiB of zero bytes without the data: by doubling (shifts up to 2 GiB, the high powers of x)
    // and by 4096 steps of 1 MiB; a wrong power of x tells them apart.
    byte[] mebibyte = new byte[1 << 20];
    CrcCombine combine = CrcCombine.of(algorithm);
    long piece = crc(algorithm, mebibyte);
    long crc = piece;
    long length = mebibyte.length;
    for (int i = 0; i < 12; i++) {
      crc = combine.combine(crc, crc, length);
      length *= 2;
    }
    long viaPieces = piece;
    for (int i = 1; i < 4096; i++) {
      viaPieces = combine.combine(viaPieces, piece, mebibyte.length);
    }
    assertThat(length).isEqualTo(4L << 30);
    assertThat(crc).isEqualTo(viaPieces);
  }

  @ParameterizedTest
  @EnumSource(
      value = ChecksumAlgorithm.class,
      names = {"SHA1", "SHA256"})
  void of_whenNotACrc_refuses(ChecksumAlgorithm algorithm) {
    assertThatThrownBy(() -> CrcCombine.of(algorithm))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("expected: CRC32, CRC32C or CRC64NVME");
  }

  private static int[] sizes(byte[][] data) {
    return Arrays.stream(data).mapToInt(d -> d.length).toArray();
  }

  private static long crc(ChecksumAlgorithm algorithm, byte[] data) {
    StreamingChecksum c = algorithm.newChecksum();
    c.update(data, 0, data.length);
    return value(algorithm, c.digest());
  }

  private static long value(ChecksumAlgorithm algorithm, byte[] digest) {
    ByteBuffer b = ByteBuffer.wrap(digest);
    return algorithm.lengthBytes() == 4 ? b.getInt() & 0xffffffffL : b.getLong();
  }
}
