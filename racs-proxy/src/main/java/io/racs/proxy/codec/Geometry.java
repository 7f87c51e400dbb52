package io.racs.proxy.codec;

/**
 * An erasure-coding geometry: {@code dataShards} data shards plus {@code parityShards} parity
 * shards, written {@code DxP} everywhere ({@code 4x2}, {@code 10x4}). Any {@code parityShards}
 * shards of a stripe may be lost without losing data.
 *
 * @param dataShards k, at least 1
 * @param parityShards m, at least 0
 */
public record Geometry(int dataShards, int parityShards) {
  /** The most shards a GF(2^8) Reed-Solomon code can have. */
  public static final int MAX_TOTAL_SHARDS = 256;

  /** Checks the arguments. */
  public Geometry {
    if (dataShards < 1) {
      throw new IllegalArgumentException("dataShards: " + dataShards + " (expected: >= 1)");
    }
    if (parityShards < 0) {
      throw new IllegalArgumentException("parityShards: " + parityShards + " (expected: >= 0)");
    }
    if (dataShards + parityShards > MAX_TOTAL_SHARDS) {
      throw new IllegalArgumentException(
          "dataShards + parityShards: "
              + (dataShards + parityShards)
              + " (expected: <= "
              + MAX_TOTAL_SHARDS
              + ")");
    }
  }

  /** Returns the geometry {@code dataShards x parityShards}. */
  public static Geometry of(int dataShards, int parityShards) {
    return new Geometry(dataShards, parityShards);
  }

  /**
   * Parses {@code DxP}, e.g. {@code 4x2}.
   *
   * @throws IllegalArgumentException naming the text and the expected form
   */
  public static Geometry parse(String text) {
    int x = text == null ? -1 : text.indexOf('x');
    if (x <= 0 || x == text.length() - 1) {
      throw new IllegalArgumentException(
          "geometry: " + text + " (expected: DxP, data x parity shards, e.g. 4x2)");
    }
    try {
      return new Geometry(
          Integer.parseInt(text.substring(0, x)), Integer.parseInt(text.substring(x + 1)));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "geometry: " + text + " (expected: DxP, data x parity shards, e.g. 4x2)", e);
    }
  }

  /** k + m. */
  public int totalShards() {
    return dataShards + parityShards;
  }

  /** {@code DxP}. */
  @Override
  public String toString() {
    return dataShards + "x" + parityShards;
  }
}
