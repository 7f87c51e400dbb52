package io.racs.proxy.store.format;

import java.util.Map;

/**
 * A multipart upload in progress, as its upload record holds it; {@code contentHeaders} is null in
 * records written before they were kept. {@code geometry} is the layout every part is striped in
 * and the completed version names; null in records written before it was kept (the geometry of the
 * store that wrote them). {@code lock} is the Object Lock the completed version takes (null outside
 * lock buckets). {@code checksumAlgorithm} and {@code checksumType} are the checksum named at its
 * creation ({@link io.racs.proxy.store.api.MultipartStore.UploadChecksum}); null when none was, and
 * in records written before they were kept.
 */
public record UploadRecord(
    String bucket,
    String key,
    String uploadId,
    long initiatedMillis,
    String contentType,
    Map<String, String> userMetadata,
    Map<String, String> contentHeaders,
    Map<String, String> tags,
    SealRecord encryption,
    String geometry,
    ObjectLock lock,
    String checksumAlgorithm,
    String checksumType) {
  /** This upload with its data key wrapped anew (key rotation). */
  public UploadRecord withEncryption(SealRecord encryption) {
    return new UploadRecord(
        bucket,
        key,
        uploadId,
        initiatedMillis,
        contentType,
        userMetadata,
        contentHeaders,
        tags,
        encryption,
        geometry,
        lock,
        checksumAlgorithm,
        checksumType);
  }
}
