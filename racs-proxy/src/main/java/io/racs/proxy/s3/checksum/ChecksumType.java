package io.racs.proxy.s3.checksum;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * How a multipart object's checksum covers it ({@code x-amz-checksum-type}): a checksum of the
 * parts' checksums, or one of the whole object's bytes. A stored value tells its type by its form:
 * composite values end in {@code -N}, the number of parts.
 */
public enum ChecksumType {
  /** {@code base64(alg(checksum(part1) || ...)) + "-N"}. */
  COMPOSITE,
  /** The checksum of all the object's bytes, as a single PUT's. */
  FULL_OBJECT;

  private static final Pattern PART_COUNT = Pattern.compile("-[0-9]+$");

  /** The type of a stored or announced value: composite when it ends in {@code -N}. */
  public static ChecksumType ofValue(String value) {
    return PART_COUNT.matcher(value.strip()).find() ? COMPOSITE : FULL_OBJECT;
  }

  /** Whether this is {@link #COMPOSITE}. */
  public boolean isComposite() {
    return this == COMPOSITE;
  }

  /** The value without its {@code -N} suffix. */
  public static String withoutPartCount(String value) {
    return PART_COUNT.matcher(value.strip()).replaceFirst("");
  }

  /** The type named {@code name} (any case). */
  public static Optional<ChecksumType> fromName(String name) {
    String n = name.strip().toUpperCase(Locale.ROOT);
    for (ChecksumType t : values()) {
      if (t.name().equals(n)) {
        return Optional.of(t);
      }
    }
    return Optional.empty();
  }

  /**
   * Whether S3 offers this type for {@code algorithm}: full-object checksums only for CRCs,
   * composite ones for all but CRC64NVME.
   */
  public boolean supports(ChecksumAlgorithm algorithm) {
    return this == FULL_OBJECT ? algorithm.isCrc() : algorithm != ChecksumAlgorithm.CRC64NVME;
  }
}
