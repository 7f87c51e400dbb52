package io.racs.proxy.codec;

import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * The Vector API path: GF(2^8) multiplication by split-nibble table lookups. For a coefficient c,
 * c·x = low[x &amp; 15] ^ high[x &gt;&gt;&gt; 4]; a 16-lane byte shuffle does 16 such lookups at
 * once.
 *
 * <p>Shapes chosen by measurement on AVX2 (see the codec JMH suite): 128-bit vectors, because a
 * 128-bit {@code selectFrom} is one {@code vpshufb} while 256-bit needs a lane-crossing sequence;
 * the high nibble shifted as shorts and masked, because a byte shift is many instructions; work in
 * cache-sized blocks; and no vector value crosses a loop boundary except loop-invariant tables
 * (vectors kept live across nested loops were boxed by C2 and ran 10× slower). Only this class
 * touches {@code jdk.incubator.vector}; it is loaded only when that module is present.
 */
final class VectorKernel implements Kernel {
  private static final VectorSpecies<Byte> SPECIES = ByteVector.SPECIES_128;
  private static final int LANES = 16;
  private static final int BLOCK_BYTES = 4096;

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
    byte[] tables = rows.nibbleTables();
    for (int start = 0; start < length; start += BLOCK_BYTES) {
      int blockLength = Math.min(BLOCK_BYTES, length - start);
      int vectorLength = blockLength & -LANES;
      for (int r = 0; r < rowCount; r++) {
        byte[] out = outputs[r];
        int outAt = outOffsets[r] + start;
        int c = 0;
        while (c < columnCount) {
          int t = (r * columnCount + c) * 32;
          int left = columnCount - c;
          // One method per shape and per first/accumulate, each holding a single loop: small
          // compiled units keep every vector in registers (large ones were boxed by C2).
          if (left >= 4) {
            int a0 = inOffsets[c] + start;
            int a1 = inOffsets[c + 1] + start;
            int a2 = inOffsets[c + 2] + start;
            int a3 = inOffsets[c + 3] + start;
            if (c == 0) {
              mul4Set(
                  tables,
                  t,
                  inputs[c],
                  a0,
                  inputs[c + 1],
                  a1,
                  inputs[c + 2],
                  a2,
                  inputs[c + 3],
                  a3,
                  out,
                  outAt,
                  vectorLength);
            } else {
              mul4Xor(
                  tables,
                  t,
                  inputs[c],
                  a0,
                  inputs[c + 1],
                  a1,
                  inputs[c + 2],
                  a2,
                  inputs[c + 3],
                  a3,
                  out,
                  outAt,
                  vectorLength);
            }
            c += 4;
          } else if (left >= 2) {
            int a0 = inOffsets[c] + start;
            int a1 = inOffsets[c + 1] + start;
            if (c == 0) {
              mul2Set(tables, t, inputs[c], a0, inputs[c + 1], a1, out, outAt, vectorLength);
            } else {
              mul2Xor(tables, t, inputs[c], a0, inputs[c + 1], a1, out, outAt, vectorLength);
            }
            c += 2;
          } else {
            int a0 = inOffsets[c] + start;
            if (c == 0) {
              mul1Set(tables, t, inputs[c], a0, out, outAt, vectorLength);
            } else {
              mul1Xor(tables, t, inputs[c], a0, out, outAt, vectorLength);
            }
            c += 1;
          }
        }
        if (vectorLength < blockLength) {
          tail(rows, r, inputs, inOffsets, start, out, outAt, vectorLength, blockLength);
        }
      }
    }
  }

  /** The bytes after the last whole vector, one at a time. */
  private static void tail(
      CodingRows rows,
      int r,
      byte[][] inputs,
      int[] inOffsets,
      int start,
      byte[] out,
      int outAt,
      int from,
      int to) {
    int columnCount = rows.columns();
    for (int i = from; i < to; i++) {
      int value = 0;
      for (int c = 0; c < columnCount; c++) {
        value ^=
            Galois.MULTIPLY[rows.coefficient(r, c)][inputs[c][inOffsets[c] + start + i] & 0xFF];
      }
      out[outAt + i] = (byte) value;
    }
  }

  private static ByteVector mul(ByteVector low, ByteVector high, ByteVector x) {
    ByteVector lowNibbles = x.and((byte) 0x0F);
    // Shifting bytes right by 4 compiles to a long sequence; as shorts it is one shift, and the
    // mask drops the bits that crossed from the neighbouring byte.
    ByteVector highNibbles =
        x.reinterpretAsShorts()
            .lanewise(VectorOperators.LSHR, 4)
            .reinterpretAsBytes()
            .and((byte) 0x0F);
    return lowNibbles.selectFrom(low).lanewise(VectorOperators.XOR, highNibbles.selectFrom(high));
  }

  private static void mul4Set(
      byte[] t,
      int tAt,
      byte[] a,
      int aAt,
      byte[] b,
      int bAt,
      byte[] c,
      int cAt,
      byte[] d,
      int dAt,
      byte[] out,
      int outAt,
      int length) {
    ByteVector la = ByteVector.fromArray(SPECIES, t, tAt + 0);
    ByteVector ha = ByteVector.fromArray(SPECIES, t, tAt + 16);
    ByteVector lb = ByteVector.fromArray(SPECIES, t, tAt + 32);
    ByteVector hb = ByteVector.fromArray(SPECIES, t, tAt + 48);
    ByteVector lc = ByteVector.fromArray(SPECIES, t, tAt + 64);
    ByteVector hc = ByteVector.fromArray(SPECIES, t, tAt + 80);
    ByteVector ld = ByteVector.fromArray(SPECIES, t, tAt + 96);
    ByteVector hd = ByteVector.fromArray(SPECIES, t, tAt + 112);
    for (int i = 0; i < length; i += LANES) {
      mul(la, ha, ByteVector.fromArray(SPECIES, a, aAt + i))
          .lanewise(VectorOperators.XOR, mul(lb, hb, ByteVector.fromArray(SPECIES, b, bAt + i)))
          .lanewise(VectorOperators.XOR, mul(lc, hc, ByteVector.fromArray(SPECIES, c, cAt + i)))
          .lanewise(VectorOperators.XOR, mul(ld, hd, ByteVector.fromArray(SPECIES, d, dAt + i)))
          .intoArray(out, outAt + i);
    }
  }

  private static void mul4Xor(
      byte[] t,
      int tAt,
      byte[] a,
      int aAt,
      byte[] b,
      int bAt,
      byte[] c,
      int cAt,
      byte[] d,
      int dAt,
      byte[] out,
      int outAt,
      int length) {
    ByteVector la = ByteVector.fromArray(SPECIES, t, tAt + 0);
    ByteVector ha = ByteVector.fromArray(SPECIES, t, tAt + 16);
    ByteVector lb = ByteVector.fromArray(SPECIES, t, tAt + 32);
    ByteVector hb = ByteVector.fromArray(SPECIES, t, tAt + 48);
    ByteVector lc = ByteVector.fromArray(SPECIES, t, tAt + 64);
    ByteVector hc = ByteVector.fromArray(SPECIES, t, tAt + 80);
    ByteVector ld = ByteVector.fromArray(SPECIES, t, tAt + 96);
    ByteVector hd = ByteVector.fromArray(SPECIES, t, tAt + 112);
    for (int i = 0; i < length; i += LANES) {
      ByteVector.fromArray(SPECIES, out, outAt + i)
          .lanewise(VectorOperators.XOR, mul(la, ha, ByteVector.fromArray(SPECIES, a, aAt + i)))
          .lanewise(VectorOperators.XOR, mul(lb, hb, ByteVector.fromArray(SPECIES, b, bAt + i)))
          .lanewise(VectorOperators.XOR, mul(lc, hc, ByteVector.fromArray(SPECIES, c, cAt + i)))
          .lanewise(VectorOperators.XOR, mul(ld, hd, ByteVector.fromArray(SPECIES, d, dAt + i)))
          .intoArray(out, outAt + i);
    }
  }

  private static void mul2Set(
      byte[] t, int tAt, byte[] a, int aAt, byte[] b, int bAt, byte[] out, int outAt, int length) {
    ByteVector la = ByteVector.fromArray(SPECIES, t, tAt + 0);
    ByteVector ha = ByteVector.fromArray(SPECIES, t, tAt + 16);
    ByteVector lb = ByteVector.fromArray(SPECIES, t, tAt + 32);
    ByteVector hb = ByteVector.fromArray(SPECIES, t, tAt + 48);
    for (int i = 0; i < length; i += LANES) {
      mul(la, ha, ByteVector.fromArray(SPECIES, a, aAt + i))
          .lanewise(VectorOperators.XOR, mul(lb, hb, ByteVector.fromArray(SPECIES, b, bAt + i)))
          .intoArray(out, outAt + i);
    }
  }

  private static void mul2Xor(
      byte[] t, int tAt, byte[] a, int aAt, byte[] b, int bAt, byte[] out, int outAt, int length) {
    ByteVector la = ByteVector.fromArray(SPECIES, t, tAt + 0);
    ByteVector ha = ByteVector.fromArray(SPECIES, t, tAt + 16);
    ByteVector lb = ByteVector.fromArray(SPECIES, t, tAt + 32);
    ByteVector hb = ByteVector.fromArray(SPECIES, t, tAt + 48);
    for (int i = 0; i < length; i += LANES) {
      ByteVector.fromArray(SPECIES, out, outAt + i)
          .lanewise(VectorOperators.XOR, mul(la, ha, ByteVector.fromArray(SPECIES, a, aAt + i)))
          .lanewise(VectorOperators.XOR, mul(lb, hb, ByteVector.fromArray(SPECIES, b, bAt + i)))
          .intoArray(out, outAt + i);
    }
  }

  private static void mul1Set(
      byte[] t, int tAt, byte[] a, int aAt, byte[] out, int outAt, int length) {
    ByteVector la = ByteVector.fromArray(SPECIES, t, tAt + 0);
    ByteVector ha = ByteVector.fromArray(SPECIES, t, tAt + 16);
    for (int i = 0; i < length; i += LANES) {
      mul(la, ha, ByteVector.fromArray(SPECIES, a, aAt + i)).intoArray(out, outAt + i);
    }
  }

  private static void mul1Xor(
      byte[] t, int tAt, byte[] a, int aAt, byte[] out, int outAt, int length) {
    ByteVector la = ByteVector.fromArray(SPECIES, t, tAt + 0);
    ByteVector ha = ByteVector.fromArray(SPECIES, t, tAt + 16);
    for (int i = 0; i < length; i += LANES) {
      ByteVector.fromArray(SPECIES, out, outAt + i)
          .lanewise(VectorOperators.XOR, mul(la, ha, ByteVector.fromArray(SPECIES, a, aAt + i)))
          .intoArray(out, outAt + i);
    }
  }
}
