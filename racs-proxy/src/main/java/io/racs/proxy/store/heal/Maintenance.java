package io.racs.proxy.store.heal;

import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.api.StoreConfig;
import io.racs.proxy.store.array.ArraySlots;
import io.racs.proxy.store.array.StoreContext;
import io.racs.proxy.store.commit.Collector;
import io.racs.proxy.store.commit.VersionResolver;
import io.racs.proxy.store.format.VersionMeta;
import io.racs.proxy.store.object.MultipartUploads;
import java.util.List;
import java.util.Optional;

/**
 * What heal and the other maintenance jobs (the heal lease, abandoned-upload clean-up) need of the
 * store they keep, and nothing more: the parts of the store they share with it, the buckets, and
 * the removal of one version through the store's own path. {@link ErasureStore} implements it; a
 * maintenance job never sees the facade, so the tiers below the facade never depend on it.
 *
 * <p>Thread-safe, as the store is.
 */
public interface Maintenance {
  /** What every part of the store shares: the array, the configuration, the record cache. */
  StoreContext context();

  /** The configuration. */
  StoreConfig config();

  /** The slots behind their guards. */
  ArraySlots slots();

  /**
   * The store's collector, shared so that heal's removals are paced and counted with the store's.
   */
  Collector collector();

  /** The one visibility rule. */
  VersionResolver resolver();

  /** The multipart uploads of the array. */
  MultipartUploads uploads();

  /** Every bucket. */
  List<ObjectStore.BucketInfo> listBuckets();

  /**
   * Whether a bucket keeps every version, read from its records now: what heal asks before it
   * collects a superseded version.
   */
  boolean keepsVersions(String bucket);

  /** Removes one version as a client's DELETE by version id does; the removed version, if any. */
  Optional<VersionMeta> removeVersion(String bucket, String key, String versionId);

  /**
   * Waits until the collections of superseded versions started so far have finished, with their
   * pace lifted meanwhile, so that heal does not race the store's own collector.
   */
  void awaitCollections();
}
