package io.racs.proxy.store.stripe;

import io.racs.proxy.store.array.LatencyEstimates;
import io.racs.proxy.store.array.RepositoryArray;
import io.racs.proxy.store.format.Layout;
import io.racs.proxy.store.format.PartMeta;
import io.racs.repos.ObjectStream;
import io.racs.repos.Repository;
import java.io.IOException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.zip.CRC32C;

/**
 * Streams one shard of a {@link PartReader}'s read from a starting stripe into a small queue, on a
 * virtual thread, checking each piece ({@link PieceCodec}); a shard a cold GET's {@link ShardGuess}
 * already opened is read from that stream. It can be left to close itself once it answers or stalls
 * ({@link #watchThenClose}).
 */
final class ShardSource {
  /** One stripe's piece of a shard, or why there is none. */
  record Piece(long stripe, byte[] bytes, String failure, boolean corrupt) {}

  /**
   * What every shard of one read shares: where the part is, the last stripe wanted, whether it is
   * inline (shard i inside the record {@code inlineRecord}), the guess it may take opened shards
   * from (or null), and the semaphore released whenever any of its sources delivers a piece.
   */
  record Read(
      RepositoryArray array,
      PartMeta part,
      int k,
      long lastStripe,
      String inlineRecord,
      ShardGuess guess,
      LatencyEstimates.Kind kind,
      Semaphore arrivals) {}

  private static final int PREFETCH_PIECES = 2;

  private final Read read;
  private final RepositoryArray array;
  private final PartMeta part;
  private final int k;
  private final long lastStripe;
  private final ArrayBlockingQueue<Piece> queue = new ArrayBlockingQueue<>(PREFETCH_PIECES);
  // Released for every piece sent: what watchThenClose waits on.
  private final Semaphore delivered = new Semaphore(0);
  // The stripe of the last piece sent (Long.MAX_VALUE once it failed), -1 before any.
  private volatile long lastSent = -1;
  // Set once a watch owns this source's closing.
  volatile boolean watched;
  private final Future<?> task;
  private final int slot;
  final long openedNanos;
  // The read a cold GET's guess opened for this shard (see PartReader#preopened), or null.
  private final CompletableFuture<ObjectStream> guessed;
  // Whether this source's first-piece latency has been recorded (once, by whoever is first).
  private final AtomicBoolean sampled = new AtomicBoolean();
  private volatile ObjectStream stream;
  private volatile boolean closed;

  ShardSource(Read read, int shard, long firstStripe, long openedNanos) {
    this.read = read;
    this.array = read.array();
    this.part = read.part();
    this.k = read.k();
    this.lastStripe = read.lastStripe();
    String inlineRecord = read.inlineRecord();
    ShardGuess guess = read.guess();
    this.slot = part.slots().get(shard);
    Repository repository = array.slot(slot);
    String name = inlineRecord != null ? inlineRecord : Layout.shard(part.dataId(), shard);
    long base = inlineRecord != null ? Layout.inlineOffset(part.shardObjectBytes(k)) : 0;
    long offset = base + part.shardOffset(firstStripe);
    long end =
        base
            + part.shardOffset(lastStripe)
            + PieceCodec.framedLength(part.pieceBytes(k, lastStripe));
    ShardGuess.Opened early =
        guess != null && firstStripe == 0 ? guess.take(shard, slot, name) : null;
    this.guessed = early == null ? null : early.stream();
    this.openedNanos = early == null ? openedNanos : early.startedNanos();
    try {
      task =
          array
              .executor()
              .submit(
                  () -> {
                    pump(repository, name, offset, end - offset, firstStripe);
                    return null;
                  });
    } catch (RejectedExecutionException e) {
      if (guessed != null) {
        // Taken from the guess, and no source holds it: nothing else would close it.
        ShardGuess.closeWhenOpened(guessed);
      }
      throw e;
    }
  }

  /** Whether this source reads a stream a cold GET's guess opened. */
  boolean guessed() {
    return guessed != null;
  }

