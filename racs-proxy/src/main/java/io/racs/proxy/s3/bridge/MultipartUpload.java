package io.racs.proxy.s3.bridge;

import java.time.Instant;

/**
 * A multipart upload in progress, as ListMultipartUploads answers with it.
 *
 * @param checksumAlgorithm the {@code x-amz-checksum-algorithm} its creation named; null when none
 *     was (or a version that did not keep it created the upload)
 * @param checksumType the {@code x-amz-checksum-type} its creation named; null when none was
 */
public record MultipartUpload(
    String key, String uploadId, Instant initiated, String checksumAlgorithm, String checksumType) {
  /** An upload created without a checksum. */
  public MultipartUpload(String key, String uploadId, Instant initiated) {
    this(key, uploadId, initiated, null, null);
  }
}
