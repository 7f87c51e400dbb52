package io.racs.proxy.s3.checksum;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.s3.http.Headers;
import io.racs.testkit.TestSeed;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.assertj.core.api.ThrowableAssert;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Proves the checksum a CreateMultipartUpload records as S3 records it: which algorithm and type
 * pairs it takes (and the type it gives each algorithm named alone), that a part announcing another
 * algorithm is refused while one announcing none gets the upload's computed over its bytes, and
 * that the completion takes the recorded type and refuses another algorithm or type.
 */
class UploadChecksumTest {
  private static void assertInvalidRequest(ThrowableAssert.ThrowingCallable call) {
    assertThatThrownBy(call)
        .isInstanceOfSatisfying(
            S3Exception.class, e -> assertThat(e.code()).isEqualTo(S3ErrorCode.INVALID_REQUEST));
  }

  private static Optional<UploadChecksum> create(String... headers) {
    return UploadChecksum.fromCreate(Headers.of(headers));
  }

  @ParameterizedTest
  @CsvSource({
    "CRC32,,COMPOSITE",
    "crc32c,,COMPOSITE",
    "SHA1,,COMPOSITE",
    "SHA256,COMPOSITE,COMPOSITE",
    "CRC64NVME,,FULL_OBJECT",
    "CRC32,FULL_OBJECT,FULL_OBJECT",
    "CRC32C,full_object,FULL_OBJECT",
    "CRC64NVME,FULL_OBJECT,FULL_OBJECT"
  })
  void fromCreate_whenTheTypeIsOffered_recordsItOrTheDefault(
      String algorithm, String type, ChecksumType expected) {
    Optional<UploadChecksum> recorded =
        type == null
            ? create("x-amz-checksum-algorithm", algorithm)
            : create("x-amz-checksum-algorithm", algorithm, "x-amz-checksum-type", type);
    assertThat(recorded)
        .contains(
            new UploadChecksum(ChecksumAlgorithm.fromName(algorithm).orElseThrow(), expected));
  }

  @Test
  void fromCreate_whenRefusedByS3_invalidRequest() {
    assertInvalidRequest(() -> create("x-amz-checksum-algorithm", "MD5"));
    assertInvalidRequest(
        () -> create("x-amz-checksum-algorithm", "CRC32", "x-amz-checksum-type", "WHOLE"));
    assertInvalidRequest(() -> create("x-amz-checksum-type", "FULL_OBJECT"));
    assertInvalidRequest(
        () -> create("x-amz-checksum-algorithm", "SHA1", "x-amz-checksum-type", "FULL_OBJECT"));
    assertInvalidRequest(
        () -> create("x-amz-checksum-algorithm", "SHA256", "x-amz-checksum-type", "FULL_OBJECT"));
    assertInvalidRequest(
        () -> create("x-amz-checksum-algorithm", "CRC64NVME", "x-amz-checksum-type", "COMPOSITE"));
    assertThat(create()).isEmpty();
  }