  /** The shard's bytes from {@code offset}: the guessed read's, or a read of its own. */
  private ObjectStream openAt(Repository repository, String name, long offset, long length)
      throws IOException, InterruptedException {
    if (guessed == null) {
      return repository.get(name, offset, length);
    }
    ObjectStream in;
    try {
      in = guessed.get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw new IOException(e.getCause());
    }
    try {
      in.skipNBytes(offset); // the guess read the whole object: an inline record's header
    } catch (IOException | RuntimeException e) {
      in.close();
      throw e;
    }
    return in;
  }

  private void pump(Repository repository, String name, long offset, long length, long first)
      throws InterruptedException {
    CRC32C crc = new CRC32C();
    try (ObjectStream in = openAt(repository, name, offset, length)) {
      stream = in;
      for (long s = first; s <= lastStripe && !closed; s++) {
        int pieceLength = part.pieceBytes(k, s);
        byte[] bytes = new byte[PieceCodec.framedLength(pieceLength)];
        PieceCodec.Check check = PieceCodec.read(in, bytes, pieceLength, crc);
        if (check == PieceCodec.Check.SHORT) {
          deliver(new Piece(s, null, "shard object ends early at stripe " + s, false));
          return;
        }
        if (check == PieceCodec.Check.CORRUPT) {
          deliver(new Piece(s, null, "CRC32C mismatch at stripe " + s, true));
          continue;
        }
        sample(System.nanoTime() - openedNanos);
        deliver(new Piece(s, bytes, null, false));
      }
    } catch (IOException | RuntimeException e) {
      if (!closed) {
        deliver(new Piece(Long.MAX_VALUE, null, String.valueOf(e), false));
      }
    }
  }

  /**
   * Records how long this source took to send its first piece, or, for one given up before it sent
   * any, how long it had taken by then (a lower bound: a repository hedged around must not look
   * fast for lack of samples).
   */
  void sample(long nanos) {
    if (sampled.compareAndSet(false, true)) {
      array.latencies().record(slot, read.kind(), nanos);
    }
  }

  private void deliver(Piece piece) throws InterruptedException {
    queue.put(piece);
    lastSent = Math.max(lastSent, piece.stripe());
    delivered.release();
    read.arrivals().release();
  }

  /**
   * Closes this source once it has sent its piece of {@code stripe} (or failed) or the stall
   * deadline has passed, in the background; in the second case its repository is suspended as
   * stalled. A piece sent just before this is called counts: the reader may not have looked for it
   * yet (with hedged reads, often; it used to suspend a repository that had answered).
   */
  void watchThenClose(int slot, long startedAt, long stallAt, long stripe) {
    watched = true;
    try {
      array.executor().execute(() -> watch(slot, startedAt, stallAt, stripe));
    } catch (RejectedExecutionException e) {
      close();
    }
  }

  /** The body of {@link #watchThenClose}, on its own thread. */
  private void watch(int slot, long startedAt, long stallAt, long stripe) {
    try {
      while (lastSent < stripe) {
        // Nobody takes its pieces any more: dropped, so that a source behind by more than its
        // queue holds is not blocked on a full queue and taken for stalled.
        queue.clear();
        long left = stallAt - System.nanoTime();
        if (left <= 0 || !delivered.tryAcquire(left, TimeUnit.NANOSECONDS)) {
          break;
        }
      }
      if (lastSent < stripe) {
        sample(System.nanoTime() - openedNanos);
        array
            .health()
            .stalled(
                slot,
                "stalled: no data "
                    + (System.nanoTime() - startedAt) / 1_000_000
                    + " ms into a read that others answered");
      }
    } catch (InterruptedException e) {
      // Closing.
    } finally {
      close();
    }
  }

  /**
   * This shard's piece of {@code wanted}, if it has arrived: pieces of earlier stripes (which a
   * shard that lagged behind delivers after the stripe was completed without it) are skipped.
   */
  Piece next(long wanted) {
    for (Piece piece = queue.poll(); piece != null; piece = queue.poll()) {
      if (piece.stripe() >= wanted) {
        return piece;
      }
    }
    return null;
  }

  void close() {
    closed = true;
    queue.clear();
    task.cancel(true);
    if (guessed != null) {
      ShardGuess.closeWhenOpened(guessed); // pump may not have taken it before it was cancelled
    }
    ObjectStream open = stream;
    if (open != null) {
      try {
        open.close();
      } catch (IOException e) {
        // Already failing or finished: nothing to release.
      }
    }
  }
}
