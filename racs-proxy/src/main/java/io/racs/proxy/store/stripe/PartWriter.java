package io.racs.proxy.store.stripe;

import io.racs.proxy.codec.ErasureCodec;
import io.racs.proxy.store.api.StoreConfig;
import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.array.RepositoryArray;
import io.racs.proxy.store.format.Layout;
import io.racs.proxy.store.format.PartMeta;
import io.racs.repos.ObjectInfo;
import io.racs.repos.Repository;
import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.IntFunction;
import java.util.zip.CRC32C;

/**
 * Streams one run of data (a single-PUT object or a multipart part) into k + m shard objects: reads
 * the body a stripe at a time, encodes parity, appends each piece with its CRC32C to the shard's
 * {@link ShardPipe}, and lets one virtual thread per repository stream its shard with {@link
 * Repository#put}. Memory stays at a few stripes whatever the size.
 *
 * <p>A repository that fails is dropped, and so is one that stalls: one that takes no data for the
 * stall deadline while its peers do (see {@link RepositoryArray#stallDeadline}), or for the
 * slow-shard timeout when none does, or that has not finished when a write quorum has; it is
 * suspended for later operations too, and a suspended one is not written to at all. The write goes
 * on while a write quorum remains, and fails with {@code INSUFFICIENT_SHARDS} (deleting what it
 * wrote, in the background) as soon as it does not, so that losing more than m repositories ends a
 * PUT in about the stall grace rather than the slow-shard timeout.
 */
public final class PartWriter {
  private static final int PIPE_PIECES = 2;

  /** Bytes read from the body at a time, and handed to MD5 as soon as they are in. */
  private static final int HASH_CHUNK = 128 * 1024;

  /** What was written: the part's record, and which slots hold its shards. */
  public record Result(
      PartMeta part, List<Integer> writtenSlots, List<StoreException.ShardFailure> failures) {}

  private PartWriter() {}

  public static Result write(
      RepositoryArray array,
      ErasureCodec codec,
      StoreConfig config,
      int partNumber,
      String dataId,
      List<Integer> slots,
      InputStream body,
      long lengthBytes) {
    return write(array, codec, config, partNumber, dataId, slots, body, lengthBytes, true);
  }