  @Test
  void recorded_whenNoneOrWithoutType_isEmptyOrTheDefault() {
    assertThat(UploadChecksum.recorded(null, null)).isEmpty();
    assertThat(UploadChecksum.recorded("CRC64NVME", null))
        .contains(new UploadChecksum(ChecksumAlgorithm.CRC64NVME, ChecksumType.FULL_OBJECT));
    assertThat(UploadChecksum.recorded("CRC32C", "FULL_OBJECT"))
        .contains(new UploadChecksum(ChecksumAlgorithm.CRC32C, ChecksumType.FULL_OBJECT));
    assertThatThrownBy(() -> UploadChecksum.recorded("XXHASH3", null))
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void partChecksum_whenThePartAnnouncesAnotherAlgorithm_invalidRequest() {
    PartChecksum part = PartChecksum.announcing(Optional.of(ChecksumAlgorithm.SHA256));
    assertInvalidRequest(
        () ->
            part.check(
                Optional.of(new UploadChecksum(ChecksumAlgorithm.CRC32, ChecksumType.COMPOSITE))));
  }

  @Test
  void partChecksum_whenThePartAnnouncesNone_computesTheUploadsOverItsBytes() throws IOException {
    long seed = TestSeed.get();
    byte[] data = new byte[1 + new Random(seed).nextInt(200_000)];
    new Random(seed).nextBytes(data);
    PartChecksum part = PartChecksum.announcing(Optional.empty());
    InputStream body = part.wrap(new ByteArrayInputStream(data));
    part.check(Optional.of(new UploadChecksum(ChecksumAlgorithm.CRC32C, ChecksumType.COMPOSITE)));
    // A read, a skip and a bulk read all count (seed printed by TestSeed).
    body.read();
    body.skip(Math.min(10, data.length - 1));
    body.readAllBytes();
    StreamingChecksum expected = ChecksumAlgorithm.CRC32C.newChecksum();
    expected.update(data, 0, data.length);
    assertThat(part.checksums(Map.of())).containsExactly(Map.entry("CRC32C", expected.base64()));
  }

  @Test
  void partChecksum_whenTheUploadRecordedNone_keepsWhatThePartAnnounced() throws IOException {
    PartChecksum none = PartChecksum.announcing(Optional.empty());
    none.wrap(new ByteArrayInputStream(new byte[] {1, 2})).readAllBytes();
    none.check(Optional.empty());
    assertThat(none.checksums(Map.of())).isEmpty();
    PartChecksum sha = PartChecksum.announcing(Optional.of(ChecksumAlgorithm.SHA1));
    sha.check(Optional.of(new UploadChecksum(ChecksumAlgorithm.SHA1, ChecksumType.COMPOSITE)));
    assertThat(sha.checksums(Map.of("SHA1", "v"))).containsExactly(Map.entry("SHA1", "v"));
  }

  private static List<CompletionChecksums.Part> crc32Parts(byte[]... parts) {
    List<CompletionChecksums.Part> out = new ArrayList<>();
    for (byte[] p : parts) {
      StreamingChecksum c = ChecksumAlgorithm.CRC32.newChecksum();
      c.update(p, 0, p.length);
      out.add(new CompletionChecksums.Part(p.length, Map.of("CRC32", c.base64()), Map.of()));
    }
    return out;
  }

  @Test
  void withRecorded_whenTheCompletionNamesNoType_takesTheRecordedOne() {
    byte[] a = {1, 2, 3};
    byte[] b = {4, 5};
    StreamingChecksum whole = ChecksumAlgorithm.CRC32.newChecksum();
    whole.update(new byte[] {1, 2, 3, 4, 5}, 0, 5);
    CompletionChecksums named = CompletionChecksums.fromHeaders(Headers.empty());
    Map<String, String> full =
        named
            .withRecorded(
                Optional.of(new UploadChecksum(ChecksumAlgorithm.CRC32, ChecksumType.FULL_OBJECT)))
            .objectChecksums(crc32Parts(a, b));
    assertThat(full).containsExactly(Map.entry("CRC32", whole.base64()));
    Map<String, String> composite =
        named
            .withRecorded(
                Optional.of(new UploadChecksum(ChecksumAlgorithm.CRC32, ChecksumType.COMPOSITE)))
            .objectChecksums(crc32Parts(a, b));
    assertThat(composite.get("CRC32")).endsWith("-2");
    assertThat(named.withRecorded(Optional.empty())).isSameAs(named);
  }

  @Test
  void withRecorded_whenTheCompletionNamesAnotherTypeOrAlgorithm_invalidRequest() {
    Optional<UploadChecksum> full =
        Optional.of(new UploadChecksum(ChecksumAlgorithm.CRC32, ChecksumType.FULL_OBJECT));
    assertInvalidRequest(
        () ->
            CompletionChecksums.fromHeaders(Headers.of("x-amz-checksum-type", "COMPOSITE"))
                .withRecorded(full));
    assertInvalidRequest(
        () ->
            CompletionChecksums.fromHeaders(Headers.of("x-amz-checksum-crc32c", "AAAAAA=="))
                .withRecorded(full));
  }
}
