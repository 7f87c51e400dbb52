package io.racs.proxy.store.stripe;

import java.util.concurrent.ArrayBlockingQueue;

/**
 * Byte arrays kept for reuse, so that the PUT path does not allocate (and zero) fresh ones for
 * every block and stripe: {@link #PIECES} holds shard pieces a {@link ShardPipe} reader has copied
 * out, {@link #BLOCKS} the body blocks of finished PUTs. An array is only ever given back by the
 * one party that owns it then; one of another size is dropped when met, so stores with different
 * block sizes in one JVM stay correct.
 */
final class ArrayPool {
  /** Shard pieces: 16 MiB at the default 256 KiB piece plus its CRC. */
  static final ArrayPool PIECES = new ArrayPool(64);

  /** Body blocks: 16 MiB at the default 1 MiB block. */
  static final ArrayPool BLOCKS = new ArrayPool(16);

  private final ArrayBlockingQueue<byte[]> free;

  private ArrayPool(int capacity) {
    this.free = new ArrayBlockingQueue<>(capacity);
  }

  /** An array of exactly {@code bytes} bytes, with arbitrary content. */
  byte[] take(int bytes) {
    for (byte[] b = free.poll(); b != null; b = free.poll()) {
      if (b.length == bytes) {
        return b;
      }
    }
    return new byte[bytes];
  }

  /** Gives back an array its owner will not touch again; dropped when the pool is full. */
  void give(byte[] array) {
    free.offer(array);
  }
}
