package io.racs.proxy.s3.checksum;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.s3.http.Headers;
import org.junit.jupiter.api.Test;

/**
 * Proves the announced checksums are read from headers as S3 reads them: one {@code
 * x-amz-checksum-*} value or trailer, a consistent {@code x-amz-sdk-checksum-algorithm}, a
 * well-formed Content-MD5, and the S3 error for each violation.
 */
class ChecksumSpecTest {
  private static void assertCode(Headers h, S3ErrorCode code) {
    assertThatThrownBy(() -> ChecksumSpec.fromHeaders(h))
        .isInstanceOfSatisfying(S3Exception.class, e -> assertThat(e.code()).isEqualTo(code));
  }

  @Test
  void fromHeaders_whenNothingAnnounced_none() {
    assertThat(ChecksumSpec.fromHeaders(Headers.of("x-amz-checksum-mode", "ENABLED")))
        .usingRecursiveComparison()
        .isEqualTo(ChecksumSpec.NONE);
  }

  @Test
  void fromHeaders_whenHeaderValue_readsAlgorithmAndValue() {
    ChecksumSpec s =
        ChecksumSpec.fromHeaders(
            Headers.of(
                "X-Amz-Checksum-CRC32", "AAAAAA==", "x-amz-sdk-checksum-algorithm", "crc32"));
    assertThat(s.algorithm()).contains(ChecksumAlgorithm.CRC32);
    assertThat(s.headerValue()).contains("AAAAAA==");
    assertThat(s.inTrailer()).isFalse();
  }

  @Test
  void fromHeaders_whenTrailerDeclared_readsAlgorithmOnly() {
    ChecksumSpec s =
        ChecksumSpec.fromHeaders(
            Headers.of(
                "x-amz-trailer", "x-amz-checksum-crc64nvme",
                "x-amz-sdk-checksum-algorithm", "CRC64NVME"));
    assertThat(s.algorithm()).contains(ChecksumAlgorithm.CRC64NVME);
    assertThat(s.headerValue()).isEmpty();
    assertThat(s.inTrailer()).isTrue();
  }

  @Test
  void fromHeaders_whenContentMd5_decodesIt() {
    ChecksumSpec s =
        ChecksumSpec.fromHeaders(Headers.of("Content-MD5", "1B2M2Y8AsgTpgAmY7PhCfg=="));
    assertThat(s.contentMd5()).isPresent();
    assertThat(s.contentMd5().get()).hasSize(16);
  }

  @Test
  void fromHeaders_whenContentMd5Malformed_invalidDigest() {
    assertCode(Headers.of("Content-MD5", "not base64!"), S3ErrorCode.INVALID_DIGEST);
    assertCode(Headers.of("Content-MD5", "AAAA"), S3ErrorCode.INVALID_DIGEST);
  }

  @Test
  void fromHeaders_whenValueMalformedOrWrongLength_invalidRequest() {
    assertCode(Headers.of("x-amz-checksum-crc32", "AAAAAAAA"), S3ErrorCode.INVALID_REQUEST);
    assertCode(Headers.of("x-amz-checksum-sha256", "%%%"), S3ErrorCode.INVALID_REQUEST);
    assertCode(Headers.of("x-amz-checksum-md5", "AAAAAA=="), S3ErrorCode.INVALID_REQUEST);
  }

  @Test
  void fromHeaders_whenTwoChecksums_invalidRequest() {
    assertCode(
        Headers.of("x-amz-checksum-crc32", "AAAAAA==", "x-amz-checksum-crc32c", "AAAAAA=="),
        S3ErrorCode.INVALID_REQUEST);
    assertCode(
        Headers.of("x-amz-checksum-crc32", "AAAAAA==", "x-amz-trailer", "x-amz-checksum-crc32c"),
        S3ErrorCode.INVALID_REQUEST);
  }

  @Test
  void fromHeaders_whenSdkAlgorithmDisagreesOrUnknown_invalidRequest() {
    assertCode(
        Headers.of("x-amz-sdk-checksum-algorithm", "CRC32C", "x-amz-checksum-crc32", "AAAAAA=="),
        S3ErrorCode.INVALID_REQUEST);
    assertCode(Headers.of("x-amz-sdk-checksum-algorithm", "CRC32"), S3ErrorCode.INVALID_REQUEST);
    assertCode(Headers.of("x-amz-sdk-checksum-algorithm", "XXHASH"), S3ErrorCode.INVALID_REQUEST);
  }
}
