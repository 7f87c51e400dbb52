package io.racs.proxy.store.object;

import io.racs.proxy.crypto.CustomerKey;
import io.racs.proxy.crypto.DataKey;
import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.array.RequestStalls;
import io.racs.proxy.store.array.StoreContext;
import io.racs.proxy.store.array.VersionCache;
import io.racs.proxy.store.bucket.BucketCatalog;
import io.racs.proxy.store.commit.CurrentVersions;
import io.racs.proxy.store.commit.VersionResolver;
import io.racs.proxy.store.format.PartMeta;
import io.racs.proxy.store.format.VersionMeta;
import io.racs.proxy.store.stripe.PartReader;
import io.racs.proxy.store.stripe.PartSequence;
import io.racs.proxy.store.stripe.ShardGuess;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;

/**
 * Reads object versions: HEAD, whole and ranged GETs, a part of a multipart object, and the bytes
 * of one exact version. Which version is current is the {@link VersionResolver}'s answer; this
 * class only opens it, across parts, degraded when it must.
 *
 * <p>Thread-safe. Failures that can be known before the first byte are thrown when opening.
 */
public final class ObjectReads {
  private final StoreContext context;
  private final VersionResolver resolver;
  private final BucketCatalog buckets;
  private final ExecutorService background;
  // The version each recently read key had when it was last served (a hint for getWhole).
  private final VersionCache lastServed = new VersionCache(16_384);
  // Which version is current, without a listing while the key's stamp stays (see CurrentVersions).
  private final CurrentVersions currentVersions;

  public ObjectReads(
      StoreContext context,
      VersionResolver resolver,
      BucketCatalog buckets,
      ExecutorService background) {
    this.context = context;
    this.resolver = resolver;
    this.buckets = buckets;
    this.background = background;
    this.currentVersions = new CurrentVersions(context, resolver, 16_384);
  }

  /**
   * Forgets the version this store last served for a key it is about to overwrite or delete, so
   * that the next GET does not start reading shards the listing will then turn down.
   */
  public void superseded(String bucket, String key) {
    lastServed.remove(bucket + "/" + key);
  }

  /**
   * Forgets which version of every key was served last (see {@link ErasureStore#forgetKeyCaches}).
   */
  public void forgetServed() {
    lastServed.clear();
    currentVersions.clear();
  }

  /**
   * Remembers the version this store just committed for its key as the one to read early, as if it
   * had served it (the listing still decides whether it is current).
   */
  public void wrote(VersionMeta meta) {
    String hintKey = meta.bucket() + "/" + meta.key();
    if (meta.deleteMarker()) {
      lastServed.remove(hintKey);
    } else {
      lastServed.put(hintKey, meta);
    }
  }

  /** The current version of a key; {@code NO_SUCH_KEY} when there is none or it is deleted. */
  public VersionMeta current(String bucket, String key) {
    return current(bucket, key, listed -> {});
  }

  /**
   * As {@link #current(String, String)}, handing {@code newestListed} the id of the newest entry
   * the listing named (null for none) as soon as the listing has it, before its record is read.
   */
  private VersionMeta current(String bucket, String key, Consumer<String> newestListed) {
    BucketCatalog.checkName(bucket);
    StoreContext.checkKey(key);
    // A live version proves its bucket exists (a bucket is deleted only when empty), so the
    // bucket is looked up only to tell a missing bucket from a missing key.
    Optional<VersionMeta> newest = currentVersions.newest(bucket, key, newestListed);
    if (newest.isPresent() && newest.get().deleteMarker()) {
      // An unversioned bucket holding only delete markers may have been deleted: say so first.
      buckets.require(bucket);
      throw new StoreException.DeletedKey(bucket + "/" + key, newest.get());
    }
    if (newest.isEmpty()) {
      buckets.require(bucket);
      throw new StoreException(StoreException.Code.NO_SUCH_KEY, bucket + "/" + key);
    }
    return newest.get();
  }

  public ObjectStore.ObjectReader get(
      String bucket,
      String key,
      long offset,
      long length,
      int partNumber,
      CustomerKey customerKey) {
    if (partNumber <= 0 && offset == 0 && length < 0) {
      return getWhole(bucket, key, customerKey);
    }
    return open(bucket, key, current(bucket, key), offset, length, partNumber, customerKey);
  }