  /**
   * {@link #write(RepositoryArray, ErasureCodec, StoreConfig, int, String, List, InputStream,
   * long)}, hashing the bytes for the part's ETag only if {@code digest} (a sealed part's ETag
   * comes from its plaintext; without it the ETag is empty).
   */
  public static Result write(
      RepositoryArray array,
      ErasureCodec codec,
      StoreConfig config,
      int partNumber,
      String dataId,
      List<Integer> slots,
      InputStream body,
      long lengthBytes,
      boolean digest) {
    int k = codec.geometry().dataShards();
    int n = codec.geometry().totalShards();
    int pieceBytes = config.pieceBytes();
    PartMeta sizing =
        new PartMeta(
            partNumber, dataId, Math.max(0, lengthBytes), "", pieceBytes, slots, null, false);
    long shardLength = lengthBytes >= 0 ? sizing.shardObjectBytes(k) : -1;

    ShardPipe[] pipes = new ShardPipe[n];
    List<Future<ObjectInfo>> puts = new ArrayList<>();
    String[] dropped = new String[n];
    // Released whenever a repository takes a piece or ends its put: what the waits below wait on.
    Semaphore progress = new Semaphore(0);
    for (int i = 0; i < n; i++) {
      ShardPipe pipe = new ShardPipe(PIPE_PIECES, ArrayPool.PIECES::give, progress::release);
      pipes[i] = pipe;
      int slot = slots.get(i);
      Repository repository = array.slot(slot);
      String unusable = array.health().unusable(slot);
      if (unusable != null) {
        dropped[i] = unusable;
        pipe.abort(dropped[i]);
        puts.add(CompletableFuture.failedFuture(new IllegalStateException(dropped[i])));
        continue;
      }
      String name = Layout.shard(dataId, i);
      // The waiter is woken once the put's future is done (FutureTask.done), not from inside the
      // task: woken before, it could find the future not yet done and sleep to its deadline.
      FutureTask<ObjectInfo> put =
          new FutureTask<>(() -> pipe.putInto(repository, name, shardLength)) {
            @Override
            protected void done() {
              progress.release();
            }
          };
      array.executor().execute(put);
      puts.add(put);
    }

    BlockDigester md5 = new BlockDigester(array.executor(), k * pieceBytes, digest);
    long total = 0;
    byte[] etag;
    try {
      checkQuorum(array, config, slots, dropped, pipes, puts);
      while (true) {
        byte[] block = md5.take();
        int read = readHashing(body, block, md5);
        if (read == 0) {
          break; // the end, or an empty object: no stripes, empty shard objects
        }
        total += read;
        if (lengthBytes >= 0 && total > lengthBytes) {
          throw new StoreException(
              StoreException.Code.INCOMPLETE_BODY,
              "body longer than its declared length " + lengthBytes);
        }
        byte[][] stripe = encodeStripe(codec, block, read, ArrayPool.PIECES::take);
        offerAll(array, slots, pipes, dropped, puts, progress, i -> stripe[i], true);
        checkQuorum(array, config, slots, dropped, pipes, puts);
        if (read < block.length) {
          break;
        }
      }
      if (lengthBytes >= 0 && total != lengthBytes) {
        throw new StoreException(
            StoreException.Code.INCOMPLETE_BODY,
            "body ended after " + total + " of " + lengthBytes + " bytes");
      }
      // The shards do not depend on the ETag: let the repositories finish while MD5 catches up.
      offerAll(array, slots, pipes, dropped, puts, progress, i -> ShardPipe.END, false);
      checkQuorum(array, config, slots, dropped, pipes, puts);
      etag = md5.digest();
    } catch (StoreException e) {
      abortAll(pipes, dropped, e.getMessage());
      cleanUp(array, slots, dataId, puts);
      throw e;
    } catch (IOException | RuntimeException e) {
      abortAll(pipes, dropped, "body failed: " + e);
      cleanUp(array, slots, dataId, puts);
      throw new StoreException(StoreException.Code.INCOMPLETE_BODY, "request body failed: " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      abortAll(pipes, dropped, "interrupted");
      cleanUp(array, slots, dataId, puts);
      throw new StoreException(StoreException.Code.INCOMPLETE_BODY, "interrupted", e);
    } finally {
      md5.close();
    }

    awaitPuts(array, config, slots, dropped, puts, progress);
    List<Integer> written = new ArrayList<>();
    List<StoreException.ShardFailure> failures = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      int slot = slots.get(i);
      String cause = dropped[i];
      if (cause == null) {
        if (succeeded(puts.get(i))) {
          written.add(slot);
          continue;
        }
        cause = failureOf(puts.get(i));
      }
      failures.add(new StoreException.ShardFailure(slot, array.slot(slot).name(), cause));
    }
    if (written.size() < config.writeQuorum()) {
      cleanUp(array, slots, dataId, puts);
      throw new StoreException(
          StoreException.Code.INSUFFICIENT_SHARDS,
          "stored "
              + written.size()
              + " of "
              + n
              + " shards, fewer than the write quorum "
              + config.writeQuorum(),
          failures,
          null);
    }
    PartMeta part =
        new PartMeta(
            partNumber,
            dataId,
            total,
            digest ? HexFormat.of().formatHex(etag) : "",
            pieceBytes,
            slots,
            null,
            false);
    return new Result(part, written, failures);
  }

  /**
   * Encodes one stripe of {@code length} data bytes from {@code block}: n arrays, each a piece
   * followed by its CRC32C, ready to append to shard {@code i}. Each piece is built in the array
   * that is handed on, so the data is copied once out of the block and parity is encoded in place.
   * The arrays come from {@code allocate}, which may return used ones: every byte is written.
   */
  public static byte[][] encodeStripe(
      ErasureCodec codec, byte[] block, int length, IntFunction<byte[]> allocate) {
    int k = codec.geometry().dataShards();
    int n = codec.geometry().totalShards();
    int piece = (length + k - 1) / k;
    byte[][] stripe = new byte[n][];
    for (int i = 0; i < n; i++) {
      stripe[i] = allocate.apply(PieceCodec.framedLength(piece));
    }
    for (int i = 0; i < k; i++) {
      int from = i * piece;
      int len = Math.max(0, Math.min(piece, length - from));
      if (len > 0) {
        System.arraycopy(block, from, stripe[i], 0, len);
      }
      if (len < piece) {
        Arrays.fill(stripe[i], len, piece, (byte) 0); // the short stripe's padding
      }
    }
    codec.encodeParity(stripe, 0, piece);
    CRC32C crc = new CRC32C();
    for (byte[] chunk : stripe) {
      PieceCodec.seal(chunk, piece, crc);
    }
    return stripe;
  }

