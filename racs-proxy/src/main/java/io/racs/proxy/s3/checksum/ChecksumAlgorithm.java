package io.racs.proxy.s3.checksum;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Locale;
import java.util.Optional;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;

/** The {@code x-amz-checksum-*} algorithms of S3. */
public enum ChecksumAlgorithm {
  CRC32(4),
  CRC32C(4),
  CRC64NVME(8),
  SHA1(20),
  SHA256(32);

  private final int lengthBytes;

  ChecksumAlgorithm(int lengthBytes) {
    this.lengthBytes = lengthBytes;
  }

  /** The checksum's size in bytes (before base64). */
  public int lengthBytes() {
    return lengthBytes;
  }

  /** The header carrying it, e.g. {@code x-amz-checksum-crc32}. */
  public String headerName() {
    return "x-amz-checksum-" + name().toLowerCase(Locale.ROOT);
  }

  /** The XML element carrying it, e.g. {@code ChecksumCRC32}. */
  public String xmlElement() {
    return "Checksum" + name();
  }

  /** Whether it is a CRC (so it can be combined into a full-object checksum). */
  public boolean isCrc() {
    return this == CRC32 || this == CRC32C || this == CRC64NVME;
  }

  /** A new streaming computation. */
  public StreamingChecksum newChecksum() {
    return switch (this) {
      case CRC32 -> StreamingChecksum.ofCrc(this, new CRC32());
      case CRC32C -> StreamingChecksum.ofCrc(this, new CRC32C());
      case CRC64NVME -> StreamingChecksum.ofCrc(this, new Crc64Nvme());
      case SHA1 -> StreamingChecksum.ofDigest(this, digest("SHA-1"));
      case SHA256 -> StreamingChecksum.ofDigest(this, digest("SHA-256"));
    };
  }

  /** The algorithm named {@code name} (any case: {@code crc32}, {@code CRC64NVME}). */
  public static Optional<ChecksumAlgorithm> fromName(String name) {
    String n = name.strip().toUpperCase(Locale.ROOT);
    for (ChecksumAlgorithm a : values()) {
      if (a.name().equals(n)) {
        return Optional.of(a);
      }
    }
    return Optional.empty();
  }

  /** The algorithm whose header is {@code headerName} (any case). */
  public static Optional<ChecksumAlgorithm> fromHeaderName(String headerName) {
    String h = headerName.strip().toLowerCase(Locale.ROOT);
    if (!h.startsWith("x-amz-checksum-")) {
      return Optional.empty();
    }
    return fromName(h.substring("x-amz-checksum-".length()));
  }

  static MessageDigest digest(String name) {
    try {
      return MessageDigest.getInstance(name);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(name + " is a required JDK algorithm", e);
    }
  }
}
