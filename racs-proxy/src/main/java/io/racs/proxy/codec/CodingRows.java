package io.racs.proxy.codec;

/**
 * An immutable coefficient matrix (rows = shards to produce, columns = shards read), with the
 * split-nibble lookup tables of every coefficient laid out for the vector kernel.
 */
final class CodingRows {
  private final int rows;
  private final int columns;
  private final byte[] coefficients;
  private final byte[] nibbleTables;

  CodingRows(byte[][] matrix) {
    this.rows = matrix.length;
    this.columns = rows == 0 ? 0 : matrix[0].length;
    this.coefficients = new byte[rows * columns];
    this.nibbleTables = new byte[rows * columns * 32];
    for (int r = 0; r < rows; r++) {
      for (int c = 0; c < columns; c++) {
        int index = r * columns + c;
        coefficients[index] = matrix[r][c];
        Galois.nibbleTables(matrix[r][c], nibbleTables, index * 32);
      }
    }
  }

  int rows() {
    return rows;
  }

  int columns() {
    return columns;
  }

  /** The coefficient of row {@code r}, column {@code c}, as an unsigned value. */
  int coefficient(int r, int c) {
    return coefficients[r * columns + c] & 0xFF;
  }

  /** Tables of (r, c) start at {@code (r * columns + c) * 32}: 16 low-nibble, 16 high-nibble. */
  byte[] nibbleTables() {
    return nibbleTables;
  }
}