  /**
   * Hands each live pipe its piece ({@code pieceOf}: this stripe's, or the end marker). Pipes with
   * room take it at once; the rest are waited for until the stall deadline counted from when the
   * first pipe took its piece, or the slow-shard timeout if none has, and then dropped as stalled.
   */
  private static void offerAll(
      RepositoryArray array,
      List<Integer> slots,
      ShardPipe[] pipes,
      String[] dropped,
      List<Future<ObjectInfo>> puts,
      Semaphore progress,
      IntFunction<byte[]> pieceOf,
      boolean pooled)
      throws InterruptedException {
    long start = System.nanoTime();
    long firstTaken = -1;
    List<Integer> waiting = new ArrayList<>();
    for (int i = 0; i < pipes.length; i++) {
      if (dropped[i] != null) {
        if (pooled) {
          ArrayPool.PIECES.give(pieceOf.apply(i)); // never offered: still ours
        }
      } else if (pipes[i].offer(pieceOf.apply(i), 0)) {
        firstTaken = firstTaken < 0 ? start : firstTaken;
      } else {
        waiting.add(i);
      }
    }
    while (!waiting.isEmpty()) {
      long deadline =
          firstTaken < 0 ? start + array.timeoutNanos() : array.stallDeadline(start, firstTaken);
      long now = System.nanoTime();
      if (now - deadline >= 0) {
        for (int i : waiting) {
          String reason =
              firstTaken < 0
                  ? "took no data for " + (now - start) / 1_000_000 + " ms"
                  : "stalled: took no data for "
                      + (now - start) / 1_000_000
                      + " ms while others did";
          drop(pipes, dropped, i, reason);
          array.health().stalled(slots.get(i), reason);
          if (pooled) {
            ArrayPool.PIECES.give(pieceOf.apply(i));
          }
        }
        return;
      }
      progress.tryAcquire(deadline - now, TimeUnit.NANOSECONDS);
      progress.drainPermits();
      for (Iterator<Integer> it = waiting.iterator(); it.hasNext(); ) {
        int i = it.next();
        if (puts.get(i).isDone()) {
          it.remove(); // its put ended without taking the piece: checkQuorum reports why
          if (pooled) {
            ArrayPool.PIECES.give(pieceOf.apply(i));
          }
        } else if (pipes[i].offer(pieceOf.apply(i), 0)) {
          it.remove();
          firstTaken = firstTaken < 0 ? System.nanoTime() : firstTaken;
        }
      }
    }
  }

