package io.racs.proxy.store;

import java.security.MessageDigest;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * Computes the MD5 of a PUT's blocks (its ETag) on a thread of its own, so that hashing overlaps
 * with encoding and sending instead of adding to them: MD5 cannot be split, and on this path it
 * costs more than the erasure coding. The caller fills buffers taken from {@link #take()} and hands
 * them over in order with {@link #submit}; a buffer comes back to the free list once hashed, so the
 * caller may keep reading it (for encoding) until it takes it again.
 */
final class BlockDigester implements AutoCloseable {
  private static final int BUFFERS = 3;

  /**
   * Blocks kept from one PUT for the next, so that a PUT does not allocate (and zero) up to three
   * fresh blocks. At most this many are kept (16 MiB at 1 MiB blocks).
   */
  private static final ArrayBlockingQueue<byte[]> POOL = new ArrayBlockingQueue<>(16);

  private record Block(byte[] bytes, int length) {}

  private static final Block END = new Block(new byte[0], 0);

  private final ArrayBlockingQueue<byte[]> free = new ArrayBlockingQueue<>(BUFFERS);
  private final ArrayBlockingQueue<Block> work = new ArrayBlockingQueue<>(BUFFERS + 1);
  private final MessageDigest md5 = PartWriter.md5();
  private final Future<?> task;
  private final int blockBytes;
  private int created;

  BlockDigester(ExecutorService executor, int blockBytes) {
    this.blockBytes = blockBytes;
    task =
        executor.submit(
            () -> {
              while (true) {
                Block block = work.take();
                if (block == END) {
                  return null;
                }
                md5.update(block.bytes(), 0, block.length());
                free.put(block.bytes());
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
      return pooled();
    }
    return free.take();
  }

  private byte[] pooled() {
    for (byte[] b = POOL.poll(); b != null; b = POOL.poll()) {
      if (b.length == blockBytes) {
        return b;
      }
    }
    return new byte[blockBytes];
  }

  /** Hands over a filled buffer, in order. */
  void submit(byte[] block, int length) throws InterruptedException {
    work.put(new Block(block, length));
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
        POOL.offer(b);
      }
    }
  }
}
