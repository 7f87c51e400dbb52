package io.racs.proxy.store;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Orders a write of a key after every write of that key acknowledged before it began, through any
 * proxy, whatever their clocks say (see {@code docs/ordering.md}): before its version id is minted,
 * the write lists the key's index entries on a read quorum and advances the store's {@link
 * VersionId} clock past the newest id there. An acknowledged version is on a write quorum, so a
 * read quorum's listings name it; and since the listing begins after the write began, the
 * acknowledged version is among them.
 *
 * <p>The listing runs alongside the write's other work, to cost no round trip of its own where the
 * write has one to overlap: a striped PUT starts it once the client's body has been received, while
 * the last shards are still being stored ({@link Pending#start()}); a delete marker takes the
 * listing that finds the version it hides ({@link Pending#listed}). Its failure (no read quorum)
 * fails the write with it, as any other loss of quorum does ({@code INSUFFICIENT_SHARDS}, a 503),
 * before anything is committed.
 *
 * <p>Thread-safe.
 */
final class CommitOrder {
  private final StoreContext context;

  CommitOrder(StoreContext context) {
    this.context = context;
  }

  /** The ordering of one write of {@code bucket/key}, not yet started. */
  Pending of(String bucket, String key) {
    return new Pending(bucket, key);
  }

  /** The newest version id listed for a key on a read quorum, or null if none is. */
  private String newestListed(String bucket, String key) {
    String prefix = Layout.indexKeyPrefix(bucket, context.nameKey(bucket, key));
    // Ids sort newest first: each repository's first entry is its newest, and one page of one
    // entry per repository is enough. Entries of writes that failed or still commit count too,
    // which can only order this write later than needed.
    IndexMerge merge = new IndexMerge(context.array, prefix, "", 1);
    IndexMerge.Entry newest = merge.next();
    context.requireReadQuorum(merge, "order a write of " + bucket + "/" + key);
    return newest == null ? null : Layout.versionOf(newest.name());
  }

  /** One write's ordering: start the listing once, then mint the id after it. */
  final class Pending {
    private final String bucket;
    private final String key;
    private CompletableFuture<String> listing;

    private Pending(String bucket, String key) {
      this.bucket = bucket;
      this.key = key;
    }

    /** Starts the listing in the background unless it started already. */
    synchronized Pending start() {
      if (listing == null) {
        listing =
            CompletableFuture.supplyAsync(
                () -> newestListed(bucket, key), context.array.executor());
      }
      return this;
    }

    /**
     * Takes {@code newestListed}, the newest version id a listing of the key's index on a read
     * quorum named (null for none), in place of a listing of its own: a DELETE lists the key once,
     * to find the version it hides and to order itself ({@link VersionResolver#newest(String,
     * String, java.util.function.Consumer)}). The listing must have begun after the write did.
     */
    synchronized void listed(String newestListed) {
      if (listing == null) {
        listing = CompletableFuture.completedFuture(newestListed);
      }
    }

    /**
     * Waits for the listing (starting it if it has not started) and mints the write's version id,
     * newer than every id listed.
     *
     * @throws StoreException {@code INSUFFICIENT_SHARDS} when the listing did not reach a read
     *     quorum
     */
    String versionId() {
      String newest;
      try {
        newest = start().listing.join();
      } catch (CompletionException e) {
        if (e.getCause() instanceof StoreException store) {
          throw store;
        }
        throw e;
      }
      if (newest != null) {
        context.ids.observe(newest);
      }
      return context.ids.next();
    }
  }
}
