package io.racs.proxy.store.stripe;

import io.racs.proxy.codec.ErasureCodec;
import io.racs.proxy.store.api.StoreConfig;
import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.api.StoreStats;
import io.racs.proxy.store.array.RepositoryArray;
import io.racs.proxy.store.array.Throttle;
import io.racs.proxy.store.format.Layout;
import io.racs.proxy.store.format.PartMeta;
import io.racs.proxy.store.format.VersionMeta;
import io.racs.repos.ObjectInfo;
import io.racs.repos.Repository;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.zip.CRC32C;

/**
 * Rewrites the missing or damaged shard objects of one part from k good ones, a stripe at a time:
 * the stripes are loaded as a GET loads them ({@link StripeLoader}, under a rebuild's {@link
 * StripePolicy}), and the rebuilt pieces streamed to the repositories that need them. An inline
 * version's records are small and rebuilt whole.
 */
public final class ShardRebuilder {
  /** What a rebuild did. */
  public record Result(int shardsRebuilt, long bytesRead, long bytesWritten) {}

  private ShardRebuilder() {}

  /**
   * A rebuilt shard or record could not be written to its repository: that repository failed, not
   * the object, which k good shards still hold.
   */
  public static final class TargetFailed extends StoreException {
    private static final long serialVersionUID = 1L;
    private final int slot;

    TargetFailed(int slot, String message, Throwable cause) {
      super(StoreException.Code.INSUFFICIENT_SHARDS, message, cause);
      this.slot = slot;
    }

    /** The slot whose repository did not take the write. */
    public int slot() {
      return slot;
    }
  }

  /**
   * Rebuilds the shards {@code badShards} of {@code part} from k others, never reading those or the
   * {@code unreadable} ones: the stripes come from a {@link StripeLoader} under a rebuild's {@link
   * StripePolicy}, hedged and given up on a stall as a GET's are, paced by {@code throttle}, and
   * quiet. A source whose own bytes fail on the way (a corrupt piece, a short shard, a failed read)
   * is replaced by another for the remaining stripes, and rebuilt itself in a pass of its own once
   * this one is done.
   *
   * @throws TargetFailed when a target's repository does not take its rebuilt shard
   * @throws StoreException {@code INSUFFICIENT_SHARDS} when fewer than k shards can be read
   */
  public static Result rebuild(
      RepositoryArray array,
      ErasureCodec codec,
      StoreConfig config,
      PartMeta part,
      Set<Integer> badShards,
      Set<Integer> unreadable,
      Throttle throttle) {
    int k = codec.geometry().dataShards();
    int n = codec.geometry().totalShards();
    Set<Integer> targets = new TreeSet<>(badShards);
    Result total = new Result(0, 0, 0);
    // Each pass rebuilds the sources the one before found damaged; bounded, in case a repository
    // damages whatever it is given.
    for (int pass = 0; pass < n && !targets.isEmpty(); pass++) {
      StripePolicy policy = StripePolicy.rebuild(targets, unreadable, throttle);
      if (n - policy.excluded().size() < k) {
        throw new StoreException(
            StoreException.Code.INSUFFICIENT_SHARDS,
            "part "
                + part.dataId()
                + ": only "
                + (n - policy.excluded().size())
                + " good shards of "
                + n
                + " (need "
                + k
                + ")");
      }
      StripeLoader loader =
          new StripeLoader(
              array, codec, config, new StoreStats(), part, part.stripes(k) - 1, policy);
      Result result;
      try {
        result = pass(array, config, part, new ArrayList<>(targets), loader, throttle, k);
      } finally {
        loader.close();
      }
      total =
          new Result(
              total.shardsRebuilt() + result.shardsRebuilt(),
              total.bytesRead() + result.bytesRead(),
              total.bytesWritten() + result.bytesWritten());
      targets = loader.damaged();
      targets.removeAll(unreadable);
    }
    return total;
  }

  /**
   * Streams the {@code targets} that {@code loader} reconstructs stripe by stripe to their slots.
   */
  private static Result pass(
      RepositoryArray array,
      StoreConfig config,
      PartMeta part,
      List<Integer> targets,
      StripeLoader loader,
      Throttle throttle,
      int k) {
    long stripes = part.stripes(k);
    long shardLength = part.shardObjectBytes(k);
    long timeoutNanos = config.slowShardTimeout().toNanos();
    List<ShardPipe> pipes = new ArrayList<>();
    List<Future<ObjectInfo>> puts = new ArrayList<>();
    for (int shard : targets) {
      ShardPipe pipe = new ShardPipe(2);
      pipes.add(pipe);
      Repository repository = array.slot(part.slots().get(shard));
      String name = Layout.shard(part.dataId(), shard);
      puts.add(array.executor().submit(() -> pipe.putInto(repository, name, shardLength)));
    }
    long bytesWritten = 0;
    boolean done = false;
    try {
      CRC32C crc = new CRC32C();
      for (long s = 0; s < stripes; s++) {
        int length = part.pieceBytes(k, s);
        loader.load(s);
        byte[][] pieces = loader.pieces();
        throttle.consume(length * (long) targets.size());
        for (int t = 0; t < targets.size(); t++) {
          int shard = targets.get(t);
          // Reconstructed into an array of its own for this stripe: framed where it lies.
          byte[] out = pieces[shard];
          PieceCodec.seal(out, length, crc);
          if (!pipes.get(t).offer(out, timeoutNanos)) {
            throw targetFailed(part.slots().get(shard), puts.get(t), shard);
          }
          bytesWritten += out.length;
        }
      }
      for (int t = 0; t < targets.size(); t++) {
        if (!pipes.get(t).finish(timeoutNanos)) {
          throw targetFailed(part.slots().get(targets.get(t)), puts.get(t), targets.get(t));
        }
      }
      for (int t = 0; t < targets.size(); t++) {
        int slot = part.slots().get(targets.get(t));
        try {
          puts.get(t).get(timeoutNanos, TimeUnit.NANOSECONDS);
        } catch (ExecutionException | TimeoutException e) {
          throw new TargetFailed(
              slot,
              "slot "
                  + slot
                  + " did not take the rebuilt shard "
                  + targets.get(t)
                  + ": "
                  + (e.getCause() != null ? e.getCause().getMessage() : e.toString()),
              e);
        }
      }
      done = true;
      return new Result(targets.size(), loader.bytesRead(), bytesWritten);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StoreException(StoreException.Code.INSUFFICIENT_SHARDS, "interrupted", e);
    } finally {
      if (!done) {
        for (ShardPipe pipe : pipes) {
          pipe.abort("rebuild abandoned");
        }
      }
    }
  }