  /**
   * Waits for the live puts to end: all of them, or a write quorum and then the others until the
   * stall deadline. A put still running then is reported stalled (its slot suspended) and left to
   * finish in the background when a quorum succeeded: its shard is then complete when it ends.
   * Before the quorum is in, the puts still running get until the stall deadline counted from the
   * first put to end: all had the whole body by then (this wait begins when the last piece was
   * handed over), so a write quorum that needs the ones still out waits on stalled repositories,
   * and the write fails in about the stall grace instead of at the slow-shard timeout.
   */
  private static void awaitPuts(
      RepositoryArray array,
      StoreConfig config,
      List<Integer> slots,
      String[] dropped,
      List<Future<ObjectInfo>> puts,
      Semaphore progress) {
    long start = System.nanoTime();
    long deadline = start + array.timeoutNanos();
    boolean relative = false;
    boolean quorum = false;
    try {
      while (true) {
        int live = 0;
        int done = 0;
        int ok = 0;
        for (int i = 0; i < puts.size(); i++) {
          if (dropped[i] == null) {
            live++;
            if (puts.get(i).isDone()) {
              done++;
              ok += succeeded(puts.get(i)) ? 1 : 0;
            }
          }
        }
        long now = System.nanoTime();
        if (done == live) {
          return;
        }
        if (!quorum && ok >= config.writeQuorum()) {
          quorum = true;
          relative = true;
          deadline = array.stallDeadline(start, now);
        } else if (!relative && done > 0) {
          relative = true; // the first put ended: the others get as long again, and the grace
          deadline = array.stallDeadline(start, now);
        }
        if (now - deadline >= 0) {
          for (int i = 0; i < puts.size(); i++) {
            if (dropped[i] == null && !puts.get(i).isDone()) {
              dropped[i] =
                  (relative ? "stalled: " : "")
                      + "did not finish its shard in "
                      + (now - start) / 1_000_000
                      + " ms"
                      + (quorum
                          ? " while a write quorum did"
                          : relative ? " while others did" : "");
              array.health().stalled(slots.get(i), dropped[i]);
              if (!quorum) {
                puts.get(i).cancel(true);
              }
            }
          }
          return;
        }
        progress.tryAcquire(deadline - now, TimeUnit.NANOSECONDS);
        progress.drainPermits();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StoreException(StoreException.Code.INSUFFICIENT_SHARDS, "interrupted", e);
    }
  }

  private static void checkQuorum(
      RepositoryArray array,
      StoreConfig config,
      List<Integer> slots,
      String[] dropped,
      ShardPipe[] pipes,
      List<Future<ObjectInfo>> puts) {
    int alive = 0;
    List<StoreException.ShardFailure> failures = new ArrayList<>();
    for (int i = 0; i < dropped.length; i++) {
      if (dropped[i] == null && puts.get(i).isDone() && !succeeded(puts.get(i))) {
        dropped[i] = failureOf(puts.get(i));
        pipes[i].abort(dropped[i]);
      }
      if (dropped[i] == null) {
        alive++;
      } else {
        failures.add(
            new StoreException.ShardFailure(
                slots.get(i), array.slot(slots.get(i)).name(), dropped[i]));
      }
    }
    if (alive < config.writeQuorum()) {
      throw new StoreException(
          StoreException.Code.INSUFFICIENT_SHARDS,
          alive
              + " of "
              + dropped.length
              + " repositories still writing, fewer than the write quorum "
              + config.writeQuorum(),
          failures,
          null);
    }
  }

  private static boolean succeeded(Future<?> future) {
    return future.state() == Future.State.SUCCESS;
  }

  private static String failureOf(Future<?> future) {
    return future.state() == Future.State.FAILED
        ? String.valueOf(future.exceptionNow())
        : "cancelled";
  }

  private static void drop(ShardPipe[] pipes, String[] dropped, int i, String reason) {
    dropped[i] = reason;
    pipes[i].abort(reason);
  }

  private static void abortAll(ShardPipe[] pipes, String[] dropped, String reason) {
    for (int i = 0; i < pipes.length; i++) {
      if (dropped[i] == null) {
        dropped[i] = reason;
      }
      pipes[i].abort(reason);
    }
  }

  /**
   * In the background, so that a failed write answers at once: waits for the puts to end, then
   * deletes whatever shard objects they left (a put that never ends leaves a leftover heal
   * collects).
   */
  static void cleanUp(
      RepositoryArray array, List<Integer> slots, String dataId, List<Future<ObjectInfo>> puts) {
    try {
      array
          .executor()
          .execute(
              () -> {
                for (Future<ObjectInfo> put : puts) {
                  try {
                    put.get(array.timeoutNanos(), TimeUnit.NANOSECONDS);
                  } catch (ExecutionException | TimeoutException | CancellationException e) {
                    // Failed or stuck: nothing, or a leftover heal collects.
                  } catch (InterruptedException e) {
                    return;
                  }
                }
                deleteShards(array, slots, dataId);
              });
    } catch (RejectedExecutionException e) {
      // Closing: heal collects the leftovers.
    }
  }

  /**
   * Deletes every shard object of {@code dataId}, best effort and without waiting for the deletes
   * to be durable: these are garbage (superseded, abandoned or replaced data), and shards that come
   * back after a crash belong to a version that is superseded or never committed, or to a part no
   * upload lists, all of which heal collects.
   */
  public static void deleteShards(RepositoryArray array, List<Integer> slots, String dataId) {
    array.fanOut(
        slots,
        (slot, repository) -> {
          for (int i = 0; i < slots.size(); i++) {
            if (slots.get(i) == slot) {
              repository.discard(Layout.shard(dataId, i));
            }
          }
          return null;
        });
  }

  /**
   * Fills {@code block} from {@code in} (less only at the end of the body), handing each range to
   * {@code md5} as it arrives so that hashing runs alongside receiving, then releases the block.
   */
  private static int readHashing(InputStream in, byte[] block, BlockDigester md5)
      throws IOException, InterruptedException {
    int total = 0;
    int hashed = 0;
    try {
      while (total < block.length) {
        int n = in.read(block, total, Math.min(block.length - total, HASH_CHUNK));
        if (n < 0) {
          break;
        }
        total += n;
        if (total - hashed >= HASH_CHUNK) {
          md5.update(block, hashed, total);
          hashed = total;
        }
      }
      md5.update(block, hashed, total);
    } finally {
      md5.release(block);
    }
    return total;
  }

  public static MessageDigest md5() {
    try {
      return MessageDigest.getInstance("MD5");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
