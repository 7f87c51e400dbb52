package io.racs.proxy.store.stripe;

import io.racs.proxy.store.array.LatencyEstimates;
import io.racs.proxy.store.array.RepositoryArray;
import io.racs.proxy.store.array.StoreContext;
import io.racs.proxy.store.format.Layout;
import io.racs.proxy.store.format.PartMeta;
import io.racs.proxy.store.format.VersionId;
import io.racs.proxy.store.format.VersionMeta;
import io.racs.repos.ObjectStream;
import io.racs.repos.Repository;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The shard reads a cold GET starts before it has the version's record. A GET that has not read the
 * current version's record (a proxy restarted, or a key another proxy wrote) learns from the
 * listing only the version's id; the record says where its shards are, and reading it first makes
 * the GET three round trips over distant repositories: the listing, the record, the shards. A
 * version id's mark ({@link VersionId.Mark}) says where they are most likely to be: under the id
 * itself (a PUT's version that took its data's id), or inside the version's records on each
 * repository (an inline version). So once the listing names the newest entry, the k reads a reader
 * would start first are started beside the record's: two round trips.
 *
 * <p>A guess is only ever used for the version it guessed, once its record has confirmed where the
 * shards are ({@link #fits}): the listing's newest entry may turn out not to be the current version
 * (a write still committing, a delete marker, a removed version), and an id from before marks
 * existed, or written by another store, may carry a mark by chance. Reads that are not used are
 * closed ({@link #discardUnused}); what a wrong guess costs is k repository GETs, most of them
 * answered "not found".
 *
 * <p>Thread-safe.
 */
public final class ShardGuess {
  /** A read the guess opened: the stream to come, and when it was asked for. */
  record Opened(CompletableFuture<ObjectStream> stream, long startedNanos) {}

  private final String versionId;
  private final boolean inline;
  private final List<Integer> slots;
  private final List<String> names;
  private final AtomicReferenceArray<Opened> opened;

  private ShardGuess(
      String versionId, boolean inline, List<Integer> slots, List<String> names, int n) {
    this.versionId = versionId;
    this.inline = inline;
    this.slots = slots;
    this.names = names;
    this.opened = new AtomicReferenceArray<>(n);
  }

  /**
   * Starts reading the k shards a reader of the version {@code versionId} of {@code bucket/key}
   * would ask for first, if the id's mark says where they are; null when it says nothing.
   */
  public static ShardGuess start(
      StoreContext context, String bucket, String key, String versionId) {
    VersionId.Mark mark = VersionId.Mark.of(versionId);
    if (mark == VersionId.Mark.NONE) {
      return null;
    }
    boolean inline = mark == VersionId.Mark.INLINE;
    int n = context.geometry.totalShards();
    int k = context.geometry.dataShards();
    List<Integer> slots = context.slotsFor(bucket, key);
    List<String> names = new ArrayList<>(n);
    String record = inline ? context.indexEntry(bucket, key, versionId) : null;
    for (int i = 0; i < n; i++) {
      names.add(inline ? record : Layout.shard(versionId, i));
    }
    ShardGuess guess = new ShardGuess(versionId, inline, slots, names, n);
    List<Integer> order = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      order.add(i);
    }
    RepositoryArray array = context.array;
    ReadOrder.sort(
        order,
        slots,
        k,
        array.latencies(),
        inline ? LatencyEstimates.Kind.RECORD : LatencyEstimates.Kind.SHARD);
    int started = 0;
    for (int i : order) {
      if (started == k) {
        break;
      }
      if (!array.health().usable(slots.get(i))) {
        continue; // a reader passes it over too
      }
      Repository repository = array.slot(slots.get(i));
      String name = names.get(i);
      long now = System.nanoTime();
      CompletableFuture<ObjectStream> stream;
      try {
        stream = CompletableFuture.supplyAsync(() -> repository.get(name), array.executor());
      } catch (RejectedExecutionException e) {
        guess.discardUnused();
        return null; // closing
      }
      guess.opened.set(i, new Opened(stream, now));
      started++;
    }
    return guess;
  }

  /**
   * Whether {@code meta}, the current version as its record says, is the one guessed, and its
   * shards are where the guess looked: then a reader of its whole part may take the guessed reads.
   */
  public boolean fits(VersionMeta meta) {
    if (!meta.versionId().equals(versionId) || meta.deleteMarker() || meta.parts().size() != 1) {
      return false;
    }
    PartMeta part = meta.parts().get(0);
    return part.inline() == inline
        && part.dataId().equals(versionId)
        && part.slots().equals(slots)
        && part.sizeBytes() > 0;
  }

  /**
   * Hands shard {@code shard}'s read to the reader that asks for it, once: null when the guess did
   * not read that shard, or read it elsewhere than {@code slot}/{@code name}.
   */
  Opened take(int shard, int slot, String name) {
    if (shard >= slots.size() || slots.get(shard) != slot || !names.get(shard).equals(name)) {
      return null;
    }
    return opened.getAndSet(shard, null);
  }

  /** Closes every read no reader took, whenever it opens. */
  public void discardUnused() {
    for (int i = 0; i < opened.length(); i++) {
      Opened left = opened.getAndSet(i, null);
      if (left != null) {
        closeWhenOpened(left.stream());
      }
    }
  }

  /** Closes a stream once it has opened, without waiting for it. */
  static void closeWhenOpened(CompletableFuture<ObjectStream> stream) {
    stream.whenComplete(
        (in, failure) -> {
          if (in != null) {
            try {
              in.close();
            } catch (IOException e) {
              // Nothing was read from it: nothing to report.
            }
          }
        });
  }
}
