package io.racs.proxy.codec;

/**
 * The inner loop of the codec: multiplies a block of input shards by a coefficient matrix. One
 * implementation per {@link Implementation} (and, for the vector path, per vector width);
 * implementations are stateless and thread-safe.
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

  /** Bytes per nibble table this kernel reads from {@link CodingRows} (0: it uses none). */
  int tableBytes();

  /** Computes whole output rows for bytes {@code [from, to)} one byte at a time. */
  static void scalarTail(
      CodingRows rows,
      byte[][] inputs,
      int[] inOffsets,
      byte[][] outputs,
      int[] outOffsets,
      int from,
      int to) {
    int columnCount = rows.columns();
    for (int r = 0; r < rows.rows(); r++) {
      byte[] out = outputs[r];
      int outAt = outOffsets[r];
      for (int i = from; i < to; i++) {
        int value = 0;
        for (int c = 0; c < columnCount; c++) {
          value ^= Galois.MULTIPLY[rows.coefficient(r, c)][inputs[c][inOffsets[c] + i] & 0xFF];
        }
        out[outAt + i] = (byte) value;
      }
    }
  }
}
