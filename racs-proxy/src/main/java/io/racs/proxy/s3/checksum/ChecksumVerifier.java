package io.racs.proxy.s3.checksum;

import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Computes a body's announced checksum (and its MD5 when {@code Content-MD5} was sent) as it
 * streams, and compares them with what the request announced once the body (and its trailers) has
 * ended. The MD5 is not computed otherwise: the store computes the ETag itself, and a second MD5
 * pass would cost as much CPU as the rest of a PUT's data path. Not thread-safe.
 */
public final class ChecksumVerifier {
  private final ChecksumSpec spec;
  private final MessageDigest md5; // null unless Content-MD5 was announced
  private final StreamingChecksum checksum;

  private ChecksumVerifier(ChecksumSpec spec) {
    this.spec = Objects.requireNonNull(spec, "spec");
    this.md5 = spec.contentMd5().isPresent() ? ChecksumAlgorithm.digest("MD5") : null;
    this.checksum = spec.algorithm().map(ChecksumAlgorithm::newChecksum).orElse(null);
  }

  /** A verifier for the checksums {@code spec} announces. */
  public static ChecksumVerifier create(ChecksumSpec spec) {
    return new ChecksumVerifier(spec);
  }

  /** Adds the remaining bytes of {@code data} without moving its position. */
  public void update(ByteBuffer data) {
    if (md5 != null) {
      md5.update(data.duplicate());
    }
    if (checksum != null) {
      checksum.update(data);
    }
  }

  /** Adds {@code length} bytes of {@code data} from {@code offset}. */
  public void update(byte[] data, int offset, int length) {
    if (md5 != null) {
      md5.update(data, offset, length);
    }
    if (checksum != null) {
      checksum.update(data, offset, length);
    }
  }

  /**
   * Ends the computation and compares.
   *
   * @param trailers the body's trailers (lower-case names), where a trailer checksum arrives
   * @return the verified checksums
   * @throws S3Exception {@code BadDigest} on any mismatch; {@code InvalidRequest} when an announced
   *     trailer checksum is missing or malformed
   */
  public ComputedChecksums verify(Map<String, String> trailers) {
    Optional<byte[]> bodyMd5 = Optional.ofNullable(md5).map(MessageDigest::digest);
    if (bodyMd5.isPresent() && !MessageDigest.isEqual(spec.contentMd5().get(), bodyMd5.get())) {
      throw S3Exception.of(S3ErrorCode.BAD_DIGEST);
    }
    if (checksum == null) {
      return new ComputedChecksums(bodyMd5, Optional.empty(), Optional.empty());
    }
    ChecksumAlgorithm a = checksum.algorithm();
    String expected;
    if (spec.inTrailer()) {
      expected = trailers.get(a.headerName());
      if (expected == null) {
        throw S3Exception.of(
            S3ErrorCode.INVALID_REQUEST, "The trailer " + a.headerName() + " is missing.");
      }
      expected = expected.strip();
      ChecksumSpec.checkValue(a, expected, a.headerName());
    } else {
      expected = spec.headerValue().orElseThrow();
    }
    byte[] actual = checksum.digest();
    if (!MessageDigest.isEqual(actual, Base64.getDecoder().decode(expected))) {
      throw S3Exception.of(
          S3ErrorCode.BAD_DIGEST,
          "The " + a.name() + " you specified did not match the calculated checksum.");
    }
    return new ComputedChecksums(
        bodyMd5, Optional.of(a), Optional.of(Base64.getEncoder().encodeToString(actual)));
  }
}
