package io.racs.bench.jmh;

import io.racs.proxy.codec.ErasureCodec;
import io.racs.proxy.codec.Geometry;
import io.racs.proxy.codec.Implementation;
import java.util.Arrays;

/**
 * The baseline the codec is measured against: a plain byte-table loop, the shape of Backblaze
 * JavaReedSolomon's {@code InputOutputByteTableCodingLoop} — for every input and output shard, one
 * lookup in a 256-entry row of the GF(2^8) multiplication table per byte. Kept in the benchmark
 * sources only; its coefficients are read out of the real codec so both compute the same code.
 */
final class ByteTableCoder {
  private static final byte[][] MULTIPLY = multiplicationTable();

  private final int inputs;
  private final byte[][] coefficients; // [output][input]

  private ByteTableCoder(byte[][] coefficients) {
    this.coefficients = coefficients;
    this.inputs = coefficients.length == 0 ? 0 : coefficients[0].length;
  }

  /** The parity rows of {@code geometry}: output p = sum over data shards c. */
  static ByteTableCoder encoder(Geometry geometry) {
    ErasureCodec codec = ErasureCodec.create(geometry, Implementation.SCALAR);
    int k = geometry.dataShards();
    byte[][] rows = new byte[geometry.parityShards()][k];
    for (int c = 0; c < k; c++) {
      byte[][] unit = new byte[geometry.totalShards()][1];
      unit[c][0] = 1;
      codec.encodeParity(unit, 0, 1);
      for (int p = 0; p < rows.length; p++) {
        rows[p][c] = unit[k + p][0];
      }
    }
    return new ByteTableCoder(rows);
  }

  /**
   * The rows that rebuild the shards missing in {@code present} from the first k present ones, read
   * out of the codec by reconstructing unit vectors.
   */
  static ByteTableCoder decoder(Geometry geometry, boolean[] present) {
    ErasureCodec codec = ErasureCodec.create(geometry, Implementation.SCALAR);
    int k = geometry.dataShards();
    int[] used = usedInputs(present, k);
    int[] missing = missing(present);
    byte[][] rows = new byte[missing.length][k];
    for (int c = 0; c < k; c++) {
      byte[][] unit = new byte[geometry.totalShards()][1];
      unit[used[c]][0] = 1;
      boolean[] onlyUsed = new boolean[geometry.totalShards()];
      for (int u : used) {
        onlyUsed[u] = true;
      }
      codec.reconstruct(unit, onlyUsed, 0, 1);
      for (int o = 0; o < missing.length; o++) {
        rows[o][c] = unit[missing[o]][0];
      }
    }
    return new ByteTableCoder(rows);
  }

  static int[] usedInputs(boolean[] present, int k) {
    int[] used = new int[k];
    int found = 0;
    for (int i = 0; i < present.length && found < k; i++) {
      if (present[i]) {
        used[found++] = i;
      }
    }
    return used;
  }

  static int[] missing(boolean[] present) {
    int count = 0;
    for (boolean p : present) {
      count += p ? 0 : 1;
    }
    int[] missing = new int[count];
    int at = 0;
    for (int i = 0; i < present.length; i++) {
      if (!present[i]) {
        missing[at++] = i;
      }
    }
    return missing;
  }

  /** outputs[o] = sum over c of coefficient(o, c) · inputs[c], over {@code length} bytes. */
  void code(byte[][] in, byte[][] out, int length) {
    for (int o = 0; o < coefficients.length; o++) {
      Arrays.fill(out[o], 0, length, (byte) 0);
    }
    for (int c = 0; c < inputs; c++) {
      byte[] input = in[c];
      for (int o = 0; o < coefficients.length; o++) {
        byte[] table = MULTIPLY[coefficients[o][c] & 0xFF];
        byte[] output = out[o];
        for (int i = 0; i < length; i++) {
          output[i] ^= table[input[i] & 0xFF];
        }
      }
    }
  }

  private static byte[][] multiplicationTable() {
    int[] log = new int[256];
    int[] exp = new int[510];
    int x = 1;
    for (int i = 0; i < 255; i++) {
      exp[i] = x;
      exp[i + 255] = x;
      log[x] = i;
      x <<= 1;
      if (x >= 256) {
        x ^= 0x11D;
      }
    }
    byte[][] table = new byte[256][256];
    for (int a = 1; a < 256; a++) {
      for (int b = 1; b < 256; b++) {
        table[a][b] = (byte) exp[log[a] + log[b]];
      }
    }
    return table;
  }
}
