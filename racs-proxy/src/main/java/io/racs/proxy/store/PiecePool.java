package io.racs.proxy.store;

import java.util.concurrent.ArrayBlockingQueue;

/**
 * Full-size shard pieces kept for reuse, so that a PUT does not allocate (and zero) n fresh pieces
 * per stripe: a piece a {@link ShardPipe} reader has copied out comes back here, and the encoder of
 * the next stripe, of this PUT or another, takes it. A piece is only ever given back by the one
 * party that owns it then; an array of another size is dropped, so stores with different piece
 * sizes in one JVM stay correct. At most {@value #CAPACITY} pieces are kept (16 MiB at the default
 * 256 KiB piece plus its CRC).
 */
final class PiecePool {
  private static final int CAPACITY = 64;

  private static final ArrayBlockingQueue<byte[]> FREE = new ArrayBlockingQueue<>(CAPACITY);

  private PiecePool() {}

  /** An array of exactly {@code bytes} bytes, with arbitrary content. */
  static byte[] take(int bytes) {
    for (byte[] b = FREE.poll(); b != null; b = FREE.poll()) {
      if (b.length == bytes) {
        return b;
      }
    }
    return new byte[bytes];
  }

  /** Gives back an array its owner will not touch again. */
  static void give(byte[] piece) {
    FREE.offer(piece);
  }
}
