package io.racs.proxy.s3.checksum;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.s3.http.Headers;
import io.racs.testkit.TestSeed;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.assertj.core.api.ThrowableAssert;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Proves a CompleteMultipartUpload's object checksum as S3 checks it: a composite value (with or
 * without {@code -N}) against the parts' checksums, a full-object CRC against the CRC of the whole
 * data (combined from the parts' CRCs), the types each algorithm offers, the part checksums of the
 * body against the stored ones, and the error of each mismatch.
 */
class CompletionChecksumsTest {
  private long seed;
  private byte[][] data;

  @BeforeEach
  void parts() {
    seed = TestSeed.get();
    Random random = new Random(seed);
    data = new byte[2 + random.nextInt(3)][];
    for (int i = 0; i < data.length; i++) {
      data[i] = new byte[1 + random.nextInt(50_000)];
      random.nextBytes(data[i]);
    }
  }

  private static String checksum(ChecksumAlgorithm a, byte[]... pieces) {
    StreamingChecksum c = a.newChecksum();
    for (byte[] p : pieces) {
      c.update(p, 0, p.length);
    }
    return c.base64();
  }

  private List<CompletionChecksums.Part> stored(ChecksumAlgorithm a) {
    List<CompletionChecksums.Part> parts = new ArrayList<>();
    for (byte[] d : data) {
      parts.add(new CompletionChecksums.Part(d.length, Map.of(a.name(), checksum(a, d)), Map.of()));
    }
    return parts;
  }

  private String composite(ChecksumAlgorithm a) {
    List<String> values = new ArrayList<>();
    for (byte[] d : data) {
      values.add(checksum(a, d));
    }
    return MultipartChecksums.composite(a, values);
  }

  private String whole(ChecksumAlgorithm a) {
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    for (byte[] d : data) {
      all.writeBytes(d);
    }
    return checksum(a, all.toByteArray());
  }

  private static CompletionChecksums announced(String... headers) {
    return CompletionChecksums.fromHeaders(Headers.of(headers));
  }

  private static void assertCode(S3ErrorCode code, ThrowableAssert.ThrowingCallable call) {
    assertThatThrownBy(call)
        .isInstanceOfSatisfying(S3Exception.class, e -> assertThat(e.code()).isEqualTo(code));
  }

  @ParameterizedTest
  @EnumSource(
      value = ChecksumAlgorithm.class,
      names = {"CRC32", "CRC32C", "CRC64NVME"})
  void objectChecksums_whenFullObjectAnnounced_isTheWholeDatasCrc(ChecksumAlgorithm a) {
    String expected = whole(a);
    Map<String, String> got =
        announced(a.headerName(), expected, "x-amz-checksum-type", "FULL_OBJECT")
            .objectChecksums(stored(a));
    assertThat(got).as("seed " + seed).isEqualTo(Map.of(a.name(), expected));
    // Without the type header a suffix-less value that is not the composite one is the whole's.
    assertThat(announced(a.headerName(), expected).objectChecksums(stored(a)))
        .as("seed " + seed)
        .isEqualTo(Map.of(a.name(), expected));
  }

  @ParameterizedTest
  @EnumSource(
      value = ChecksumAlgorithm.class,
      names = {"CRC32", "CRC32C", "SHA1", "SHA256"})
  void objectChecksums_whenCompositeAnnounced_acceptsItWithOrWithoutPartCount(ChecksumAlgorithm a) {
    String composite = composite(a);
    String bare = ChecksumType.withoutPartCount(composite);
    assertThat(composite).endsWith("-" + data.length);
    for (String value : List.of(composite, bare)) {
      assertThat(announced(a.headerName(), value).objectChecksums(stored(a)))
          .as("seed %d value %s", seed, value)
          .isEqualTo(Map.of(a.name(), composite));
      assertThat(
              announced(a.headerName(), value, "x-amz-checksum-type", "COMPOSITE")
                  .objectChecksums(stored(a)))
          .isEqualTo(Map.of(a.name(), composite));
    }
  }

  @Test
  void objectChecksums_whenNothingAnnounced_followsTheAlgorithm() {
    assertThat(announced().objectChecksums(stored(ChecksumAlgorithm.CRC32)))
        .isEqualTo(Map.of("CRC32", composite(ChecksumAlgorithm.CRC32)));
    assertThat(announced().objectChecksums(stored(ChecksumAlgorithm.CRC64NVME)))
        .isEqualTo(Map.of("CRC64NVME", whole(ChecksumAlgorithm.CRC64NVME)));
    assertThat(
            announced("x-amz-checksum-type", "FULL_OBJECT")
                .objectChecksums(stored(ChecksumAlgorithm.CRC32C)))
        .isEqualTo(Map.of("CRC32C", whole(ChecksumAlgorithm.CRC32C)));
    List<CompletionChecksums.Part> none =
        List.of(new CompletionChecksums.Part(3, Map.of(), Map.of()));
    assertThat(announced().objectChecksums(none)).isEmpty();
  }

  @ParameterizedTest
  @EnumSource(ChecksumAlgorithm.class)
  void objectChecksums_whenValueDiffers_badDigestForEitherType(ChecksumAlgorithm a) {
    String wrong = checksum(a, new byte[] {1, 2, 3});
    assertCode(
        S3ErrorCode.BAD_DIGEST, () -> announced(a.headerName(), wrong).objectChecksums(stored(a)));
    if (a != ChecksumAlgorithm.CRC64NVME) {
      assertCode(
          S3ErrorCode.BAD_DIGEST,
          () -> announced(a.headerName(), wrong + "-" + data.length).objectChecksums(stored(a)));
      String otherCount = ChecksumType.withoutPartCount(composite(a)) + "-" + (data.length + 1);
      assertCode(
          S3ErrorCode.BAD_DIGEST,
          () -> announced(a.headerName(), otherCount).objectChecksums(stored(a)));
    }
    if (a.isCrc() && a != ChecksumAlgorithm.CRC64NVME) {
      // The whole's CRC announced as composite is no composite value.
      assertCode(
          S3ErrorCode.BAD_DIGEST,
          () ->
              announced(a.headerName(), whole(a), "x-amz-checksum-type", "COMPOSITE")
                  .objectChecksums(stored(a)));
    }
  }

  @Test
  void fromHeaders_whenTypeNotOfferedOrMalformed_invalidRequest() {
    assertCode(
        S3ErrorCode.INVALID_REQUEST,
        () ->
            announced(
                "x-amz-checksum-sha256",
                checksum(ChecksumAlgorithm.SHA256, new byte[0]),
                "x-amz-checksum-type",
                "FULL_OBJECT"));
    assertCode(
        S3ErrorCode.INVALID_REQUEST,
        () ->
            announced(
                "x-amz-checksum-crc64nvme",
                checksum(ChecksumAlgorithm.CRC64NVME, new byte[0]),
                "x-amz-checksum-type",
                "COMPOSITE"));
    assertCode(S3ErrorCode.INVALID_REQUEST, () -> announced("x-amz-checksum-type", "WHOLE"));
    assertCode(S3ErrorCode.INVALID_REQUEST, () -> announced("x-amz-checksum-crc32", "abc"));
    assertCode(
        S3ErrorCode.INVALID_REQUEST,
        () ->
            UploadChecksum.fromCreate(
                Headers.of(
                    "x-amz-checksum-algorithm", "SHA1", "x-amz-checksum-type", "FULL_OBJECT")));
    UploadChecksum.fromCreate(
        Headers.of("x-amz-checksum-algorithm", "crc64nvme", "x-amz-checksum-type", "FULL_OBJECT"));
  }

  @Test
  void objectChecksums_whenFullObjectTypeOnShaParts_invalidRequest() {
    assertCode(
        S3ErrorCode.INVALID_REQUEST,
        () ->
            announced("x-amz-checksum-type", "FULL_OBJECT")
                .objectChecksums(stored(ChecksumAlgorithm.SHA256)));
  }

  @Test
  void objectChecksums_whenPartsLackTheAlgorithm_invalidRequest() {
    assertCode(
        S3ErrorCode.INVALID_REQUEST,
        () ->
            announced("x-amz-checksum-crc32c", whole(ChecksumAlgorithm.CRC32C))
                .objectChecksums(stored(ChecksumAlgorithm.CRC32)));
  }

  @Test
  void objectChecksums_whenBodyNamesPartChecksums_theyMustBeTheStoredOnes() {
    ChecksumAlgorithm a = ChecksumAlgorithm.CRC32C;
    List<CompletionChecksums.Part> right = new ArrayList<>();
    List<CompletionChecksums.Part> wrong = new ArrayList<>();
    List<CompletionChecksums.Part> otherAlgorithm = new ArrayList<>();
    for (CompletionChecksums.Part p : stored(a)) {
      String value = p.stored().get(a.name());
      right.add(new CompletionChecksums.Part(p.sizeBytes(), p.stored(), Map.of(a, value)));
      wrong.add(
          new CompletionChecksums.Part(
              p.sizeBytes(), p.stored(), Map.of(a, checksum(a, new byte[] {9}))));
      otherAlgorithm.add(
          new CompletionChecksums.Part(
              p.sizeBytes(),
              p.stored(),
              Map.of(ChecksumAlgorithm.CRC32, checksum(ChecksumAlgorithm.CRC32, new byte[0]))));
    }
    assertThat(announced().objectChecksums(right)).isEqualTo(Map.of(a.name(), composite(a)));
    assertCode(S3ErrorCode.INVALID_PART, () -> announced().objectChecksums(wrong));
    assertCode(S3ErrorCode.INVALID_PART, () -> announced().objectChecksums(otherAlgorithm));
  }

  @Test
  void forCompletion_whenObjectChecksumHeaderSent_announcesNoBodyChecksum() {
    ChecksumSpec spec =
        ChecksumSpec.forCompletion(
            Headers.of(
                "x-amz-checksum-crc32c",
                "AAAAAA==",
                "x-amz-sdk-checksum-algorithm",
                "CRC32C",
                "x-amz-checksum-type",
                "COMPOSITE"));
    assertThat(spec.algorithm()).isEmpty();
    assertThat(spec.headerValue()).isEmpty();
    assertThat(
            ChecksumSpec.fromHeaders(Headers.of("x-amz-checksum-crc32c", "AAAAAA==")).algorithm())
        .contains(ChecksumAlgorithm.CRC32C);
  }

  @Test
  void ofValue_whenSuffixed_composite() {
    assertThat(ChecksumType.ofValue("AAAAAA==-3")).isEqualTo(ChecksumType.COMPOSITE);
    assertThat(ChecksumType.ofValue("AAAAAA==")).isEqualTo(ChecksumType.FULL_OBJECT);
    assertThat(ChecksumType.withoutPartCount("AAAAAA==-12")).isEqualTo("AAAAAA==");
  }
}
