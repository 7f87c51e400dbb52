package io.racs.proxy.codec;

/**
 * An immutable coefficient matrix (rows = shards to produce, columns = shards read), with the
 * split-nibble lookup tables of every coefficient laid out for a vector kernel: the tables of (r,
 * c) start at {@code (r * columns + c) * 2 * tableBytes}, first the low-nibble products, then the
 * high-nibble ones, each 16-byte table repeated to fill one vector of {@code tableBytes}.
 */
final class CodingRows {
  private final int rows;
  private final int columns;
  private final byte[] coefficients;
  private final byte[] nibbleTables;

  CodingRows(byte[][] matrix, int tableBytes) {
    this.rows = matrix.length;
    this.columns = rows == 0 ? 0 : matrix[0].length;
    this.coefficients = new byte[rows * columns];
    this.nibbleTables = new byte[rows * columns * 2 * tableBytes];
    byte[] sixteen = new byte[32];
    for (int r = 0; r < rows; r++) {
      for (int c = 0; c < columns; c++) {
        int index = r * columns + c;
        coefficients[index] = matrix[r][c];
        if (tableBytes > 0) {
          Galois.nibbleTables(matrix[r][c], sixteen, 0);
          int at = index * 2 * tableBytes;
          for (int copy = 0; copy < tableBytes; copy += 16) {
            System.arraycopy(sixteen, 0, nibbleTables, at + copy, 16);
            System.arraycopy(sixteen, 16, nibbleTables, at + tableBytes + copy, 16);
          }
        }
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

  /** The nibble tables, laid out as the class comment says. */
  byte[] nibbleTables() {
    return nibbleTables;
  }
}
