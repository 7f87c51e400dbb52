package io.racs.proxy.codec;

/**
 * A small dense matrix over GF(2^8), used only to build encoding and decoding matrices. Rows are
 * {@code byte[]}; instances are mutable and confined to the thread that builds a codec or a decode
 * plan.
 */
final class Matrix {
  private final int rows;
  private final int columns;
  private final byte[][] data;

  Matrix(int rows, int columns) {
    this.rows = rows;
    this.columns = columns;
    this.data = new byte[rows][columns];
  }

  static Matrix identity(int size) {
    Matrix m = new Matrix(size, size);
    for (int i = 0; i < size; i++) {
      m.data[i][i] = 1;
    }
    return m;
  }

  /** The Vandermonde matrix with entry (r, c) = r^c; any {@code columns} rows are independent. */
  static Matrix vandermonde(int rows, int columns) {
    Matrix m = new Matrix(rows, columns);
    for (int r = 0; r < rows; r++) {
      for (int c = 0; c < columns; c++) {
        m.data[r][c] = Galois.power((byte) r, c);
      }
    }
    return m;
  }

  /**
   * The systematic encoding matrix of a {@code dataShards x parityShards} code, built exactly as
   * Backblaze JavaReedSolomon (and klauspost/reedsolomon's default) build it: a Vandermonde matrix
   * times the inverse of its top square, so the top rows are the identity (data shards hold the
   * original bytes) and any {@code dataShards} rows stay invertible.
   */
  static Matrix systematic(int dataShards, int parityShards) {
    Matrix vandermonde = vandermonde(dataShards + parityShards, dataShards);
    Matrix top = vandermonde.subMatrix(0, 0, dataShards, dataShards);
    return vandermonde.times(top.invert());
  }

  int rows() {
    return rows;
  }

  int columns() {
    return columns;
  }

  byte get(int row, int column) {
    return data[row][column];
  }

  void set(int row, int column, byte value) {
    data[row][column] = value;
  }

  byte[] row(int row) {
    return data[row].clone();
  }

  Matrix times(Matrix right) {
    if (columns != right.rows) {
      throw new IllegalArgumentException(
          "right.rows: " + right.rows + " (expected: " + columns + ")");
    }
    Matrix result = new Matrix(rows, right.columns);
    for (int r = 0; r < rows; r++) {
      for (int c = 0; c < right.columns; c++) {
        byte value = 0;
        for (int i = 0; i < columns; i++) {
          value ^= Galois.multiply(data[r][i], right.data[i][c]);
        }
        result.data[r][c] = value;
      }
    }
    return result;
  }

  Matrix subMatrix(int rowStart, int columnStart, int rowEnd, int columnEnd) {
    Matrix result = new Matrix(rowEnd - rowStart, columnEnd - columnStart);
    for (int r = rowStart; r < rowEnd; r++) {
      System.arraycopy(data[r], columnStart, result.data[r - rowStart], 0, result.columns);
    }
    return result;
  }

  /**
   * The inverse, by Gauss-Jordan elimination.
   *
   * @throws IllegalArgumentException if the matrix is not square or is singular
   */
  Matrix invert() {
    if (rows != columns) {
      throw new IllegalArgumentException("rows: " + rows + " (expected: " + columns + ")");
    }
    Matrix work = new Matrix(rows, 2 * rows);
    for (int r = 0; r < rows; r++) {
      System.arraycopy(data[r], 0, work.data[r], 0, rows);
      work.data[r][rows + r] = 1;
    }
    for (int r = 0; r < rows; r++) {
      if (work.data[r][r] == 0) {
        int below = r + 1;
        while (below < rows && work.data[below][r] == 0) {
          below++;
        }
        if (below == rows) {
          throw new IllegalArgumentException("matrix is singular");
        }
        byte[] swap = work.data[r];
        work.data[r] = work.data[below];
        work.data[below] = swap;
      }
      byte pivot = work.data[r][r];
      if (pivot != 1) {
        byte scale = Galois.divide((byte) 1, pivot);
        for (int c = 0; c < work.columns; c++) {
          work.data[r][c] = Galois.multiply(work.data[r][c], scale);
        }
      }
      for (int other = 0; other < rows; other++) {
        byte factor = work.data[other][r];
        if (other != r && factor != 0) {
          for (int c = 0; c < work.columns; c++) {
            work.data[other][c] ^= Galois.multiply(factor, work.data[r][c]);
          }
        }
      }
    }
    return work.subMatrix(0, rows, rows, 2 * rows);
  }
}
