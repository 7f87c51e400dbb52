package io.racs.proxy.store.object;

import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.api.StoreConfig;
import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.array.IndexMerge;
import io.racs.proxy.store.array.StoreContext;
import io.racs.proxy.store.bucket.BucketCatalog;
import io.racs.proxy.store.bucket.BucketDocuments;
import io.racs.proxy.store.bucket.RefreshAhead;
import io.racs.proxy.store.commit.QuorumWriter;
import io.racs.proxy.store.commit.VersionResolver;
import io.racs.proxy.store.format.Layout;
import io.racs.proxy.store.format.VersionMeta;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;

/**
 * Tags set on an object version after it was written (PutObjectTagging, DeleteObjectTagging). A
 * version's record is never changed, so each such call writes a tag-set record of its own, {@code
 * t/<bucket>/<key>\0/<recordId>}, on a write quorum through the {@link QuorumWriter}; it names the
 * version it tags. A key's tag-set records list newest first, and the newest one that names a
 * version decides that version's tags (an empty set once they were deleted); a version no record
 * names has the tags it was written with ({@link VersionMeta#tags()}).
 *
 * <p>A tag-set record counts by the same rule as an index entry ({@link
 * VersionResolver#possibleHolders}): only if a write quorum could hold it, so what a failed write
 * left on too few repositories is never an answer. Records of versions that no longer exist name
 * nothing anyone can read; heal copies the others to every repository.
 *
 * <p>Most buckets never have a tag set set after a write, and every GET and HEAD asks for the key's
 * tag sets (for {@code x-amz-tagging-count}): a listing of its own on every repository, as many
 * repository calls as finding the version. So the first tag set ever set in a bucket is announced:
 * a {@link BucketDocuments.Kind#RETAGGED} document is written on a write quorum, and then the
 * writer waits {@link #FENCE_NANOS} before it writes the tag set. A store that read "no such
 * document" trusts that answer for {@link BucketCatalog#CACHE_NANOS} from the moment its read
 * began, and lists no tag sets of that bucket meanwhile. A read that began after the document was
 * on a write quorum finds it (its read quorum meets the write quorum); one that began before has
 * stopped trusting its answer by the time the wait is over. So once a tag set is acknowledged,
 * through any proxy, every later request lists the key's tag sets, and no answer leaves one out:
 * nothing is cached across proxies, only an answer that cannot be stale by then. (The wait uses
 * each proxy's monotonic clock for a duration, never a comparison of two proxies' clocks; the trust
 * is timed on {@link StoreConfig#ticker()}, which is that clock unless a test drives it.) A store
 * reads a "never" in use again in the background when a quarter of its trust is left ({@link
 * RefreshAhead}), and trusts the new answer from when that read began, as any other.
 *
 * <p>Thread-safe.
 */
public final class ObjectTags {
  /**
   * A tag-set record.
   *
   * @param versionId the version whose tags these are
   * @param tags the tags, key to value; empty once they were deleted
   */
  record TagSetRecord(String bucket, String key, String versionId, Map<String, String> tags) {
    TagSetRecord {
      tags = tags == null ? Map.of() : Map.copyOf(tags);
    }
  }

  /**
   * How long the first tag set of a bucket waits after its announcement: the time a store trusts a
   * "never retagged" answer, and a tenth more for clocks that run at slightly different rates.
   */
  public static final long FENCE_NANOS = BucketCatalog.CACHE_NANOS + BucketCatalog.CACHE_NANOS / 10;

  private final StoreContext context;
  private final QuorumWriter writer;
  private final BucketDocuments documents;
  // Buckets seen announced: they keep the announcement for as long as they live (a bucket created
  // again under the name only costs a listing more per read until this store restarts).
  private final Set<String> announced = ConcurrentHashMap.newKeySet();
  // Announcements this store has waited out since it read or wrote them.
  private final Set<String> waitedOut = ConcurrentHashMap.newKeySet();
  // Buckets read as never retagged: until when (StoreConfig.ticker) that answer is trusted, counted
  // from when its read began. An answer in use is read again ahead of its end (RefreshAhead), so
  // that GETs and HEADs, which ask on every request, do not wait for it once a second.
  private final ConcurrentHashMap<String, Long> unannounced = new ConcurrentHashMap<>();
  private final RefreshAhead refresh;

  public ObjectTags(
      StoreContext context, QuorumWriter writer, BucketDocuments documents, Executor background) {
    this.context = context;
    this.writer = writer;
    this.documents = documents;
    this.refresh = new RefreshAhead(background);
  }

  /** Whether a background re-read of some bucket's announcement runs (for tests). */
  public boolean refreshing() {
    return refresh.running();
  }

  /** The prefix of every tag-set record of {@code bucket}. */
  public static String bucketPrefix(String bucket) {
    return "t/" + bucket + "/";
  }

