package io.racs.proxy.s3.checksum;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.testkit.SeededBytes;
import java.io.ByteArrayOutputStream;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.checksums.DefaultChecksumAlgorithm;
import software.amazon.awssdk.checksums.SdkChecksum;

/**
 * Proves the multipart ETag and composite checksums are the checksum of the concatenated part
 * checksums with a {@code -N} suffix, computed independently here with the JDK and the SDK.
 */
class MultipartChecksumsTest {
  @Test
  void etag_whenPartsGiven_isMd5OfConcatenatedMd5sWithCount() throws Exception {
    long seed = 77;
    Random r = new Random(seed);
    List<String> etags = new ArrayList<>();
    ByteArrayOutputStream concat = new ByteArrayOutputStream();
    for (int i = 0; i < 3; i++) {
      byte[] part = SeededBytes.bytes(r.nextLong(), 1000 + i);
      byte[] md5 = MessageDigest.getInstance("MD5").digest(part);
      concat.writeBytes(md5);
      String hex = HexFormat.of().formatHex(md5);
      etags.add(i == 1 ? "\"" + hex + "\"" : hex.toUpperCase());
    }
    String expected =
        HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(concat.toByteArray()))
            + "-3";
    assertThat(MultipartChecksums.etag(etags)).as("seed " + seed).isEqualTo(expected);
    assertThatThrownBy(() -> MultipartChecksums.etag(List.of("xyz")))
        .hasMessage("partEtag: xyz (expected: hex MD5)");
    assertThatThrownBy(() -> MultipartChecksums.etag(List.of()))
        .hasMessage("partEtags: [] (expected: at least one part)");
  }

  @Test
  void composite_whenCrc32Parts_isCrc32OfConcatenatedChecksumsWithCount() {
    long seed = 78;
    Random r = new Random(seed);
    List<String> parts = new ArrayList<>();
    ByteArrayOutputStream concat = new ByteArrayOutputStream();
    for (int i = 0; i < 4; i++) {
      byte[] part = SeededBytes.bytes(r.nextLong(), 500 * (i + 1));
      SdkChecksum c = SdkChecksum.forAlgorithm(DefaultChecksumAlgorithm.CRC32C);
      c.update(part, 0, part.length);
      concat.writeBytes(c.getChecksumBytes());
      parts.add(Base64.getEncoder().encodeToString(c.getChecksumBytes()));
    }
    SdkChecksum whole = SdkChecksum.forAlgorithm(DefaultChecksumAlgorithm.CRC32C);
    byte[] all = concat.toByteArray();
    whole.update(all, 0, all.length);
    assertThat(MultipartChecksums.composite(ChecksumAlgorithm.CRC32C, parts))
        .as("seed " + seed)
        .isEqualTo(Base64.getEncoder().encodeToString(whole.getChecksumBytes()) + "-4");
    assertThatThrownBy(() -> MultipartChecksums.composite(ChecksumAlgorithm.SHA256, parts))
        .hasMessageContaining("(expected: base64 SHA256)");
  }
}
