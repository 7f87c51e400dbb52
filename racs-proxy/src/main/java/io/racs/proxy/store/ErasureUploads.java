package io.racs.proxy.store;

import io.racs.proxy.crypto.CustomerKey;
import io.racs.proxy.store.api.MultipartStore;
import io.racs.proxy.store.api.ObjectStore.PutOptions;
import io.racs.proxy.store.api.ObjectStore.WriteCondition;
import io.racs.proxy.store.array.RequestStalls;
import io.racs.proxy.store.format.VersionMeta;
import io.racs.proxy.store.heal.AbandonedUploads;
import io.racs.proxy.store.object.MultipartUploads;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The multipart calls of {@link ErasureStore}, handed to {@link MultipartUploads} (completions to
 * the versioned writes, which name the version): the same facade, kept apart so that each file
 * holds one family of calls. A part's upload and a completion are each one request of {@link
 * RequestStalls}, as {@link ErasureStore}'s object operations are.
 */
abstract class ErasureUploads implements MultipartStore {
  /** The store's parts, which {@link ErasureStore} shares. */
  final StoreTiers tiers;

  ErasureUploads(StoreTiers tiers) {
    this.tiers = tiers;
  }

  @Override
  public String createMultipartUpload(
      String bucket, String key, PutOptions options, UploadChecksum checksum) {
    tiers.buckets.requireKey(bucket, key);
    PutOptions locked = tiers.versioned.withBucketLock(bucket, options);
    return tiers.health.writing(() -> tiers.uploads.create(bucket, key, locked, checksum));
  }

  @Override
  public PartInfo uploadPart(
      String bucket,
      String key,
      String uploadId,
      int partNumber,
      InputStream body,
      long length,
      Supplier<Map<String, String>> checksums,
      CustomerKey customerKey,
      PartCheck check) {
    return RequestStalls.within(
        () ->
            tiers.health.writing(
                () ->
                    tiers.uploads.uploadPart(
                        bucket,
                        key,
                        uploadId,
                        partNumber,
                        body,
                        length,
                        checksums,
                        customerKey,
                        check)));
  }

  @Override
  public UploadParts parts(String bucket, String key, String uploadId) {
    return tiers.uploads.parts(bucket, key, uploadId);
  }

  @Override
  public VersionMeta completeMultipartUpload(
      String bucket,
      String key,
      String uploadId,
      List<CompletedPart> parts,
      ObjectChecksums objectChecksums,
      WriteCondition condition) {
    return RequestStalls.within(
        () -> tiers.versioned.complete(bucket, key, uploadId, parts, objectChecksums, condition));
  }

  @Override
  public void abortMultipartUpload(String bucket, String key, String uploadId) {
    tiers.uploads.abort(bucket, key, uploadId);
  }

  /**
   * Gives the upload up in two steps ({@link AbandonedUploads}): its upload record goes now, its
   * parts once {@link AbandonedUploads} runs past the GC grace.
   */
  @Override
  public void abandonMultipartUpload(String bucket, String key, String uploadId) {
    tiers.uploads.abandon(tiers.uploads.upload(bucket, key, uploadId));
  }

  @Override
  public List<UploadInfo> listMultipartUploads(String bucket, String prefix) {
    tiers.buckets.require(bucket);
    return tiers.uploads.list(bucket, prefix);
  }
}
