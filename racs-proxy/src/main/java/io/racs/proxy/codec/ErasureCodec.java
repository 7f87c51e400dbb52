package io.racs.proxy.codec;

import java.nio.ByteBuffer;

/**
 * A systematic Reed-Solomon erasure code over GF(2^8): {@code k} data shards and {@code m} parity
 * shards of equal length, byte-compatible with Backblaze JavaReedSolomon and klauspost/reedsolomon
 * (same field polynomial 0x11D, same Vandermonde-derived matrix).
 *
 * <h2>Shards</h2>
 *
 * A call works on {@code k + m} shards indexed {@code 0..k+m-1}: data shards first, then parity.
 * Every shard argument is present (non-null) even when its contents are missing, because missing
 * shards are written into. With {@code byte[][]} shards the call covers {@code [offset, offset +
 * length)} of every array; with {@link ByteBuffer} shards it covers each buffer's {@code [position,
 * limit)}, every buffer must have the same {@code remaining()}, heap and direct buffers may be
 * mixed, and no position or limit is changed.
 *
 * <h2>Threading and cost</h2>
 *
 * Codecs are immutable and thread-safe; any number of threads may call one at once. Decoding
 * matrices are computed once per erasure pattern and cached, and working buffers are pooled, so a
 * call allocates nothing in the steady state.
 *
 * <h2>Errors</h2>
 *
 * Bad arguments throw {@link IllegalArgumentException} naming the value and what was expected: the
 * wrong number of shards, a null shard, unequal lengths, an offset or length outside an array, a
 * read-only buffer to write into, or more than {@code m} shards missing. Nothing is written when an
 * argument is rejected.
 */
public interface ErasureCodec {
  /** A codec for {@code geometry} using the implementation chosen for this JVM. */
  static ErasureCodec create(Geometry geometry) {
    return create(geometry, Implementation.fromSystemProperty());
  }

  /**
   * A codec for {@code geometry} using {@code implementation}.
   *
   * @throws IllegalStateException if {@code implementation} is {@link Implementation#VECTOR} and
   *     the JVM lacks {@code jdk.incubator.vector}
   */
  static ErasureCodec create(Geometry geometry, Implementation implementation) {
    return new ReedSolomon(geometry, implementation);
  }

  /** The geometry. */
  Geometry geometry();

  /** The implementation doing the arithmetic. */
  Implementation implementation();

  /** Computes the parity shards from the data shards, over {@code [offset, offset + length)}. */
  void encodeParity(byte[][] shards, int offset, int length);

  /** Computes the parity shards from the data shards, over each buffer's remaining bytes. */
  void encodeParity(ByteBuffer[] shards);

  /**
   * Rebuilds every shard whose {@code present[i]} is false (data and parity) from any {@code k}
   * present ones. Present shards are only read.
   *
   * @throws IllegalArgumentException if fewer than {@code k} shards are present
   */
  void reconstruct(byte[][] shards, boolean[] present, int offset, int length);

  /** {@link #reconstruct(byte[][], boolean[], int, int)} for buffers. */
  void reconstruct(ByteBuffer[] shards, boolean[] present);

  /**
   * Rebuilds only the missing data shards (what a reader needs); missing parity shards are left
   * untouched.
   *
   * @throws IllegalArgumentException if fewer than {@code k} shards are present
   */
  void reconstructData(byte[][] shards, boolean[] present, int offset, int length);

  /** {@link #reconstructData(byte[][], boolean[], int, int)} for buffers. */
  void reconstructData(ByteBuffer[] shards, boolean[] present);

  /** True when the parity shards match the data shards over {@code [offset, offset + length)}. */
  boolean verifyParity(byte[][] shards, int offset, int length);

  /** True when the parity shards match the data shards over each buffer's remaining bytes. */
  boolean verifyParity(ByteBuffer[] shards);
}
