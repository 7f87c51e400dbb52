package io.racs.proxy.s3.checksum;

import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.s3.http.Headers;
import java.util.Locale;
import java.util.Optional;

/**
 * The checksum a multipart upload's object is to have, named at CreateMultipartUpload by {@code
 * x-amz-checksum-algorithm} and {@code x-amz-checksum-type} and recorded with the upload, as S3
 * records it. Every part of such an upload is stored with a checksum of its algorithm ({@link
 * PartChecksum}), and its completion computes the object's checksum of its type ({@link
 * CompletionChecksums#withRecorded}). An upload created without an algorithm (or by a version that
 * did not record it) keeps S3's older leniency: its parts may carry any checksum, and the
 * completion judges the type.
 *
 * @param algorithm the algorithm every part is checksummed with
 * @param type how the object's checksum covers it: as named, or S3's default for the algorithm
 *     (full-object for CRC64NVME, composite for the others)
 */
public record UploadChecksum(ChecksumAlgorithm algorithm, ChecksumType type) {
  /** Checks that {@code type} is offered for {@code algorithm}. */
  public UploadChecksum {
    if (!type.supports(algorithm)) {
      throw new IllegalArgumentException(
          "type: " + type + " (expected: a type " + algorithm + " offers)");
    }
  }

  /**
   * What a CreateMultipartUpload names, checked as S3 checks it.
   *
   * @return empty when it names no algorithm (nor type)
   * @throws S3Exception {@code InvalidRequest} for an unknown algorithm or type, a type without an
   *     algorithm, or a type the algorithm does not offer (full-object only for CRCs, composite not
   *     for CRC64NVME)
   */
  public static Optional<UploadChecksum> fromCreate(Headers headers) {
    Optional<ChecksumType> type = CompletionChecksums.typeOf(headers);
    Optional<String> name = headers.first("x-amz-checksum-algorithm");
    if (name.isEmpty()) {
      if (type.isPresent()) {
        throw S3Exception.of(
            S3ErrorCode.INVALID_REQUEST,
            "The x-amz-checksum-type header can only be used with the x-amz-checksum-algorithm"
                + " header.");
      }
      return Optional.empty();
    }
    ChecksumAlgorithm algorithm = ChecksumSpec.namedAlgorithm(name.get());
    type.ifPresent(t -> CompletionChecksums.checkSupported(t, algorithm));
    return Optional.of(new UploadChecksum(algorithm, type.orElseGet(() -> defaultType(algorithm))));
  }

  /**
   * The checksum an upload's record keeps (the names {@link #algorithm()} and {@link #type()}
   * give); empty when it keeps none. A record without a type takes the algorithm's default.
   *
   * @throws IllegalStateException for names this version does not know (a newer one wrote them):
   *     the upload is refused rather than completed with another checksum than its creation asked
   */
  public static Optional<UploadChecksum> recorded(String algorithm, String type) {
    if (algorithm == null) {
      return Optional.empty();
    }
    ChecksumAlgorithm a =
        ChecksumAlgorithm.fromName(algorithm)
            .orElseThrow(() -> new IllegalStateException("recorded algorithm: " + algorithm));
    ChecksumType t =
        type == null
            ? defaultType(a)
            : ChecksumType.fromName(type)
                .orElseThrow(() -> new IllegalStateException("recorded type: " + type));
    return Optional.of(new UploadChecksum(a, t));
  }

  /** S3's type for an algorithm named without one: full-object for CRC64NVME, else composite. */
  static ChecksumType defaultType(ChecksumAlgorithm algorithm) {
    return algorithm == ChecksumAlgorithm.CRC64NVME
        ? ChecksumType.FULL_OBJECT
        : ChecksumType.COMPOSITE;
  }

  /**
   * Refuses a part (or a completion) that announces another algorithm than this one, as S3 does.
   *
   * @throws S3Exception {@code InvalidRequest} naming both
   */
  void requireAlgorithm(ChecksumAlgorithm announced) {
    if (announced != algorithm) {
      throw S3Exception.of(
          S3ErrorCode.INVALID_REQUEST,
          "Checksum Type mismatch occurred, expected checksum Type: "
              + algorithm.name().toLowerCase(Locale.ROOT)
              + ", actual checksum Type: "
              + announced.name().toLowerCase(Locale.ROOT));
    }
  }
}
