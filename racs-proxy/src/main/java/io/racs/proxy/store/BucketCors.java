package io.racs.proxy.store;

import java.util.Optional;

/**
 * The CORS configurations of buckets, as records beside the bucket records: each put or delete
 * writes a new record on a write quorum through the {@link QuorumWriter}, and the newest record of
 * a bucket, listed on a read quorum, decides. A record names the creation time of the bucket it was
 * written for, so a bucket deleted and created again does not inherit its predecessor's rules.
 *
 * <p>The configuration is an opaque document to the store: the S3 layer validates it and renders it
 * before it is stored. Thread-safe; every call lists the records (no cache), so a change made
 * through another proxy is seen at once.
 */
final class BucketCors {
  /** A CORS record; {@code configuration} is {@code null} once the configuration was deleted. */
  record CorsRecord(String bucket, long bucketCreatedMillis, String configuration) {}

  private final StoreContext context;
  private final QuorumWriter writer;
  private final BucketCatalog buckets;

  BucketCors(StoreContext context, QuorumWriter writer, BucketCatalog buckets) {
    this.context = context;
    this.writer = writer;
    this.buckets = buckets;
  }

  /** Sets (with {@code null}: removes) the configuration of an existing bucket. */
  void put(String bucket, String configuration) {
    BucketCatalog.BucketRecord created = buckets.current(bucket);
    writer.write(
        Layout.corsRecord(bucket, context.ids.next()),
        Layout.encode(new CorsRecord(bucket, created.createdMillis(), configuration)),
        (configuration == null ? "delete CORS of " : "put CORS of ") + bucket);
  }

  /** The configuration of an existing bucket, if it has one. */
  Optional<String> get(String bucket) {
    BucketCatalog.BucketRecord created = buckets.current(bucket);
    IndexMerge merge =
        new IndexMerge(context.array, Layout.corsPrefix() + bucket + Layout.SEPARATOR, "", 10);
    IndexMerge.Entry newest = merge.next();
    context.requireReadQuorum(merge, "read CORS of " + bucket);
    if (newest == null) {
      return Optional.empty();
    }
    return context
        .read(newest, CorsRecord.class)
        .filter(r -> r.bucketCreatedMillis() == created.createdMillis())
        .map(CorsRecord::configuration);
  }
}