  /**
   * Opens the current version {@code meta} of a key. A version superseded after it was resolved may
   * have been collected (by this proxy or another) before its shards could be read: then the key is
   * resolved again and the version that replaced it is read, so the reader gets the newest version
   * or an error that says why, never "no such key" for a key that always had one.
   */
  private ObjectStore.ObjectReader open(
      String bucket,
      String key,
      VersionMeta meta,
      long offset,
      long length,
      int partNumber,
      CustomerKey customerKey) {
    int committing = 0;
    for (int attempt = 1; ; attempt++) {
      try {
        return open(meta, offset, length, partNumber, customerKey);
      } catch (StoreException e) {
        if (e.code() != StoreException.Code.INSUFFICIENT_SHARDS
            || attempt >= VersionResolver.ATTEMPTS + committing) {
          throw e;
        }
        Optional<VersionMeta> older = olderCopy(meta);
        if (older.isPresent()) {
          meta = older.get(); // a copy whose data cannot be read: its version's older copy
          continue;
        }
        VersionMeta now = current(bucket, key);
        if (now.versionId().equals(meta.versionId()) && now.layout() == meta.layout()) {
          // Still current. A version is current once a write quorum *could* hold it (counting
          // repositories that did not answer), so it may still be committing: its records or
          // shards not yet on the repositories that answered "not found". Then it is read again a
          // few times, a little later each time, before its failure is the answer (the fault
          // suite's missing-m case met a GET that overlapped the PUT it read).
          if (committing >= COMMIT_RETRIES || !notFoundAnywhere(e)) {
            throw e;
          }
          committing++;
          pause(committing);
          continue;
        }
        meta = now;
      }
    }
  }

  /** How many more times a current version that may be committing is read again. */
  private static final int COMMIT_RETRIES = 4;

  private static boolean notFoundAnywhere(StoreException e) {
    return e.failures().stream().anyMatch(f -> f.cause().contains("NOT_FOUND"));
  }

  /** Waits 25, 50, 100, 200 ms: a commit in flight is one quorum write long. */
  private static void pause(int retry) {
    try {
      Thread.sleep(25L << (retry - 1));
    } catch (InterruptedException ie) {
      Thread.currentThread().interrupt();
      throw new StoreException(StoreException.Code.INSUFFICIENT_SHARDS, "interrupted", ie);
    }
  }

  /** Opens a range, or one part ({@code partNumber} > 0), of one version. */
  private ObjectStore.ObjectReader open(
      VersionMeta meta, long offset, long length, int partNumber, CustomerKey customerKey) {
    if (partNumber <= 0) {
      return read(meta, offset, length, customerKey);
    }
    long[] range =
        meta.partRange(partNumber)
            .orElseThrow(
                () ->
                    new StoreException(
                        StoreException.Code.INVALID_RANGE,
                        "part number " + partNumber + " of " + meta.parts().size() + " parts"));
    return reader(meta, range[0], range[0] + range[1], customerKey);
  }

  /**
   * A whole-object GET. Finding the newest version takes a listing on every repository; when this
   * store served the key before, it starts reading the version it served then at the same time, and
   * keeps that read if the listing confirms the version is still the newest (versions never change,
   * so the bytes are right), or drops it if not. A hot key then costs about one round of repository
   * calls rather than two. Otherwise, once the listing names the newest entry, the shards its id's
   * mark points at are read beside its record ({@link ShardGuess}): two rounds rather than three.
   */
  private ObjectStore.ObjectReader getWhole(String bucket, String key, CustomerKey customerKey) {
    String hintKey = bucket + "/" + key;
    VersionMeta hint = lastServed.get(hintKey);
    CompletableFuture<PartReader> early = null;
    // A sealed version is read early too: what is read are its sealed bytes, which need no key;
    // the data key is opened (and a customer's key checked) once the version is known to be
    // current, before a byte is handed out.
    if (hint != null && hint.parts().size() == 1 && hint.sizeBytes() > 0) {
      PartMeta part = hint.parts().get(0);
      PartReader tentative = partReader(hint, part, 0, part.sizeBytes()).tentative();
      try {
        early = CompletableFuture.supplyAsync(RequestStalls.carry(tentative::open), background);
      } catch (RejectedExecutionException e) {
        early = null; // closing
      }
    }
    // Set once the listing names an entry the hint is not (a key this store has not served, or
    // one another proxy has overwritten since).
    ShardGuess[] guess = new ShardGuess[1];
    VersionMeta meta;
    try {
      meta =
          current(
              bucket,
              key,
              listed -> {
                if (listed != null && (hint == null || !hint.versionId().equals(listed))) {
                  guess[0] = ShardGuess.start(context, bucket, key, listed);
                }
              });
    } catch (RuntimeException e) {
      discard(early);
      discard(guess[0]);
      lastServed.remove(hintKey);
      throw e;
    }
    lastServed.put(hintKey, meta);
    if (early != null && hint.versionId().equals(meta.versionId())) {
      discard(guess[0]);
      DataKey dataKey;
      try {
        dataKey =
            ObjectSealing.open(meta.encryption(), customerKey, context.config.keys(), what(meta));
      } catch (RuntimeException e) {
        discard(early);
        throw e;
      }
      try {
        PartReader opened = early.get();
        opened.confirm(context.stats);
        return whole(meta, opened, dataKey);
      } catch (ExecutionException e) {
        // Read it again below: the early read may have met a repository that has recovered since.
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        discard(early);
        throw new StoreException(StoreException.Code.INSUFFICIENT_SHARDS, "interrupted", e);
      }
    } else {
      discard(early);
    }
    if (guess[0] != null && guess[0].fits(meta)) {
      // The key is checked before the first stripe is read, as in any read.
      DataKey dataKey;
      try {
        dataKey =
            ObjectSealing.open(meta.encryption(), customerKey, context.config.keys(), what(meta));
      } catch (RuntimeException e) {
        discard(guess[0]);
        throw e;
      }
      PartMeta part = meta.parts().get(0);
      try {
        PartReader opened = partReader(meta, part, 0, part.sizeBytes()).preopened(guess[0]).open();
        discard(guess[0]); // the reads the reader did not take (it asked for other shards)
        return whole(meta, opened, dataKey);
      } catch (StoreException e) {
        // Read it again below, resolving the key again if the version is gone (see open).
        discard(guess[0]);
      } catch (RuntimeException e) {
        discard(guess[0]); // the store is closing (its executor refused a source): close the rest
        throw e;
      }
    } else {
      discard(guess[0]);
    }
    return open(bucket, key, meta, 0, -1, 0, customerKey);
  }

