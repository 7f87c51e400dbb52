package io.racs.proxy.store;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Tags set on an object version after it was written (PutObjectTagging, DeleteObjectTagging). A
 * version's record is never changed, so each such call writes a tag-set record of its own, {@code
 * t/<bucket>/<key>\0/<recordId>}, on a write quorum through the {@link QuorumWriter}; it names the
 * version it tags. A key's tag-set records list newest first, and the newest one that names a
 * version decides that version's tags (an empty set once they were deleted); a version no record
 * names has the tags it was written with ({@link VersionMeta#tags()}).
 *
 * <p>A tag-set record counts by the same rule as an index entry ({@link
 * VersionResolver#possibleCopies}): only if a write quorum could hold it, so what a failed write
 * left on too few repositories is never an answer. Records of versions that no longer exist name
 * nothing anyone can read; heal copies the others to every repository.
 *
 * <p>Thread-safe; nothing is cached, so tags set through another proxy are seen at once.
 */
final class ObjectTags {
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

  private final StoreContext context;
  private final QuorumWriter writer;

  ObjectTags(StoreContext context, QuorumWriter writer) {
    this.context = context;
    this.writer = writer;
  }

  /** The prefix of every tag-set record of {@code bucket}. */
  static String bucketPrefix(String bucket) {
    return "t/" + bucket + "/";
  }

  private String keyPrefix(String bucket, String key) {
    return bucketPrefix(bucket) + context.nameKey(bucket, key) + Layout.KEY_END;
  }

  /** Sets the tags of {@code version} (no delete marker: the caller checked). */
  void put(VersionMeta version, Map<String, String> tags) {
    writer.write(
        keyPrefix(version.bucket(), version.key()) + context.ids.next(),
        Layout.encode(new TagSetRecord(version.bucket(), version.key(), version.versionId(), tags)),
        "tag " + version.bucket() + "/" + version.key());
  }

  /**
   * The tag sets set on versions of {@code key}, newest first, one per version at most (the one
   * that decides); read from a read quorum of listings ({@code INSUFFICIENT_SHARDS} otherwise).
   */
  List<ObjectStore.ObjectTagging> list(String bucket, String key) {
    IndexMerge merge = new IndexMerge(context.array, keyPrefix(bucket, key), "", 100);
    List<IndexMerge.Entry> entries = new ArrayList<>();
    for (IndexMerge.Entry e = merge.next(); e != null; e = merge.next()) {
      entries.add(e);
    }
    context.requireReadQuorum(merge, "read tags of " + bucket + "/" + key);
    List<ObjectStore.ObjectTagging> found = new ArrayList<>();
    for (IndexMerge.Entry e : entries) {
      if (VersionResolver.possibleCopies(merge, e) < context.config.writeQuorum()) {
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
}
