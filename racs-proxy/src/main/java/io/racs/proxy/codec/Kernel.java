package io.racs.proxy.codec;

/**
 * The inner loop of the codec: multiplies a block of input shards by a coefficient matrix. One
 * implementation per {@link Implementation}; implementations are stateless and thread-safe.
 */
interface Kernel {
  /**
   * Sets, for every row {@code r} and byte {@code i < length}: {@code outputs[r][outOffsets[r] + i]
   * = XOR over c of coefficient(r, c) · inputs[c][inOffsets[c] + i]}. Arguments are already
   * checked; outputs never alias inputs.
   */
  void multiply(
      CodingRows rows,
      byte[][] inputs,
      int[] inOffsets,
      byte[][] outputs,
      int[] outOffsets,
      int length);
}
