package io.racs.proxy.store.commit;

import io.racs.proxy.store.array.StoreContext;
import io.racs.proxy.store.format.Layout;
import io.racs.proxy.store.format.VersionMeta;
import java.util.Optional;

/**
 * Removes single versions for good (DELETE with a version id, in a versioned bucket).
 *
 * <p>Deleting a version's index entries one repository at a time is not safe under the visibility
 * rule: an entry left on repositories whose deletion failed counts as a version again whenever
 * enough other repositories are unavailable (they count as "might hold it"). So a removal is a
 * record of its own, the version's removal record ({@link Layout#removalRecord}), written through
 * the one commit routine ({@link QuorumWriter}) on a write quorum before the removal is
 * acknowledged; every read quorum then meets it, and the resolver treats the version as gone
 * ({@link VersionResolver#removed}). Only then are the version's data and entries deleted, in the
 * background ({@link Collector#deleteRemovedLater}); heal finishes what that misses and deletes the
 * removal record itself once no repository lists the version's entry any more.
 *
 * <p>Thread-safe; calls block.
 */
public final class VersionRemovals {
  private final StoreContext context;
  private final QuorumWriter writer;
  private final VersionResolver resolver;
  private final Collector collector;
  private final RemovalRule rule;

  public VersionRemovals(
      StoreContext context,
      QuorumWriter writer,
      VersionResolver resolver,
      Collector collector,
      RemovalRule rule) {
    this.context = context;
    this.writer = writer;
    this.resolver = resolver;
    this.collector = collector;
    this.rule = rule;
  }

  /**
   * Removes the version {@code versionId} of a key, returning it, or empty (changing nothing) when
   * the key has no such version as the resolver sees it; {@code INSUFFICIENT_SHARDS} when the
   * removal record reached fewer than a write quorum (it is rolled back, and the version stays);
   * {@code OBJECT_LOCKED} when its object lock keeps it ({@link RemovalRule}).
   */
  public Optional<VersionMeta> remove(String bucket, String key, String versionId) {
    return remove(bucket, key, versionId, false);
  }

  /**
   * {@link #remove(String, String, String)} by a request that may bypass a {@code GOVERNANCE}
   * retention ({@code bypassGovernance}).
   */
  public Optional<VersionMeta> remove(
      String bucket, String key, String versionId, boolean bypassGovernance) {
    Optional<VersionMeta> version = resolver.exact(bucket, key, versionId);
    if (version.isEmpty()) {
      return version;
    }
    rule.requireRemovable(version.get(), bypassGovernance);
    String entry = context.indexEntry(bucket, key, versionId);
    writer.write(
        Layout.removalRecord(entry),
        Layout.encode(version.get()),
        "remove " + bucket + "/" + key + " version " + versionId);
    collector.deleteRemovedLater(entry, version.get());
    return version;
  }
}
