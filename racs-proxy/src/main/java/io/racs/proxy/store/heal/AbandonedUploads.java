package io.racs.proxy.store.heal;

import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.array.IndexMerge;
import io.racs.proxy.store.array.StoreContext;
import io.racs.proxy.store.format.AbandonedRecord;
import io.racs.proxy.store.format.Layout;
import io.racs.proxy.store.format.UploadRecord;
import io.racs.proxy.store.object.MultipartUploads;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * Collects abandoned multipart uploads: those with no activity (no start, no part uploaded) for
 * longer than an age, whether or not the bucket has lifecycle rules. S3 keeps such uploads, and
 * bills their parts, until a lifecycle rule ({@code AbortIncompleteMultipartUpload}) or the client
 * aborts them; a proxy that nobody tells loses the space for good, so the background scrub of the
 * one proxy that may run it (the ZooKeeper leader, or the heal lease holder) collects them past
 * {@code abandonedUploadAge} (7 days by default, the value many lifecycle examples use; 0 turns it
 * off). The same runs collect what the aborts of clients left: an abort marks its upload as an
 * abandonment does, and deletes its parts at once.
 *
 * <p>An upload in use is never collected: the age counts from its newest part, not from its start.
 * Collection goes in two steps, so that a completion that read the upload just before it was given
 * up loses nothing: first the upload is <em>abandoned</em> (a mark {@code <upload record>-gone} is
 * written on a write quorum, then its upload record deleted, so new requests for it answer {@code
 * NoSuchUpload}); a later run, once the mark is older than the GC grace (longer than any request
 * runs), deletes its part records and the parts' data that no version of the key refers to, then
 * the mark.
 *
 * <p>Not thread-safe: one run at a time, which the scrub's single thread guarantees.
 */
public final class AbandonedUploads {
  /**
   * What one run did.
   *
   * @param abandoned the uploads given up, as {@code bucket/key uploadId}
   * @param collected the uploads whose parts were deleted, as {@code bucket/key uploadId}
   * @param failures what could not be done, and why
   */
  public record Report(List<String> abandoned, List<String> collected, List<String> failures) {}

  /** The age past which an upload is abandoned, unless the configuration says otherwise. */
  public static final Duration DEFAULT_AGE = Duration.ofDays(7);

  private final Maintenance store;
  private final StoreContext context;
  private final Duration age;
  private final BooleanSupplier stop;
  private final List<String> abandoned = new ArrayList<>();
  private final List<String> collected = new ArrayList<>();
  private final List<String> failures = new ArrayList<>();

  private AbandonedUploads(Maintenance store, Duration age, BooleanSupplier stop) {
    this.store = store;
    this.context = store.context();
    this.age = Objects.requireNonNull(age, "age");
    this.stop = Objects.requireNonNull(stop, "stop");
    if (age.isNegative()) {
      throw new IllegalArgumentException("abandonedUploadAge: " + age + " (expected: >= 0)");
    }
  }

  /**
   * Runs once over every bucket of {@code store}: abandons the uploads idle for longer than {@code
   * age} (none when it is zero), and collects those abandoned (here, or by a lifecycle rule through
   * {@link ErasureStore#abandonMultipartUpload}) longer than the GC grace ago. Asks {@code stop}
   * before each upload, and stops there once it says true (the proxy lost its leadership or lease).
   */
  public static Report run(Maintenance store, Duration age, BooleanSupplier stop) {
    return new AbandonedUploads(store, age, stop).run();
  }

  private Report run() {
    List<ObjectStore.BucketInfo> buckets;
    try {
      buckets = store.listBuckets();
    } catch (StoreException e) {
      failures.add("list buckets: " + e.getMessage());
      return report();
    }
    for (ObjectStore.BucketInfo bucket : buckets) {
      if (stop.getAsBoolean()) {
        break;
      }
      try {
        bucket(bucket.name());
      } catch (StoreException e) {
        failures.add(bucket.name() + ": " + e.getMessage());
      }
    }
    return report();
  }