  /**
   * The reader of a whole GET of {@code meta} from {@code opened}, a reader of its one part's
   * stored bytes (opened with {@code dataKey} when it is sealed, null when it is not).
   */
  private ObjectStore.ObjectReader whole(VersionMeta meta, PartReader opened, DataKey dataKey) {
    if (dataKey == null) {
      return wrap(meta, opened, 0, meta.sizeBytes());
    }
    PartMeta part = meta.parts().get(0);
    try {
      return wrap(
          meta,
          ObjectSealing.openRange(
              dataKey, part, 0, meta.sizeBytes(), (from, to) -> sealedWhole(opened, from, to)),
          0,
          meta.sizeBytes());
    } catch (RuntimeException e) {
      opened.close(); // its sources hold repository streams
      throw e;
    }
  }

  /** Closes the reads of a guess that no reader took, if there is a guess. */
  private static void discard(ShardGuess guess) {
    if (guess != null) {
      guess.discardUnused();
    }
  }

  /** The early read of a whole sealed part, which is what a whole-object GET opens. */
  private static InputStream sealedWhole(PartReader opened, long from, long to) {
    if (from != 0 || to != opened.lengthBytes()) {
      opened.close();
      throw new IllegalStateException(
          "a whole GET asked for sealed bytes [" + from + ", " + to + ") of a part read whole");
    }
    return opened;
  }

  /**
   * A reader of bytes {@code [from, to)} of one part of {@code meta}, in the geometry {@code meta}
   * was written in.
   */
  private PartReader partReader(VersionMeta meta, PartMeta part, long from, long to) {
    PartReader reader =
        new PartReader(
            context.array, context.codecOf(meta), context.config, context.stats, part, from, to);
    return part.inline() ? reader.inlineIn(inlineRecord(meta)) : reader;
  }

  /** The index entry (or copy) that holds an inline version's shards. */
  public String inlineRecord(VersionMeta meta) {
    return context.recordEntry(meta);
  }

  /** Closes an early read whenever it finishes, without waiting for it. */
  private static void discard(CompletableFuture<PartReader> early) {
    if (early != null) {
      early.whenComplete(
          (reader, failure) -> {
            if (reader != null) {
              reader.close();
            }
          });
    }
  }

  public ObjectStore.ObjectReader read(
      VersionMeta meta, long offset, long length, CustomerKey customerKey) {
    if (meta.deleteMarker()) {
      throw new StoreException(
          StoreException.Code.NO_SUCH_KEY, meta.bucket() + "/" + meta.key() + " (delete marker)");
    }
    long size = meta.sizeBytes();
    if (offset < 0 || (offset >= size && size > 0) || (size == 0 && offset > 0)) {
      throw new StoreException(
          StoreException.Code.INVALID_RANGE,
          "range start " + offset + " of an object of " + size + " bytes");
    }
    long end = length < 0 ? size : Math.min(size, offset + length);
    try {
      return reader(meta, offset, end, customerKey);
    } catch (StoreException e) {
      Optional<VersionMeta> older =
          e.code() == StoreException.Code.INSUFFICIENT_SHARDS ? olderCopy(meta) : Optional.empty();
      if (older.isEmpty()) {
        throw e;
      }
      return read(older.get(), offset, length, customerKey);
    }
  }

