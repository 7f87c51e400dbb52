package io.racs.proxy.store.reshape;

import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.format.UploadRecord;
import io.racs.proxy.store.heal.Maintenance;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The multipart uploads still open that were begun in another layout than a reshape's target
 * (docs/reshape.md §5): an upload's parts are striped, and its completed version written, in the
 * geometry its record names ({@code UploadRecord.geometry}; none in records written before it was
 * kept, which are older than any reshape). Such an upload completed after the reshape would leave a
 * version in the old layout for good, so the mover does not complete while one is open: each is
 * completed (and its version moved by the next sweep) or aborted first.
 */
final class OldUploads {
  private OldUploads() {}

  /**
   * The open uploads of every bucket whose layout is not {@code targetGeometry}, oldest first.
   *
   * @throws io.racs.proxy.store.api.StoreException {@code INSUFFICIENT_SHARDS} when a listing does
   *     not reach a read quorum
   */
  static List<UploadRecord> open(Maintenance store, String targetGeometry) {
    List<UploadRecord> old = new ArrayList<>();
    for (ObjectStore.BucketInfo bucket : store.listBuckets()) {
      for (UploadRecord upload : store.uploads().openRecords(bucket.name(), null)) {
        if (!targetGeometry.equals(upload.geometry())) {
          old.add(upload);
        }
      }
    }
    old.sort(
        Comparator.comparingLong(UploadRecord::initiatedMillis)
            .thenComparing(UploadRecord::uploadId));
    return old;
  }

  /** The upload ids of {@code uploads}, to tell whether any of them ended. */
  static List<String> ids(List<UploadRecord> uploads) {
    return uploads.stream().map(UploadRecord::uploadId).toList();
  }

  /**
   * {@code waiting for 2 uploads begun in the old layout (oldest: bkt/key, begun
   * 2026-12-03T10:00:00Z): complete or abort them}.
   */
  static String describe(List<UploadRecord> uploads) {
    UploadRecord oldest = uploads.getFirst();
    return "waiting for "
        + uploads.size()
        + (uploads.size() == 1 ? " upload" : " uploads")
        + " begun in the old layout (oldest: "
        + oldest.bucket()
        + "/"
        + oldest.key()
        + ", begun "
        + Instant.ofEpochMilli(oldest.initiatedMillis()).truncatedTo(ChronoUnit.SECONDS)
        + "): complete or abort "
        + (uploads.size() == 1 ? "it" : "them");
  }
}
