package io.racs.proxy.s3.checksum;

import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.s3.http.Headers;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The object's checksum on a CompleteMultipartUpload, as S3 defines it: the {@code
 * x-amz-checksum-<alg>} header of a completion is the checksum of the object (never of the XML
 * body), and {@code x-amz-checksum-type} says how it covers it. A composite value is checked
 * against the checksum of the parts' checksums; a full-object CRC is checked by combining the
 * parts' CRCs ({@link CrcCombine}), with no re-read of data. The part checksums named in the body
 * must be those the parts were stored with.
 *
 * <p>An upload whose creation named its checksum takes that algorithm and type ({@link
 * #withRecorded}). Without an announced or recorded type, the type follows the value's form ({@code
 * -N} is composite), then the algorithm (CRC64NVME is always full-object, as in S3); a CRC32 or
 * CRC32C value without a suffix is taken as composite when it matches the composite form (minio-go
 * sends that) and as full-object otherwise.
 *
 * @param algorithm the algorithm of the announced object checksum, if any
 * @param value its base64 value, possibly ending in {@code -N}
 * @param type the announced {@code x-amz-checksum-type}, if any
 */
public record CompletionChecksums(
    Optional<ChecksumAlgorithm> algorithm, Optional<String> value, Optional<ChecksumType> type) {

  /**
   * One part of the completion.
   *
   * @param sizeBytes its plaintext size
   * @param stored the checksums it was stored with, algorithm name to base64 value
   * @param named the checksums the completion's body gives for it
   */
  public record Part(
      long sizeBytes, Map<String, String> stored, Map<ChecksumAlgorithm, String> named) {
    /** Copies the maps. */
    public Part {
      stored = Map.copyOf(stored);
      named = Map.copyOf(named);
    }
  }

  /**
   * Reads a completion's headers.
   *
   * @throws S3Exception {@code InvalidRequest} for more than one checksum, a malformed value, an
   *     unknown type, or a type the algorithm does not offer
   */
  public static CompletionChecksums fromHeaders(Headers headers) {
    Map<ChecksumAlgorithm, String> values = ChecksumSpec.valueHeaders(headers);
    if (values.size() > 1) {
      throw S3Exception.of(
          S3ErrorCode.INVALID_REQUEST,
          "Expecting a single x-amz-checksum- header. Multiple checksum Types are not allowed.");
    }
    ChecksumAlgorithm algorithm = null;
    String value = null;
    for (Map.Entry<ChecksumAlgorithm, String> h : values.entrySet()) {
      algorithm = h.getKey();
      value = h.getValue();
      ChecksumSpec.checkValue(
          algorithm, ChecksumType.withoutPartCount(value), algorithm.headerName());
    }
    Optional<ChecksumType> type = typeOf(headers);
    if (type.isPresent() && algorithm != null) {
      checkSupported(type.get(), algorithm);
    }
    return new CompletionChecksums(
        Optional.ofNullable(algorithm), Optional.ofNullable(value), type);
  }

  /**
   * This completion of an upload created with {@code recorded} (empty when its creation named no
   * checksum, or a version that did not record one created it): the recorded algorithm and type are
   * the object's, whether or not the completion names them again.
   *
   * @throws S3Exception {@code InvalidRequest} when the completion names another algorithm or
   *     another type than the upload's creation did
   */
  public CompletionChecksums withRecorded(Optional<UploadChecksum> recorded) {
    if (recorded.isEmpty()) {
      return this;
    }
    UploadChecksum r = recorded.get();
    algorithm.ifPresent(r::requireAlgorithm);
    if (type.isPresent() && type.get() != r.type()) {
      throw S3Exception.of(
          S3ErrorCode.INVALID_REQUEST,
          "The upload was created using the "
              + r.type()
              + " checksum type. The complete request must use the same checksum type.");
    }
    return new CompletionChecksums(Optional.of(r.algorithm()), value, Optional.of(r.type()));
  }

  /** The {@code x-amz-checksum-type} named, if any; {@code InvalidRequest} for an unknown one. */
  static Optional<ChecksumType> typeOf(Headers headers) {
    Optional<String> named = headers.first("x-amz-checksum-type");
    if (named.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        ChecksumType.fromName(named.get())
            .orElseThrow(
                () ->
                    S3Exception.of(
                        S3ErrorCode.INVALID_REQUEST,
                        "Value for x-amz-checksum-type header is invalid.")));
  }

  /** {@code InvalidRequest} unless S3 offers {@code type} for {@code algorithm}. */
  static void checkSupported(ChecksumType type, ChecksumAlgorithm algorithm) {
    if (!type.supports(algorithm)) {
      throw S3Exception.of(
          S3ErrorCode.INVALID_REQUEST,
          "The "
              + type
              + " checksum type cannot be used with the "
              + algorithm.name().toLowerCase(Locale.ROOT)
              + " checksum algorithm.");
    }
  }

  /**
   * The object's checksums from its parts, in order, checked against what the completion says.
   *
   * @return algorithm name to base64 value (composite values end in {@code -N}); empty when the
   *     parts carry no common checksum and the completion announces none
   * @throws S3Exception {@code InvalidPart} when a part checksum of the body is not the stored one;
   *     {@code InvalidRequest} when the parts lack the announced algorithm; {@code BadDigest} when
   *     the announced object checksum does not match
   */
  public Map<String, String> objectChecksums(List<Part> parts) {
    for (Part part : parts) {
      part.named()
          .forEach(
              (a, named) -> {
                String stored = part.stored().get(a.name());
                if (stored == null || !sameBytes(stored, named)) {
                  throw S3Exception.of(
                      S3ErrorCode.INVALID_PART,
                      "One or more of the specified parts could not be found. The part may not have"
                          + " been uploaded, or the specified "
                          + a.xmlElement()
                          + " may not match the part's checksum.");
                }
              });
    }
    Optional<ChecksumAlgorithm> chosen = algorithm.or(() -> commonAlgorithm(parts));
    if (chosen.isEmpty()) {
      if (type.isPresent()) {
        throw S3Exception.of(
            S3ErrorCode.INVALID_REQUEST,
            "The upload's parts carry no checksum for an x-amz-checksum-type of " + type.get());
      }
      return Map.of();
    }
    ChecksumAlgorithm a = chosen.get();
    List<String> values = new ArrayList<>();
    for (int i = 0; i < parts.size(); i++) {
      String v = parts.get(i).stored().get(a.name());
      if (v == null) {
        throw S3Exception.of(
            S3ErrorCode.INVALID_REQUEST,
            "The upload's part "
                + (i + 1)
                + " of the completion was stored without a "
                + a.name().toLowerCase(Locale.ROOT)
                + " checksum.");
      }
      values.add(v);
    }
    if (type.isPresent()) {
      checkSupported(type.get(), a);
    }
    String composite =
        ChecksumType.COMPOSITE.supports(a) ? MultipartChecksums.composite(a, values) : null;
    ChecksumType t = type.orElseGet(() -> impliedType(a, composite));
    String computed = t == ChecksumType.COMPOSITE ? composite : fullObject(a, parts, values);
    if (value.isPresent()) {
      String given = value.get();
      boolean matches =
          sameBytes(ChecksumType.withoutPartCount(computed), ChecksumType.withoutPartCount(given))
              && (ChecksumType.ofValue(given) == ChecksumType.FULL_OBJECT
                  || computed.equals(given));
      if (!matches) {
        throw S3Exception.of(
            S3ErrorCode.BAD_DIGEST,
            "The " + a.name() + " you specified did not match the calculated checksum.");
      }
    }
    return Map.of(a.name(), computed);
  }

  /** The type when none is announced (see the class comment). */
  private ChecksumType impliedType(ChecksumAlgorithm a, String composite) {
    if (composite == null) {
      return ChecksumType.FULL_OBJECT;
    }
    if (value.isEmpty() || !a.isCrc()) {
      return ChecksumType.COMPOSITE;
    }
    String given = value.get();
    if (ChecksumType.ofValue(given) == ChecksumType.COMPOSITE
        || sameBytes(ChecksumType.withoutPartCount(composite), given)) {
      return ChecksumType.COMPOSITE;
    }
    return ChecksumType.FULL_OBJECT;
  }

  /** The one algorithm every part was stored with, if they agree. */
  private static Optional<ChecksumAlgorithm> commonAlgorithm(List<Part> parts) {
    ChecksumAlgorithm common = null;
    for (Part part : parts) {
      if (part.stored().size() != 1) {
        return Optional.empty();
      }
      Optional<ChecksumAlgorithm> a =
          ChecksumAlgorithm.fromName(part.stored().keySet().iterator().next());
      if (a.isEmpty() || (common != null && common != a.get())) {
        return Optional.empty();
      }
      common = a.get();
    }
    return Optional.ofNullable(common);
  }

  private static String fullObject(ChecksumAlgorithm a, List<Part> parts, List<String> values) {
    CrcCombine combine = CrcCombine.of(a);
    long crc = 0;
    for (int i = 0; i < parts.size(); i++) {
      long part = crcOf(a, values.get(i));
      crc = i == 0 ? part : combine.combine(crc, part, parts.get(i).sizeBytes());
    }
    ByteBuffer bytes = ByteBuffer.allocate(a.lengthBytes());
    if (a.lengthBytes() == 4) {
      bytes.putInt((int) crc);
    } else {
      bytes.putLong(crc);
    }
    return Base64.getEncoder().encodeToString(bytes.array());
  }

  private static long crcOf(ChecksumAlgorithm a, String base64) {
    ByteBuffer bytes = ByteBuffer.wrap(Base64.getDecoder().decode(base64.strip()));
    return a.lengthBytes() == 4 ? bytes.getInt() & 0xffffffffL : bytes.getLong();
  }

  private static boolean sameBytes(String base64a, String base64b) {
    try {
      return MessageDigest.isEqual(
          Base64.getDecoder().decode(base64a.strip()), Base64.getDecoder().decode(base64b.strip()));
    } catch (IllegalArgumentException e) {
      return false;
    }
  }
}
