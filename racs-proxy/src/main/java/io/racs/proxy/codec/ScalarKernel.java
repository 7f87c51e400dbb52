package io.racs.proxy.codec;

/**
 * The portable path: one lookup in a 256-entry row of the multiplication table per byte and
 * coefficient, in cache-sized blocks so the output block stays in L1 while inputs stream by.
 */
final class ScalarKernel implements Kernel {
  private static final int BLOCK_BYTES = 4096;

  @Override
  public int tableBytes() {
    return 0;
  }

  @Override
  public void multiply(
      CodingRows rows,
      byte[][] inputs,
      int[] inOffsets,
      byte[][] outputs,
      int[] outOffsets,
      int length) {
    int rowCount = rows.rows();
    int columnCount = rows.columns();
    for (int start = 0; start < length; start += BLOCK_BYTES) {
      int end = Math.min(length, start + BLOCK_BYTES);
      for (int r = 0; r < rowCount; r++) {
        byte[] out = outputs[r];
        int outBase = outOffsets[r];
        for (int c = 0; c < columnCount; c++) {
          byte[] table = Galois.MULTIPLY[rows.coefficient(r, c)];
          byte[] in = inputs[c];
          int inBase = inOffsets[c];
          if (c == 0) {
            for (int i = start; i < end; i++) {
              out[outBase + i] = table[in[inBase + i] & 0xFF];
            }
          } else {
            for (int i = start; i < end; i++) {
              out[outBase + i] ^= table[in[inBase + i] & 0xFF];
            }
          }
        }
      }
    }
  }
}
