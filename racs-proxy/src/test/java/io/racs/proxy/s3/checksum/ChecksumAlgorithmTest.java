package io.racs.proxy.s3.checksum;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.testkit.SeededBytes;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.checksums.DefaultChecksumAlgorithm;
import software.amazon.awssdk.checksums.SdkChecksum;

/**
 * Proves every checksum algorithm, CRC64NVME included, matches the published check values and the
 * AWS SDK v2's own implementation (the CRT's, for CRC64NVME) on seeded random data fed in random
 * pieces, through arrays, heap buffers and direct buffers alike.
 */
class ChecksumAlgorithmTest {
  private static final byte[] CHECK = "123456789".getBytes(StandardCharsets.US_ASCII);

  private static software.amazon.awssdk.checksums.spi.ChecksumAlgorithm sdk(ChecksumAlgorithm a) {
    return switch (a) {
      case CRC32 -> DefaultChecksumAlgorithm.CRC32;
      case CRC32C -> DefaultChecksumAlgorithm.CRC32C;
      case CRC64NVME -> DefaultChecksumAlgorithm.CRC64NVME;
      case SHA1 -> DefaultChecksumAlgorithm.SHA1;
      case SHA256 -> DefaultChecksumAlgorithm.SHA256;
    };
  }

  @Test
  void crc64Nvme_whenCheckString_givesPublishedCheckValue() {
    Crc64Nvme crc = new Crc64Nvme();
    crc.update(CHECK, 0, CHECK.length);
    assertThat(crc.getValue()).isEqualTo(0xae8b14860a799888L);
    crc.reset();
    for (byte b : CHECK) {
      crc.update(b);
    }
    assertThat(crc.getValue()).isEqualTo(0xae8b14860a799888L);
    crc.reset();
    assertThat(crc.getValue()).isZero();
  }

  @Test
  void crcs_whenCheckString_givePublishedCheckValues() {
    assertThat(hexOf(ChecksumAlgorithm.CRC32, CHECK)).isEqualTo("cbf43926");
    assertThat(hexOf(ChecksumAlgorithm.CRC32C, CHECK)).isEqualTo("e3069283");
    assertThat(hexOf(ChecksumAlgorithm.CRC64NVME, CHECK)).isEqualTo("ae8b14860a799888");
    assertThat(hexOf(ChecksumAlgorithm.SHA1, new byte[0]))
        .isEqualTo("da39a3ee5e6b4b0d3255bfef95601890afd80709");
  }

  private static String hexOf(ChecksumAlgorithm a, byte[] data) {
    StreamingChecksum c = a.newChecksum();
    c.update(data, 0, data.length);
    return HexFormat.of().formatHex(c.digest());
  }

  @ParameterizedTest
  @EnumSource(ChecksumAlgorithm.class)
  void newChecksum_whenRandomDataInPieces_matchesSdk(ChecksumAlgorithm algorithm) {
    long seed = 0xc4c0_0000L + algorithm.ordinal();
    Random r = new Random(seed);
    for (int round = 0; round < 40; round++) {
      byte[] data = SeededBytes.bytes(r.nextLong(), round < 20 ? round : r.nextInt(300_000));
      SdkChecksum expected = SdkChecksum.forAlgorithm(sdk(algorithm));
      expected.update(data, 0, data.length);
      StreamingChecksum actual = algorithm.newChecksum();
      int pos = 0;
      while (pos < data.length) {
        int n = Math.min(data.length - pos, r.nextInt(20_000) + 1);
        switch (r.nextInt(3)) {
          case 0 -> actual.update(data, pos, n);
          case 1 -> {
            ByteBuffer heap = ByteBuffer.wrap(data, pos, n);
            actual.update(heap);
            assertThat(heap.position()).isEqualTo(pos);
          }
          default -> {
            ByteBuffer direct = ByteBuffer.allocateDirect(n);
            direct.put(data, pos, n).flip();
            actual.update(direct);
          }
        }
        pos += n;
      }
      assertThat(actual.base64())
          .as("seed " + seed + " round " + round + " length " + data.length)
          .isEqualTo(Base64.getEncoder().encodeToString(expected.getChecksumBytes()));
    }
  }

  @Test
  void names_whenParsed_roundTrip() {
    for (ChecksumAlgorithm a : ChecksumAlgorithm.values()) {
      assertThat(ChecksumAlgorithm.fromName(a.name().toLowerCase())).contains(a);
      assertThat(ChecksumAlgorithm.fromHeaderName(a.headerName().toUpperCase())).contains(a);
      assertThat(a.xmlElement()).isEqualTo("Checksum" + a.name());
    }
    assertThat(ChecksumAlgorithm.fromName("MD5")).isEmpty();
    assertThat(ChecksumAlgorithm.fromHeaderName("x-amz-checksum-mode")).isEmpty();
    assertThat(ChecksumAlgorithm.CRC64NVME.headerName()).isEqualTo("x-amz-checksum-crc64nvme");
  }
}
