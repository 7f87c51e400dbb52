package io.racs.proxy.s3.bridge;

import java.time.Instant;
import java.util.Map;

/**
 * A part of a multipart upload in progress, as UploadPart and ListParts answer with it.
 *
 * @param etag the part's MD5, hex, unquoted
 * @param checksums the client checksums it was stored with (algorithm name to base64 value)
 */
public record UploadedPart(
    int partNumber,
    long sizeBytes,
    String etag,
    Instant lastModified,
    Map<String, String> checksums) {
  /** Copies the checksums. */
  public UploadedPart {
    checksums = checksums == null ? Map.of() : Map.copyOf(checksums);
  }
}
