package io.racs.proxy.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.testkit.TestSeed;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The contract every {@link ErasureCodec} implementation must meet, run once per implementation:
 * byte-compatibility with klauspost/reedsolomon (committed fixtures), every erasure pattern up to m
 * rebuilt exactly for small geometries, random geometries and lengths from a logged seed, unaligned
 * offsets, heap/direct/sliced buffers, and clean rejection of bad arguments (including more than m
 * missing) with nothing written.
 */
abstract class ErasureCodecContract {
  /** The implementation under test. */
  abstract Implementation implementation();

  ErasureCodec codec(int k, int m) {
    ErasureCodec codec = ErasureCodec.create(Geometry.of(k, m), implementation());
    assertThat(codec.implementation()).isEqualTo(implementation());
    return codec;
  }

  private static byte[][] copy(byte[][] shards) {
    byte[][] copy = new byte[shards.length][];
    for (int i = 0; i < shards.length; i++) {
      copy[i] = shards[i].clone();
    }
    return copy;
  }

  @Test
  void encodeParity_whenKlauspostFixtures_matchesByteForByte() throws IOException {
    List<String> lines;
    try (InputStream in = getClass().getResourceAsStream("/codec/klauspost-parity.txt")) {
      assertThat(in).as("fixture file").isNotNull();
      lines = new String(in.readAllBytes(), StandardCharsets.US_ASCII).lines().toList();
    }
    int cases = 0;
    for (String line : lines) {
      if (line.startsWith("#") || line.isBlank()) {
        continue;
      }
      String[] f = line.split(" ");
      int k = Integer.parseInt(f[0]);
      int m = Integer.parseInt(f[1]);
      int length = Integer.parseInt(f[2]);
      long seed = Long.parseLong(f[3]);
      byte[][] shards = Xorshift.shards(k, m, length, seed);
      codec(k, m).encodeParity(shards, 0, length);
      for (int p = 0; p < m; p++) {
        assertThat(HexFormat.of().formatHex(shards[k + p]))
            .as("%dx%d length %d seed %d parity %d", k, m, length, seed, p)
            .isEqualTo(f[4 + p]);
      }
      cases++;
    }
    assertThat(cases).isGreaterThanOrEqualTo(10);
  }

  @Test
  void encodeParity_dataShardsUnchangedAndMatrixTopIsIdentity() {
    byte[][] shards = Xorshift.shards(5, 3, 1000, 42);
    byte[][] before = copy(shards);
    ErasureCodec codec = codec(5, 3);
    codec.encodeParity(shards, 0, 1000);
    for (int i = 0; i < 5; i++) {
      assertThat(shards[i]).isEqualTo(before[i]);
    }
    ReedSolomon rs = (ReedSolomon) codec;
    for (int r = 0; r < 5; r++) {
      for (int c = 0; c < 5; c++) {
        assertThat(rs.matrixEntry(r, c)).isEqualTo((byte) (r == c ? 1 : 0));
      }
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"3x2", "4x2", "5x3", "2x4", "6x3"})
  void reconstruct_everyErasurePatternUpToM_rebuildsExactly(String text) {
    Geometry g = Geometry.parse(text);
    int k = g.dataShards();
    int n = g.totalShards();
    int length = 1031; // not a multiple of the vector width
    byte[][] original = Xorshift.shards(k, g.parityShards(), length, text.hashCode());
    ErasureCodec codec = codec(k, g.parityShards());
    codec.encodeParity(original, 0, length);
    int patterns = 0;
    for (int mask = 1; mask < (1 << n); mask++) {
      if (Integer.bitCount(mask) > g.parityShards()) {
        continue;
      }
      boolean[] present = new boolean[n];
      byte[][] shards = copy(original);
      for (int i = 0; i < n; i++) {
        present[i] = (mask & (1 << i)) == 0;
        if (!present[i]) {
          Arrays.fill(shards[i], (byte) 0x5A);
        }
      }
      byte[][] dataOnly = copy(shards);
      codec.reconstruct(shards, present, 0, length);
      for (int i = 0; i < n; i++) {
        assertThat(shards[i])
            .as("%s erased %s shard %d", g, Integer.toBinaryString(mask), i)
            .isEqualTo(original[i]);
      }
      codec.reconstructData(dataOnly, present, 0, length);
      for (int i = 0; i < n; i++) {
        byte[] expected = original[i];
        if (i >= k && !present[i]) {
          expected = new byte[length];
          Arrays.fill(expected, (byte) 0x5A); // parity is not touched by reconstructData
        }
        assertThat(dataOnly[i])
            .as("%s data-only erased %s shard %d", g, mask, i)
            .isEqualTo(expected);
      }
      assertThat(codec.verifyParity(shards, 0, length)).isTrue();
      patterns++;
    }
    assertThat(patterns).isGreaterThan(n);
  }

