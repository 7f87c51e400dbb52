package io.racs.proxy.s3.bridge;

import java.util.Map;

/**
 * A part chosen by a CompleteMultipartUpload, as the object's checksums are derived from it.
 *
 * @param sizeBytes its plaintext size
 * @param checksums the client checksums it was stored with (algorithm name to base64 value)
 */
public record PartChecksums(long sizeBytes, Map<String, String> checksums) {
  /** Copies the checksums. */
  public PartChecksums {
    checksums = Map.copyOf(checksums);
  }
}