  private Report report() {
    return new Report(List.copyOf(abandoned), List.copyOf(collected), List.copyOf(failures));
  }

  private void bucket(String bucket) {
    long now = context.config.clock().millis();
    long idleBefore = now - age.toMillis();
    long markedBefore = now - context.config.gcGrace().toMillis();
    MultipartUploads uploads = store.uploads();
    IndexMerge merge = new IndexMerge(context.array, Layout.uploadPrefix(bucket), "", 1000);
    // An upload record is judged once the entry after it is known: its mark (which sorts right
    // after it) means it was given up already, and a record still listed then is one that heal
    // copied back from a repository out during the abort or abandonment; abandoning it again would
    // restart its grace. The collection deletes it with its parts.
    IndexMerge.Entry pending = null;
    for (IndexMerge.Entry e = merge.next(); e != null; e = merge.next()) {
      if (stop.getAsBoolean()) {
        return;
      }
      if (Layout.isPartRecord(e.name())) {
        continue;
      }
      if (!Layout.isRemovalRecord(e.name())) {
        if (pending != null) {
          consider(bucket, pending, uploads, idleBefore);
        }
        pending = e;
        continue;
      }
      IndexMerge.Entry record =
          pending != null && e.name().equals(Layout.removalRecord(pending.name())) ? pending : null;
      if (pending != null && record == null) {
        consider(bucket, pending, uploads, idleBefore);
      }
      pending = null;
      mark(bucket, merge, e, record, uploads, idleBefore, markedBefore);
    }
    if (pending != null && !stop.getAsBoolean()) {
      consider(bucket, pending, uploads, idleBefore);
    }
  }

  /**
   * Handles the mark {@code e} of an upload given up, listed by {@code merge} right after the
   * upload's record {@code record} (null when no repository lists that). One that counts is
   * collected with the upload's parts once it is older than {@code markedBefore}. One that does not
   * count is what an abort or abandonment that failed left, so the upload is still there: the mark
   * is deleted once it is that old, and the upload judged as any other.
   */
  private void mark(
      String bucket,
      IndexMerge merge,
      IndexMerge.Entry e,
      IndexMerge.Entry record,
      MultipartUploads uploads,
      long idleBefore,
      long markedBefore) {
    try {
      boolean counts = uploads.markCounts(merge, e);
      Optional<AbandonedRecord> mark = context.read(e, AbandonedRecord.class);
      boolean old = mark.isPresent() && mark.get().abandonedMillis() < markedBefore;
      if (counts) {
        if (old) {
          uploads.collectAbandoned(mark.get());
          collected.add(describe(mark.get().bucket(), mark.get().key(), mark.get().uploadId()));
        }
        return;
      }
      if (old) {
        uploads.discardMark(e.name()); // before the upload may be abandoned, and marked, anew
      }
    } catch (StoreException ex) {
      failures.add(e.name() + ": " + ex.getMessage());
      return;
    }
    if (record != null) {
      consider(bucket, record, uploads, idleBefore);
    }
  }

  /**
   * Abandons the upload whose record {@code e} is, if it has been idle since {@code idleBefore}.
   */
  private void consider(
      String bucket, IndexMerge.Entry e, MultipartUploads uploads, long idleBefore) {
    try {
      Optional<UploadRecord> upload = context.read(e, UploadRecord.class);
      if (upload.isEmpty()
          || age.isZero()
          || upload.get().initiatedMillis() >= idleBefore
          || uploads.lastActivityMillis(upload.get()) >= idleBefore) {
        return; // unreadable here (heal copies it), or in use
      }
      uploads.abandon(upload.get());
      abandoned.add(describe(bucket, upload.get().key(), upload.get().uploadId()));
    } catch (StoreException ex) {
      failures.add(e.name() + ": " + ex.getMessage());
    }
  }

  private static String describe(String bucket, String key, String uploadId) {
    return bucket + "/" + key + " " + uploadId;
  }
}
