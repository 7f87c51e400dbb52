package io.racs.proxy.store.stripe;

import java.security.MessageDigest;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * Computes the MD5 of a PUT's blocks (its ETag) on a thread of its own, so that hashing overlaps
 * with receiving, encoding and sending instead of adding to them: MD5 cannot be split, and on this
 * path it costs more than the erasure coding. The caller fills buffers taken from {@link #take()},
 * hands over each range as soon as it has arrived with {@link #update} (so hashing a block starts
 * before the block is complete), in order, and ends each buffer with {@link #release}; a buffer
 * comes back to the free list once hashed, so the caller may keep reading it (for encoding) until
 * it takes it again.
 */
final class BlockDigester implements AutoCloseable {
  private static final int BUFFERS = 3;

  /** Bytes [from, to) of a buffer; {@code last} gives the buffer back once they are hashed. */
  private record Range(byte[] bytes, int from, int to, boolean last) {}

  private static final Range END = new Range(new byte[0], 0, 0, false);

  private final ArrayBlockingQueue<byte[]> free = new ArrayBlockingQueue<>(BUFFERS);
  // Unbounded, but at most BUFFERS buffers' ranges are ever in it.
  private final LinkedBlockingQueue<Range> work = new LinkedBlockingQueue<>();
  private final MessageDigest md5 = PartWriter.md5();
  private final Future<?> task;
  private final int blockBytes;
  private int created;

  BlockDigester(ExecutorService executor, int blockBytes) {
    this(executor, blockBytes, true);
  }

  /**
   * @param hash false to only pass the buffers round (a sealed part's ETag comes from its
   *     plaintext, hashed before it was sealed, so hashing the sealed bytes would be wasted)
   */
  BlockDigester(ExecutorService executor, int blockBytes, boolean hash) {
    this.blockBytes = blockBytes;
    task =
        executor.submit(
            () -> {
              while (true) {
                Range range = work.take();
                if (range == END) {
                  return null;
                }
                if (hash) {
                  md5.update(range.bytes(), range.from(), range.to() - range.from());
                }
                if (range.last()) {
                  free.put(range.bytes());
                }
              }
            });
  }

  /** A buffer to fill with the next block. */
  byte[] take() throws InterruptedException {
    byte[] buffer = free.poll();
    if (buffer != null) {
      return buffer;
    }
    if (created < BUFFERS) {
      created++;
      return ArrayPool.BLOCKS.take(blockBytes); // kept from an earlier PUT when there is one
    }
    return free.take();
  }

  /** Hands over bytes [from, to) of a buffer, in order. */
  void update(byte[] block, int from, int to) throws InterruptedException {
    if (to > from) {
      work.put(new Range(block, from, to, false));
    }
  }

  /** Ends a buffer: it comes back to the free list once everything handed over is hashed. */
  void release(byte[] block) throws InterruptedException {
    work.put(new Range(block, 0, 0, true));
  }

  /** Waits for every block submitted and returns their MD5. */
  byte[] digest() throws InterruptedException {
    work.put(END);
    try {
      task.get();
    } catch (ExecutionException e) {
      throw new IllegalStateException("MD5 failed", e.getCause());
    }
    return md5.digest();
  }

  /** Stops hashing; once the hasher has finished, the buffers go back to the pool. */
  @Override
  public void close() {
    task.cancel(true);
    if (task.state() == Future.State.SUCCESS) {
      for (byte[] b = free.poll(); b != null; b = free.poll()) {
        ArrayPool.BLOCKS.give(b);
      }
    }
  }
}
