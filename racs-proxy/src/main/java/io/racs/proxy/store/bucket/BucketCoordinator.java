package io.racs.proxy.store.bucket;

import io.racs.proxy.store.api.StoreException;
import java.util.function.Supplier;

/**
 * How the store's bucket changes meet those of other proxies over the same array. Without
 * coordination ({@link #NONE}) each proxy creates and deletes buckets on its own, and a bucket
 * deleted through another proxy can be served here from the bucket cache for up to a second. With
 * coordination, creates and deletes of a bucket are serialised across proxies, each proxy drops its
 * cached state of a bucket as soon as it hears of a change, and the proxy that made the change
 * answers only once every other live proxy has dropped it (or its cache expired).
 *
 * <p>Only bucket creates, deletes and versioning changes go through this: the data path (PUT, GET,
 * LIST, DELETE of objects) takes no cross-proxy lock. Implementations are thread-safe.
 */
public interface BucketCoordinator {
  /** No coordination: changes run at once, and the bucket cache is always trusted. */
  BucketCoordinator NONE =
      new BucketCoordinator() {
        @Override
        public <T> T change(String bucket, Supplier<T> change) {
          return change.get();
        }

        @Override
        public boolean cacheTrusted() {
          return true;
        }
      };

  /**
   * Runs a create or delete of {@code bucket} serialised with every other proxy's change of it, and
   * tells the other proxies once it is done.
   *
   * @throws StoreException {@code COORDINATION_UNAVAILABLE} (before running {@code change}) when
   *     the change cannot be serialised now
   */
  <T> T change(String bucket, Supplier<T> change);

  /**
   * Whether this proxy would hear now of a bucket changed through another proxy. While it would not
   * (coordination configured but not connected), the store reads bucket state from the repositories
   * each time instead of from its cache.
   */
  boolean cacheTrusted();
}