  /**
   * The older copy of a version that a reshape moved ({@link VersionResolver#olderCopy}), for a
   * read whose copy's data could not be read; empty for a version as written, or when that lookup
   * fails.
   */
  private Optional<VersionMeta> olderCopy(VersionMeta meta) {
    if (meta.layout() == 0) {
      return Optional.empty();
    }
    try {
      return resolver.olderCopy(meta);
    } catch (StoreException e) {
      return Optional.empty();
    }
  }

  private ObjectStore.ObjectReader reader(
      VersionMeta meta, long start, long end, CustomerKey customerKey) {
    return wrap(meta, openRange(meta, start, end, customerKey), start, end);
  }

  /**
   * Checks that a request with {@code customerKey} (null for none) may read {@code meta}: a version
   * sealed with a customer's key needs that key, and no other version takes one.
   */
  public void checkKey(VersionMeta meta, CustomerKey customerKey) {
    if (!meta.deleteMarker()) {
      ObjectSealing.open(meta.encryption(), customerKey, context.config.keys(), what(meta));
    }
  }

  private static String what(VersionMeta meta) {
    return meta.bucket() + "/" + meta.key() + " version " + meta.versionId();
  }

  private static ObjectStore.ObjectReader wrap(
      VersionMeta meta, InputStream body, long start, long end) {
    long rangeLength = end - start;
    return new ObjectStore.ObjectReader() {
      @Override
      public VersionMeta meta() {
        return meta;
      }

      @Override
      public long rangeLength() {
        return rangeLength;
      }

      @Override
      public InputStream body() {
        return body;
      }

      @Override
      public void close() {
        try {
          body.close();
        } catch (IOException e) {
          // Part readers do not fail on close.
        }
      }
    };
  }

  /**
   * Bytes {@code [start, end)} of the plaintext across parts; the first part is opened (and
   * checked) now.
   */
  private InputStream openRange(VersionMeta meta, long start, long end, CustomerKey customerKey) {
    DataKey key =
        ObjectSealing.open(meta.encryption(), customerKey, context.config.keys(), what(meta));
    List<PartMeta> parts = meta.parts();
    List<long[]> pieces = new ArrayList<>();
    long partStart = 0;
    for (int i = 0; i < parts.size(); i++) {
      long size = meta.plainBytes(parts.get(i));
      long from = Math.max(start, partStart);
      long to = Math.min(end, partStart + size);
      if (from < to) {
        pieces.add(new long[] {i, from - partStart, to - partStart});
      }
      partStart += size;
    }
    if (pieces.isEmpty()) {
      return InputStream.nullInputStream();
    }
    long[] first = pieces.get(0);
    if (key != null) {
      return openSealed(meta, key, pieces);
    }
    PartReader opened = partReader(meta, parts.get((int) first[0]), first[1], first[2]).open();
    if (pieces.size() == 1) {
      return opened;
    }
    return new PartSequence(
        opened,
        pieces.size() - 1,
        next -> {
          long[] p = pieces.get(next + 1);
          return partReader(meta, parts.get((int) p[0]), p[1], p[2]).open();
        });
  }

  /**
   * The plaintext of sealed pieces ({part index, from, to}), each part opened with the data key;
   * the first now (so that its first chunk is authenticated before anything is sent), the others
   * when the one before is used up.
   */
  private InputStream openSealed(VersionMeta meta, DataKey key, List<long[]> pieces) {
    List<PartMeta> parts = meta.parts();
    InputStream first =
        openPiece(meta, key, parts.get((int) pieces.get(0)[0]), pieces.get(0)[1], pieces.get(0)[2]);
    if (pieces.size() == 1) {
      return first;
    }
    java.util.Iterator<long[]> rest = pieces.subList(1, pieces.size()).iterator();
    return new java.io.SequenceInputStream(
        new java.util.Enumeration<InputStream>() {
          private boolean firstGiven;

          @Override
          public boolean hasMoreElements() {
            return !firstGiven || rest.hasNext();
          }

          @Override
          public InputStream nextElement() {
            if (!firstGiven) {
              firstGiven = true;
              return first;
            }
            long[] p = rest.next();
            return openPiece(meta, key, parts.get((int) p[0]), p[1], p[2]);
          }
        });
  }

  /** Plaintext {@code [from, to)} of one sealed part. */
  private InputStream openPiece(VersionMeta meta, DataKey key, PartMeta part, long from, long to) {
    return ObjectSealing.openRange(
        key,
        part,
        from,
        to,
        (sealedFrom, sealedTo) -> partReader(meta, part, sealedFrom, sealedTo).open());
  }
}