  @Test
  void reconstruct_whenMoreThanMMissing_failsCleanlyAndWritesNothing() {
    ErasureCodec codec = codec(4, 2);
    byte[][] shards = Xorshift.shards(4, 2, 100, 7);
    codec.encodeParity(shards, 0, 100);
    boolean[] present = {false, true, false, true, false, true};
    byte[][] before = copy(shards);
    assertThatThrownBy(() -> codec.reconstruct(shards, present, 0, 100))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("present: 3 of 6 shards (expected: at least 4 to reconstruct 4x2)");
    assertThatThrownBy(() -> codec.reconstructData(shards, present, 0, 100))
        .isInstanceOf(IllegalArgumentException.class);
    for (int i = 0; i < 6; i++) {
      assertThat(shards[i]).isEqualTo(before[i]);
    }
  }

  @Test
  void randomGeometriesLengthsAndOffsets_fromLoggedSeed_roundTrip() {
    long seed = TestSeed.get();
    Random random = new Random(seed);
    ErasureCodec scalar = ErasureCodec.create(Geometry.of(1, 1), Implementation.SCALAR);
    for (int round = 0; round < 60; round++) {
      int k = 1 + random.nextInt(20);
      int m = random.nextInt(9);
      int length = random.nextInt(3 * 4096 + 100);
      int offset = random.nextInt(40);
      String context = "seed " + seed + " round " + round + " " + k + "x" + m + " len " + length;
      byte[][] shards = new byte[k + m][offset + length + random.nextInt(20)];
      for (int i = 0; i < k; i++) {
        random.nextBytes(shards[i]);
      }
      ErasureCodec codec = codec(k, m);
      codec.encodeParity(shards, offset, length);
      // The other implementation must compute the same parity.
      byte[][] again = copy(shards);
      ErasureCodec.create(Geometry.of(k, m), Implementation.SCALAR)
          .encodeParity(again, offset, length);
      for (int i = 0; i < k + m; i++) {
        assertThat(again[i]).as(context).isEqualTo(shards[i]);
      }
      assertThat(codec.verifyParity(shards, offset, length)).as(context).isTrue();
      boolean[] present = new boolean[k + m];
      Arrays.fill(present, true);
      int erase = m == 0 ? 0 : random.nextInt(m + 1);
      byte[][] original = copy(shards);
      for (int e = 0; e < erase; e++) {
        int victim = random.nextInt(k + m);
        present[victim] = false;
        Arrays.fill(shards[victim], offset, offset + length, (byte) random.nextInt());
      }
      codec.reconstruct(shards, present, offset, length);
      for (int i = 0; i < k + m; i++) {
        assertThat(shards[i]).as(context + " shard " + i).isEqualTo(original[i]);
      }
    }
    assertThat(scalar.geometry()).hasToString("1x1");
  }

  @Test
  void verifyParity_whenAnyByteFlipped_isFalse() {
    long seed = TestSeed.get();
    Random random = new Random(seed);
    ErasureCodec codec = codec(6, 3);
    byte[][] shards = Xorshift.shards(6, 3, 5000, seed);
    codec.encodeParity(shards, 0, 5000);
    assertThat(codec.verifyParity(shards, 0, 5000)).isTrue();
    for (int trial = 0; trial < 20; trial++) {
      int shard = random.nextInt(9);
      int at = random.nextInt(5000);
      shards[shard][at] ^= (byte) (1 + random.nextInt(255));
      assertThat(codec.verifyParity(shards, 0, 5000)).as("seed %d trial %d", seed, trial).isFalse();
      codec.reconstruct(shards, allBut(9, shard), 0, 5000);
      assertThat(codec.verifyParity(shards, 0, 5000)).isTrue();
    }
  }

  private static boolean[] allBut(int n, int missing) {
    boolean[] present = new boolean[n];
    Arrays.fill(present, true);
    present[missing] = false;
    return present;
  }

  @Test
  void maxGeometry_256Shards_encodesAndReconstructs() {
    ErasureCodec codec = codec(200, 56);
    byte[][] shards = Xorshift.shards(200, 56, 70, 99);
    codec.encodeParity(shards, 0, 70);
    byte[][] original = copy(shards);
    boolean[] present = new boolean[256];
    Arrays.fill(present, true);
    for (int i = 0; i < 56; i++) {
      int victim = i * 4 + 1; // spread over data and parity
      present[victim] = false;
      Arrays.fill(shards[victim], (byte) 0);
    }
    codec.reconstruct(shards, present, 0, 70);
    for (int i = 0; i < 256; i++) {
      assertThat(shards[i]).as("shard %d", i).isEqualTo(original[i]);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"heap", "direct", "slice", "mixed"})
  void byteBuffers_whenHeapDirectOrSliced_matchArraysAndKeepPositions(String kind) {
    int k = 4;
    int m = 2;
    int length = 20_000 + 3; // crosses staging chunks, not vector-aligned
    byte[][] arrays = Xorshift.shards(k, m, length, kind.hashCode());
    codec(k, m).encodeParity(arrays, 0, length);
    ByteBuffer[] buffers = new ByteBuffer[k + m];
    for (int i = 0; i < k + m; i++) {
      boolean direct = kind.equals("direct") || (kind.equals("mixed") && i % 2 == 1);
      int pad = kind.equals("slice") ? 7 : 3;
      ByteBuffer b =
          direct
              ? ByteBuffer.allocateDirect(length + 2 * pad)
              : ByteBuffer.allocate(length + 2 * pad);
      if (kind.equals("slice")) {
        b = b.position(pad).slice(); // arrayOffset != 0
      }
      b.position(pad);
      b.limit(pad + length);
      if (i < k) {
        b.put(b.position(), arrays[i]);
      }
      buffers[i] = b;
    }
    ErasureCodec codec = codec(k, m);
    codec.encodeParity(buffers);
    for (int i = 0; i < k + m; i++) {
      assertThat(contents(buffers[i])).as("%s shard %d", kind, i).isEqualTo(arrays[i]);
    }
    assertThat(codec.verifyParity(buffers)).isTrue();
    boolean[] present = {true, false, true, true, false, true};
    zero(buffers[1]);
    zero(buffers[4]);
    codec.reconstruct(buffers, present);
    for (int i = 0; i < k + m; i++) {
      assertThat(contents(buffers[i])).as("%s rebuilt shard %d", kind, i).isEqualTo(arrays[i]);
    }
    zero(buffers[0]);
    codec.reconstructData(buffers, new boolean[] {false, true, true, true, true, true});
    assertThat(contents(buffers[0])).isEqualTo(arrays[0]);
    buffers[5].put(buffers[5].position() + 12_345, (byte) (arrays[5][12_345] ^ 1));
    assertThat(codec.verifyParity(buffers)).isFalse();
  }