  private String keyPrefix(String bucket, String key) {
    return bucketPrefix(bucket) + context.nameKey(bucket, key) + Layout.KEY_END;
  }

  /** Sets the tags of {@code version} (no delete marker: the caller checked). */
  public void put(VersionMeta version, Map<String, String> tags) {
    announce(version.bucket());
    writer.write(
        keyPrefix(version.bucket(), version.key()) + context.ids.next(),
        Layout.encode(new TagSetRecord(version.bucket(), version.key(), version.versionId(), tags)),
        "tag " + version.bucket() + "/" + version.key());
  }

  /**
   * The tag sets set on versions of {@code key}, newest first, one per version at most (the one
   * that decides); read from a read quorum of listings ({@code INSUFFICIENT_SHARDS} otherwise).
   */
  public List<ObjectStore.ObjectTagging> list(String bucket, String key) {
    if (!mayHaveTagSets(bucket)) {
      return List.of();
    }
    IndexMerge merge = new IndexMerge(context.array, keyPrefix(bucket, key), "", 100);
    List<IndexMerge.Entry> entries = new ArrayList<>();
    for (IndexMerge.Entry e = merge.next(); e != null; e = merge.next()) {
      entries.add(e);
    }
    context.requireReadQuorum(merge, "read tags of " + bucket + "/" + key);
    List<ObjectStore.ObjectTagging> found = new ArrayList<>();
    for (IndexMerge.Entry e : entries) {
      if (!merge.index().mayCount(VersionResolver.possibleHolders(merge, e))) {
        continue; // its write may have failed
      }
      Optional<TagSetRecord> record = context.read(e, TagSetRecord.class);
      if (record.isEmpty()) {
        throw new StoreException(
            StoreException.Code.INSUFFICIENT_SHARDS,
            "tag-set record " + e.name() + " is unreadable on every repository that lists it");
      }
      TagSetRecord r = record.get();
      if (r.key().equals(key)
          && found.stream().noneMatch(t -> t.versionId().equals(r.versionId()))) {
        found.add(new ObjectStore.ObjectTagging(r.versionId(), r.tags()));
      }
    }
    return found;
  }

  /**
   * Makes sure every store lists the bucket's tag sets before a tag set is written: writes the
   * bucket's announcement unless a fresh read finds one (the bucket may have been created again
   * since this store saw one), and then waits out every "never retagged" answer read before it. An
   * announcement found, not written, is waited out too, once per store: it may have been written by
   * another proxy just now, still inside its wait. (Each announcement is unique, so one of a bucket
   * created again under the name is waited out anew.)
   */
  private void announce(String bucket) {
    Optional<String> found = documents.get(BucketDocuments.Kind.RETAGGED, bucket);
    String announcement = found.orElseGet(context.ids::next);
    if (found.isEmpty()) {
      documents.put(BucketDocuments.Kind.RETAGGED, bucket, announcement);
    }
    if (!waitedOut.contains(announcement)) {
      try {
        Thread.sleep(FENCE_NANOS / 1_000_000, (int) (FENCE_NANOS % 1_000_000));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new StoreException(
            StoreException.Code.INSUFFICIENT_SHARDS, "interrupted announcing tags of " + bucket);
      }
      waitedOut.add(announcement);
    }
    announced.add(bucket);
    unannounced.remove(bucket);
  }

  /**
   * False only when the bucket was read as never retagged, by a read that began within {@link
   * BucketCatalog#CACHE_NANOS}: then no key of it has a tag-set record anyone acknowledged.
   */
  private boolean mayHaveTagSets(String bucket) {
    if (announced.contains(bucket)) {
      return true;
    }
    Long until = unannounced.get(bucket);
    long now = context.config.ticker().getAsLong();
    if (until != null && until - now > 0) {
      refresh.ifDue(bucket, until, now, () -> readAnnouncement(bucket));
      return false;
    }
    return readAnnouncement(bucket);
  }

  /**
   * Reads whether the bucket was ever retagged; trusts a "never" for {@link
   * BucketCatalog#CACHE_NANOS} from when this read began.
   */
  private boolean readAnnouncement(String bucket) {
    long began = context.config.ticker().getAsLong();
    Optional<String> announcement;
    try {
      announcement = documents.get(BucketDocuments.Kind.RETAGGED, bucket);
    } catch (StoreException e) {
      if (e.code() == StoreException.Code.NO_SUCH_BUCKET) {
        return true; // the listing answers (nothing); the request's own read says why
      }
      throw e;
    }
    if (announcement.isPresent()) {
      announced.add(bucket);
      unannounced.remove(bucket);
      return true;
    }
    if (unannounced.size() > 10_000) {
      unannounced.clear(); // buckets are few; this only bounds a pathological churn
    }
    unannounced.put(bucket, began + BucketCatalog.CACHE_NANOS);
    return false;
  }
}
