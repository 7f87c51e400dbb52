package io.racs.proxy.store;

import java.util.Optional;

/**
 * Decides which version of a key readers see: GET, HEAD, DELETE, LIST and heal all ask here.
 *
 * <p>An index entry is written only once its data is on a write quorum, so any listed entry is a
 * committed version, newest first, except an inline version whose records are on too few
 * repositories to have ever reached a quorum (a write that crashed while committing): that one must
 * not hide the version before it.
 *
 * <p>Thread-safe; calls block on repository listings.
 */
final class VersionResolver {
  private final StoreContext context;

  VersionResolver(StoreContext context) {
    this.context = context;
  }

  /**
   * Whether an entry is an inline version that certainly never committed: its records (which hold
   * its shards) are on fewer than k repositories even counting every one that did not answer. A
   * write that crashed while committing leaves such an entry; it must not hide the version before
   * it, and heal collects it.
   */
  boolean uncommittedInline(IndexMerge merge, IndexMerge.Entry e, VersionMeta meta) {
    return meta.parts().size() == 1
        && meta.parts().get(0).inline()
        && e.slots().size() + (context.array.size() - merge.healthySlots())
            < context.geometry.dataShards();
  }

  /** The newest visible version of a key (possibly a delete marker), if any. */
  Optional<VersionMeta> newest(String bucket, String key) {
    IndexMerge merge =
        new IndexMerge(
            context.array, Layout.indexKeyPrefix(bucket, context.nameKey(bucket, key)), "", 10);
    for (IndexMerge.Entry e = merge.next(); e != null; e = merge.next()) {
      Optional<VersionMeta> meta = context.read(e, VersionMeta.class);
      if (meta.isPresent()
          && meta.get().key().equals(key)
          && !uncommittedInline(merge, e, meta.get())) {
        return meta;
      }
    }
    context.requireReadQuorum(merge, "read " + bucket + "/" + key);
    return Optional.empty();
  }
}
