package io.racs.proxy.store;

import java.util.Optional;

/**
 * The configuration documents of buckets (CORS rules, tags, lifecycle rules, default encryption),
 * one {@link Kind} each, as records beside the bucket records: each put or delete writes a new
 * record on a write quorum through the {@link QuorumWriter}, and the newest record of a bucket and
 * kind, listed on a read quorum, decides. A record names the creation time of the bucket it was
 * written for, so a bucket deleted and created again does not inherit its predecessor's
 * configuration.
 *
 * <p>A document is opaque to the store: the S3 layer validates and renders it before it is stored.
 * Thread-safe; every call lists the records (no cache), so a change made through another proxy is
 * seen at once.
 */
final class BucketDocuments {
  /** The kinds of bucket documents, each under its own prefix of records. */
  enum Kind {
    CORS("c/", "CORS"),
    TAGGING("g/", "tags"),
    LIFECYCLE("l/", "lifecycle"),
    ENCRYPTION("e/", "default encryption");

    private final String prefix;
    private final String label;

    Kind(String prefix, String label) {
      this.prefix = prefix;
      this.label = label;
    }

    /** The prefix of this kind's records on every repository. */
    String prefix() {
      return prefix;
    }

    /** A record of this kind: the newest one of a bucket decides. */
    String record(String bucket, String versionId) {
      return prefix + bucket + Layout.SEPARATOR + versionId;
    }
  }

  /**
   * A document record; {@code configuration} is {@code null} once the document was deleted. (The
   * JSON field names are those of the CORS records written before other kinds existed.)
   */
  record DocumentRecord(String bucket, long bucketCreatedMillis, String configuration) {}

  private final StoreContext context;
  private final QuorumWriter writer;
  private final BucketCatalog buckets;

  BucketDocuments(StoreContext context, QuorumWriter writer, BucketCatalog buckets) {
    this.context = context;
    this.writer = writer;
    this.buckets = buckets;
  }

  /** Sets (with {@code null}: removes) the document of {@code kind} of an existing bucket. */
  void put(Kind kind, String bucket, String document) {
    BucketCatalog.BucketRecord created = buckets.current(bucket);
    writer.write(
        kind.record(bucket, context.ids.next()),
        Layout.encode(new DocumentRecord(bucket, created.createdMillis(), document)),
        (document == null ? "delete " : "put ") + kind.label + " of " + bucket);
  }

  /** The document of {@code kind} of an existing bucket, if it has one. */
  Optional<String> get(Kind kind, String bucket) {
    BucketCatalog.BucketRecord created = buckets.current(bucket);
    IndexMerge merge =
        new IndexMerge(context.array, kind.prefix() + bucket + Layout.SEPARATOR, "", 10);
    IndexMerge.Entry newest = merge.next();
    context.requireReadQuorum(merge, "read " + kind.label + " of " + bucket);
    if (newest == null) {
      return Optional.empty();
    }
    return context
        .read(newest, DocumentRecord.class)
        .filter(r -> r.bucketCreatedMillis() == created.createdMillis())
        .map(DocumentRecord::configuration);
  }
}