  private static byte[] contents(ByteBuffer b) {
    int position = b.position();
    byte[] out = new byte[b.remaining()];
    b.get(position, out);
    assertThat(b.position()).isEqualTo(position);
    return out;
  }

  private static void zero(ByteBuffer b) {
    b.put(b.position(), new byte[b.remaining()]);
  }

  @Test
  void badArguments_areRejectedNamingValueAndExpectation() {
    ErasureCodec codec = codec(4, 2);
    byte[][] five = new byte[5][10];
    assertThatThrownBy(() -> codec.encodeParity(five, 0, 10))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("shards.length: 5 (expected: 6 for 4x2)");
    byte[][] withNull = new byte[6][10];
    withNull[3] = null;
    assertThatThrownBy(() -> codec.encodeParity(withNull, 0, 10))
        .hasMessage("shards[3]: null (expected: an array)");
    byte[][] shortOne = new byte[6][10];
    shortOne[5] = new byte[9];
    assertThatThrownBy(() -> codec.encodeParity(shortOne, 2, 8))
        .hasMessage("shards[5].length: 9 (expected: >= offset + length = 10)");
    assertThatThrownBy(() -> codec.encodeParity(new byte[6][10], -1, 5))
        .hasMessage("offset, length: -1, 5 (expected: >= 0)");
    assertThatThrownBy(() -> codec.reconstruct(new byte[6][10], new boolean[5], 0, 10))
        .hasMessage("present.length: 5 (expected: 6)");
    ByteBuffer[] unequal = new ByteBuffer[6];
    for (int i = 0; i < 6; i++) {
      unequal[i] = ByteBuffer.allocate(i == 2 ? 11 : 10);
    }
    assertThatThrownBy(() -> codec.encodeParity(unequal))
        .hasMessage("shards[2].remaining(): 11 (expected: 10, as shards[0])");
    ByteBuffer[] readOnly = new ByteBuffer[6];
    for (int i = 0; i < 6; i++) {
      readOnly[i] = ByteBuffer.allocate(10);
    }
    readOnly[4] = readOnly[4].asReadOnlyBuffer();
    assertThatThrownBy(() -> codec.encodeParity(readOnly))
        .hasMessage("shards[4]: read-only (expected: a writable buffer to write into)");
  }

  @Test
  void geometry_parsesAndRejects() {
    assertThat(Geometry.parse("10x4")).isEqualTo(Geometry.of(10, 4));
    assertThat(Geometry.of(4, 2)).hasToString("4x2");
    assertThatThrownBy(() -> Geometry.parse("4by2"))
        .hasMessage("geometry: 4by2 (expected: DxP, data x parity shards, e.g. 4x2)");
    assertThatThrownBy(() -> Geometry.of(0, 2)).hasMessage("dataShards: 0 (expected: >= 1)");
    assertThatThrownBy(() -> Geometry.of(200, 57))
        .hasMessage("dataShards + parityShards: 257 (expected: <= 256)");
  }

  @Test
  void zeroLengthAndZeroParity_areValidNoOps() {
    ErasureCodec codec = codec(3, 0);
    byte[][] shards = Xorshift.shards(3, 0, 10, 1);
    codec.encodeParity(shards, 0, 10);
    assertThat(codec.verifyParity(shards, 0, 10)).isTrue();
    codec.reconstruct(shards, new boolean[] {true, true, true}, 0, 10);
    ErasureCodec other = codec(2, 2);
    byte[][] empty = new byte[4][0];
    other.encodeParity(empty, 0, 0);
    other.reconstruct(empty, new boolean[] {false, true, false, true}, 0, 0);
    assertThat(other.verifyParity(empty, 0, 0)).isTrue();
  }
}
