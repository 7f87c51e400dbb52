package io.racs.proxy.s3.checksum;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.s3.http.Headers;
import io.racs.testkit.SeededBytes;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.checksums.DefaultChecksumAlgorithm;
import software.amazon.awssdk.checksums.SdkChecksum;

/**
 * Proves a body is verified against its announced Content-MD5 and {@code x-amz-checksum-*} value,
 * from a header or a trailer, that any single changed byte is {@code BadDigest}, and that the MD5
 * for the ETag is always computed.
 */
class ChecksumVerifierTest {
  private static String sdkCrc32(byte[] data) {
    SdkChecksum c = SdkChecksum.forAlgorithm(DefaultChecksumAlgorithm.CRC32);
    c.update(data, 0, data.length);
    return Base64.getEncoder().encodeToString(c.getChecksumBytes());
  }

  private static String md5Base64(byte[] data) throws Exception {
    return Base64.getEncoder()
        .encodeToString(java.security.MessageDigest.getInstance("MD5").digest(data));
  }

  @Test
  void verify_whenHeaderChecksumAndMd5Match_returnsThem() throws Exception {
    long seed = 99;
    byte[] body = SeededBytes.bytes(seed, 50_000);
    ChecksumSpec spec =
        ChecksumSpec.fromHeaders(
            Headers.of("x-amz-checksum-crc32", sdkCrc32(body), "Content-MD5", md5Base64(body)));
    ChecksumVerifier v = ChecksumVerifier.create(spec);
    v.update(ByteBuffer.wrap(body, 0, 20_000));
    v.update(body, 20_000, 30_000);
    ComputedChecksums c = v.verify(Map.of());
    assertThat(c.algorithm()).contains(ChecksumAlgorithm.CRC32);
    assertThat(c.base64Value()).as("seed " + seed).contains(sdkCrc32(body));
    assertThat(c.md5Hex())
        .contains(HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(body)));
  }

  @Test
  void verify_whenAnyByteChanged_badDigest() throws Exception {
    long seed = 123;
    Random r = new Random(seed);
    byte[] body = SeededBytes.bytes(r.nextLong(), 4096);
    for (String header : new String[] {"x-amz-checksum-crc32", "Content-MD5"}) {
      for (int i = 0; i < 20; i++) {
        byte[] changed = body.clone();
        changed[r.nextInt(changed.length)] ^= (byte) (1 + r.nextInt(255));
        String value = header.equals("Content-MD5") ? md5Base64(body) : sdkCrc32(body);
        ChecksumVerifier v =
            ChecksumVerifier.create(ChecksumSpec.fromHeaders(Headers.of(header, value)));
        v.update(changed, 0, changed.length);
        assertThatThrownBy(() -> v.verify(Map.of()))
            .as("seed " + seed + " " + header)
            .isInstanceOfSatisfying(
                S3Exception.class, e -> assertThat(e.code()).isEqualTo(S3ErrorCode.BAD_DIGEST));
      }
    }
  }

  @Test
  void verify_whenTrailerChecksum_comparesTrailerValue() {
    byte[] body = {1, 2, 3, 4, 5};
    ChecksumSpec spec =
        ChecksumSpec.fromHeaders(Headers.of("x-amz-trailer", "x-amz-checksum-crc32"));
    ChecksumVerifier ok = ChecksumVerifier.create(spec);
    ok.update(body, 0, body.length);
    assertThat(ok.verify(Map.of("x-amz-checksum-crc32", sdkCrc32(body))).base64Value())
        .contains(sdkCrc32(body));

    ChecksumVerifier bad = ChecksumVerifier.create(spec);
    bad.update(body, 0, 4);
    assertThatThrownBy(() -> bad.verify(Map.of("x-amz-checksum-crc32", sdkCrc32(body))))
        .isInstanceOfSatisfying(
            S3Exception.class, e -> assertThat(e.code()).isEqualTo(S3ErrorCode.BAD_DIGEST));

    ChecksumVerifier missing = ChecksumVerifier.create(spec);
    assertThatThrownBy(() -> missing.verify(Map.of()))
        .isInstanceOfSatisfying(
            S3Exception.class, e -> assertThat(e.code()).isEqualTo(S3ErrorCode.INVALID_REQUEST));
    ChecksumVerifier malformed = ChecksumVerifier.create(spec);
    assertThatThrownBy(() -> malformed.verify(Map.of("x-amz-checksum-crc32", "??")))
        .isInstanceOfSatisfying(
            S3Exception.class, e -> assertThat(e.code()).isEqualTo(S3ErrorCode.INVALID_REQUEST));
  }

  @Test
  void verify_whenNothingAnnounced_computesNoMd5() {
    ChecksumVerifier v = ChecksumVerifier.create(ChecksumSpec.NONE);
    v.update(new byte[] {1, 2, 3}, 0, 3);
    ComputedChecksums c = v.verify(Map.of());
    assertThat(c.md5Hex()).isEmpty();
    assertThat(c.algorithm()).isEmpty();
  }
}