  /**
   * Rebuilds the records of an inline version that are missing or damaged on the repositories of
   * {@code badShards}, from k good ones: reads each source record's shard (checking its CRC32C; a
   * damaged one joins the bad set), reconstructs, and writes each rebuilt shard in a new record.
   */
  public static Result rebuildInline(
      RepositoryArray array,
      ErasureCodec codec,
      VersionMeta version,
      String recordName,
      Set<Integer> badShards,
      Set<Integer> unreadable) {
    PartMeta part = version.parts().get(0);
    int k = codec.geometry().dataShards();
    int n = codec.geometry().totalShards();
    int length = part.pieceBytes(k, 0);
    Set<Integer> bad = new TreeSet<>(badShards);
    byte[][] buffers = new byte[n][length];
    boolean[] present = new boolean[n];
    int found = 0;
    long bytesRead = 0;
    for (int i = 0; i < n && found < k; i++) {
      if (bad.contains(i) || unreadable.contains(i)) {
        continue;
      }
      Optional<byte[]> stored;
      try {
        stored = RepositoryArray.getBytes(array.slot(part.slots().get(i)), recordName);
      } catch (RuntimeException e) {
        stored = Optional.empty();
      }
      Optional<byte[]> piece = stored.flatMap(b -> inlineShard(b, part, k));
      if (piece.isEmpty()) {
        bad.add(i);
        continue;
      }
      bytesRead += stored.get().length;
      System.arraycopy(piece.get(), 0, buffers[i], 0, length);
      present[i] = true;
      found++;
    }
    if (found < k) {
      throw new StoreException(
          StoreException.Code.INSUFFICIENT_SHARDS,
          "inline version " + part.dataId() + ": only " + found + " good shards (need " + k + ")");
    }
    if (length > 0) {
      codec.reconstruct(buffers, present, 0, length);
    }
    int rebuilt = 0;
    long bytesWritten = 0;
    CRC32C crc = new CRC32C();
    for (int i : bad) {
      if (unreadable.contains(i)) {
        continue;
      }
      byte[] shard =
          part.sizeBytes() == 0 ? new byte[0] : PieceCodec.framed(buffers[i], length, crc);
      byte[] record = Layout.encodeInline(version, shard);
      try {
        RepositoryArray.putBytes(array.slot(part.slots().get(i)), recordName, record);
      } catch (RuntimeException e) {
        throw new TargetFailed(
            part.slots().get(i),
            "slot " + part.slots().get(i) + " did not take the rebuilt record: " + e.getMessage(),
            e);
      }
      bytesWritten += record.length;
      rebuilt++;
    }
    return new Result(rebuilt, bytesRead, bytesWritten);
  }

  /** The failure of a target that stopped taking a rebuilt shard: its put's own cause if known. */
  private static TargetFailed targetFailed(int slot, Future<ObjectInfo> put, int shard) {
    Throwable cause = null;
    if (put.isDone()) {
      try {
        put.get();
      } catch (ExecutionException e) {
        cause = e.getCause();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (CancellationException e) {
        // Cancelled: no cause to tell.
      }
    }
    return new TargetFailed(
        slot,
        "slot "
            + slot
            + " did not take the rebuilt shard "
            + shard
            + (cause != null ? ": " + cause.getMessage() : " in time"),
        cause);
  }

  /** The shard inside an inline record, if it is whole and its CRC32C matches. */
  public static Optional<byte[]> inlineShard(byte[] stored, PartMeta part, int k) {
    int shardBytes = (int) part.shardObjectBytes(k);
    int offset = Layout.inlineOffset(shardBytes);
    if (stored.length < offset + shardBytes
        || Layout.inlineLength(stored).orElse(-1) != shardBytes) {
      return Optional.empty();
    }
    if (shardBytes == 0) {
      return Optional.of(new byte[0]);
    }
    int length = shardBytes - Layout.CRC_BYTES;
    if (!PieceCodec.intact(stored, offset, length, new CRC32C())) {
      return Optional.empty();
    }
    return Optional.of(Arrays.copyOfRange(stored, offset, offset + length));
  }
}
