package io.racs.proxy.store.commit;

import io.racs.proxy.store.api.StoreConfig;
import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.array.IndexMerge;
import io.racs.proxy.store.array.KeyStamps;
import io.racs.proxy.store.array.StoreContext;
import io.racs.proxy.store.format.Layout;
import io.racs.proxy.store.format.VersionId;
import java.time.Duration;
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
public final class CommitOrder {
  private static final Duration MAX_REUSE_AGE = Duration.ofSeconds(1);

  private final StoreContext context;
  // The time of the newest version id this store minted, by a hash of the key (keys that share a
  // slot only make a version take a fresh id more often): see Pending.versionIdOrData.
  private final long[] newestMinted = new long[4096];

  public CommitOrder(StoreContext context) {
    this.context = context;
  }

  /** The ordering of one write of {@code bucket/key}, not yet started. */
  public Pending of(String bucket, String key) {
    return new Pending(bucket, key);
  }

  /** The newest version id listed for a key on a read quorum, or null if none is. */
  private String newestListed(String bucket, String key) {
    String prefix = Layout.indexKeyPrefix(bucket, context.nameKey(bucket, key));
    // Ids sort newest first: each repository's first entry is its newest, and one page of one
    // entry per repository is enough. Entries of writes that failed or still commit count too,
    // which can only order this write later than needed. A version's copy names its version.
    IndexMerge merge = IndexMerge.ungrouped(context.array, prefix, "", 1);
    IndexMerge.Entry newest = merge.next();
    context.requireReadQuorum(merge, "order a write of " + bucket + "/" + key);
    return newest == null ? null : Layout.versionOf(newest.name());
  }

  /**
   * One write's ordering: start the listing once, then mint the id after it. With key stamps it
   * also registers the write in its key's stamp slot ({@link KeyStamps}) in the background,
   * alongside the listing, so that the registration costs no round trip of its own: the commit
   * waits for it before its first repository call ({@link #takeRegistration}). Closing a write's
   * ordering ends a registration no commit took (the write failed or was refused before it).
   */
  public final class Pending implements AutoCloseable {
    private final String bucket;
    private final String key;
    private CompletableFuture<String> listing;
    private CompletableFuture<KeyStamps.Registration> registration;
    private boolean taken;

    private Pending(String bucket, String key) {
      this.bucket = bucket;
      this.key = key;
    }

    /** Starts the listing, and the registration, in the background unless they started already. */
    public synchronized Pending start() {
      register();
      if (listing == null) {
        listing =
            CompletableFuture.supplyAsync(
                () -> newestListed(bucket, key), context.array.executor());
      }
      return this;
    }

    /** Starts registering the write in the background unless it started already. */
    public synchronized Pending register() {
      if (registration == null) {
        registration = context.registerWriteLater(bucket, key);
      }
      return this;
    }

    /**
     * The write's registration, for its commit, which then owns it (closes it when its calls have
     * ended): waits for it, registering now if it had not started.
     *
     * @throws StoreException {@code COORDINATION_UNAVAILABLE} when the write cannot be registered
     */
    KeyStamps.Registration takeRegistration() {
      CompletableFuture<KeyStamps.Registration> registering;
      synchronized (this) {
        register();
        taken = true;
        registering = registration;
      }
      try {
        return registering.join();
      } catch (CompletionException e) {
        if (e.getCause() instanceof StoreException store) {
          throw store;
        }
        throw e;
      }
    }

    /** Ends the registration unless a commit took it: nothing of the write was committed. */
    @Override
    public void close() {
      CompletableFuture<KeyStamps.Registration> registering;
      synchronized (this) {
        if (taken || registration == null) {
          return;
        }
        taken = true;
        registering = registration;
      }
      registering.thenAccept(KeyStamps.Registration::close);
    }

    /**
     * Takes {@code newestListed}, the newest version id a listing of the key's index on a read
     * quorum named (null for none), in place of a listing of its own: a DELETE lists the key once,
     * to find the version it hides and to order itself ({@link VersionResolver#newest(String,
     * String, java.util.function.Consumer)}). The listing must have begun after the write did.
     */
    public synchronized void listed(String newestListed) {
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
    public String versionId() {
      return versionId(VersionId.Mark.NONE);
    }

    /** As {@link #versionId()}, the id marked {@code mark} (see {@link VersionId.Mark}). */
    public String versionId(VersionId.Mark mark) {
      observeNewest();
      synchronized (newestMinted) {
        String id = context.ids.next(mark);
        minted(id);
        return id;
      }
    }

    /**
     * As {@link #versionId()}, but the version takes {@code dataId}, the id its data was stored
     * under, when that orders it as a fresh id would: newer than every id listed, and minted within
     * {@link #maxReuseAge()} of now. A reader that meets the id in a listing then knows where the
     * version's shards are before it has read the record ({@link VersionId.Mark#DATA}). Otherwise a
     * fresh id, as always: a write that overlapped a newer commit is still ordered after it.
     */
    public String versionIdOrData(String dataId) {
      String newest = observeNewest();
      boolean ordered =
          VersionId.Mark.of(dataId) == VersionId.Mark.DATA
              && (newest == null || VersionId.newer(dataId, newest))
              && !VersionId.time(dataId)
                  .isBefore(context.config.clock().instant().minus(maxReuseAge()));
      synchronized (newestMinted) {
        // Of two overlapping writes of the key through this store, the one that commits later is
        // newer (docs/ordering.md): its data id, minted when it began, may be older than the
        // version id the other one took meanwhile.
        String id =
            ordered && VersionId.micros(dataId) > newestMinted[slot()]
                ? dataId
                : context.ids.next();
        minted(id);
        return id;
      }
    }

    /** Where {@link #newestMinted} keeps this write's key. */
    private int slot() {
      return Math.floorMod((bucket + "/" + key).hashCode(), newestMinted.length);
    }

    /** Notes a version id this store gave the key (holding the lock on {@link #newestMinted}). */
    private void minted(String id) {
      int slot = slot();
      newestMinted[slot] = Math.max(newestMinted[slot], VersionId.micros(id));
    }

    /**
     * How long before its commit a version's id may have been minted: the heal judges from the id's
     * time whether a key's newest version has settled ({@link StoreConfig#settleTime()}), so an
     * older id would shorten the settle time a version gets by its age. A quarter of the settle
     * time, at most a second; a second with a settle time of zero, which has nothing to shorten.
     */
    private Duration maxReuseAge() {
      Duration settle = context.config.settleTime();
      Duration quarter = settle.dividedBy(4);
      return settle.isZero() || quarter.compareTo(MAX_REUSE_AGE) > 0 ? MAX_REUSE_AGE : quarter;
    }

    /** Waits for the listing and advances the clock past the newest id it named (null: none). */
    private String observeNewest() {
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
      return newest;
    }
  }
}
