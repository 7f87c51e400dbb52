package io.racs.proxy.hash;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Objects;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * MD5 of several messages at once, one message per lane of a vector: 8 lanes on 256-bit vectors, 16
 * on 512-bit. One stream's MD5 is a chain of dependent 32-bit steps that the JDK's intrinsic
 * already runs near the core's limit; several streams' chains are independent, so a vector runs
 * them side by side for about the price of one (the idea of MinIO's md5-simd).
 *
 * <p>The digest of each message is exactly {@link java.security.MessageDigest}'s MD5 of it ({@code
 * MultiMd5Test} checks every length up to several blocks, and random ones). Messages of different
 * lengths are hashed together: a lane whose message has no more blocks keeps its state while the
 * others go on.
 *
 * <p>Thread-safe: it holds no state between calls.
 */
public final class MultiMd5 {
  private static final VectorSpecies<Integer> SPECIES = IntVector.SPECIES_PREFERRED;
  private static final int LANES = SPECIES.length();
  private static final int[] K = new int[64];
  private static final int[] SHIFT = {
    7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
    5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20,
    4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
    6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21
  };
  private static final int[] WORD = new int[64];
  private static final VarHandle INT_LE =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

  static {
    for (int i = 0; i < 64; i++) {
      K[i] = (int) (long) Math.floor(Math.abs(StrictMath.sin(i + 1)) * 4294967296.0);
      WORD[i] = i < 16 ? i : i < 32 ? (5 * i + 1) % 16 : i < 48 ? (3 * i + 5) % 16 : (7 * i) % 16;
    }
  }

  private MultiMd5() {}

  /** How many messages one pass hashes side by side on this CPU. */
  public static int lanes() {
    return LANES;
  }

  /**
   * The MD5 of each of {@code messages} (at most {@link #lanes()} of them), in order.
   *
   * @throws IllegalArgumentException for more messages than lanes
   */
  public static byte[][] digest(byte[]... messages) {
    Objects.requireNonNull(messages, "messages");
    if (messages.length > LANES) {
      throw new IllegalArgumentException(
          "messages: " + messages.length + " (expected: at most " + LANES + " lanes)");
    }
    int n = messages.length;
    int[] blocks = new int[LANES];
    int most = 0;
    for (int lane = 0; lane < n; lane++) {
      blocks[lane] = paddedBlocks(messages[lane].length);
      most = Math.max(most, blocks[lane]);
    }
    IntVector a = IntVector.broadcast(SPECIES, 0x67452301);
    IntVector b = IntVector.broadcast(SPECIES, 0xefcdab89);
    IntVector c = IntVector.broadcast(SPECIES, 0x98badcfe);
    IntVector d = IntVector.broadcast(SPECIES, 0x10325476);
    int[] words = new int[16 * LANES];
    for (int block = 0; block < most; block++) {
      for (int lane = 0; lane < n; lane++) {
        if (block < blocks[lane]) {
          load(messages[lane], block, words, lane);
        }
      }
      VectorMask<Integer> live =
          IntVector.fromArray(SPECIES, blocks, 0).compare(VectorOperators.GT, block);
      IntVector aa = a;
      IntVector bb = b;
      IntVector cc = c;
      IntVector dd = d;
      for (int i = 0; i < 64; i++) {
        IntVector f;
        if (i < 16) {
          f = bb.and(cc).or(bb.not().and(dd));
        } else if (i < 32) {
          f = dd.and(bb).or(dd.not().and(cc));
        } else if (i < 48) {
          f = bb.lanewise(VectorOperators.XOR, cc).lanewise(VectorOperators.XOR, dd);
        } else {
          f = cc.lanewise(VectorOperators.XOR, bb.or(dd.not()));
        }
        f = f.add(aa).add(K[i]).add(IntVector.fromArray(SPECIES, words, WORD[i] * LANES));
        aa = dd;
        dd = cc;
        cc = bb;
        bb = bb.add(f.lanewise(VectorOperators.ROL, SHIFT[i]));
      }
      a = a.blend(a.add(aa), live);
      b = b.blend(b.add(bb), live);
      c = c.blend(c.add(cc), live);
      d = d.blend(d.add(dd), live);
    }
    byte[][] digests = new byte[n][];
    for (int lane = 0; lane < n; lane++) {
      byte[] out = new byte[16];
      putLe(out, 0, a.lane(lane));
      putLe(out, 4, b.lane(lane));
      putLe(out, 8, c.lane(lane));
      putLe(out, 12, d.lane(lane));
      digests[lane] = out;
    }
    return digests;
  }

  /** Blocks of 64 bytes in a message of {@code length} bytes with MD5's padding and length. */
  static int paddedBlocks(long length) {
    return (int) ((length + 8) / 64 + 1);
  }

  /**
   * Puts block {@code block} of the padded {@code message} as 16 little-endian words into lane
   * {@code lane} of {@code words} (word {@code w} of every lane side by side).
   */
  private static void load(byte[] message, int block, int[] words, int lane) {
    int base = block * 64;
    if (base + 64 <= message.length) { // a block of the message itself: no padding in it
      for (int w = 0; w < 16; w++) {
        words[w * LANES + lane] = (int) INT_LE.get(message, base + w * 4);
      }
      return;
    }
    long bits = (long) message.length * 8;
    int padded = paddedBlocks(message.length) * 64;
    for (int w = 0; w < 16; w++) {
      int word = 0;
      for (int byteIndex = 3; byteIndex >= 0; byteIndex--) {
        int at = base + w * 4 + byteIndex;
        int v;
        if (at < message.length) {
          v = message[at] & 0xff;
        } else if (at == message.length) {
          v = 0x80;
        } else if (at >= padded - 8) {
          v = (int) (bits >>> (8 * (at - (padded - 8)))) & 0xff;
        } else {
          v = 0;
        }
        word = word << 8 | v;
      }
      words[w * LANES + lane] = word;
    }
  }

  private static void putLe(byte[] out, int at, int v) {
    out[at] = (byte) v;
    out[at + 1] = (byte) (v >>> 8);
    out[at + 2] = (byte) (v >>> 16);
    out[at + 3] = (byte) (v >>> 24);
  }
}
