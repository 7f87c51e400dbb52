package io.racs.proxy.store.stripe;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.testkit.SeededBytes;
import io.racs.testkit.TestSeed;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The piece framing: a framed piece is its bytes then their CRC32C big-endian (the layout already
 * on repositories), reads back intact, and a flipped bit anywhere in it, or a frame cut short, is
 * told apart.
 */
class PieceCodecTest {
  private static final int LENGTH = 1000;

  private static byte[] piece() {
    return SeededBytes.bytes(TestSeed.get(), LENGTH);
  }

  @Test
  void framed_isThePieceThenItsCrc32cBigEndian() {
    byte[] piece = piece();
    byte[] framed = PieceCodec.framed(piece, LENGTH, new CRC32C());
    CRC32C crc = new CRC32C();
    crc.update(piece, 0, LENGTH);
    byte[] expected = Arrays.copyOf(piece, LENGTH + 4);
    ByteBuffer.wrap(expected, LENGTH, 4).putInt((int) crc.getValue());
    assertThat(framed).isEqualTo(expected);
    assertThat(PieceCodec.framedLength(LENGTH)).isEqualTo(LENGTH + 4);
  }

  @Test
  void seal_framesInPlaceAsFramedDoes() {
    byte[] piece = piece();
    byte[] sealed = Arrays.copyOf(piece, LENGTH + 4);
    Arrays.fill(sealed, LENGTH, LENGTH + 4, (byte) 0x5A); // a reused array's stale trailer
    PieceCodec.seal(sealed, LENGTH, new CRC32C());
    assertThat(sealed).isEqualTo(PieceCodec.framed(piece, LENGTH, new CRC32C()));
  }

  @Test
  void read_ofFramedPieces_roundTripsEach() throws IOException {
    byte[] first = piece();
    byte[] second = SeededBytes.bytes(TestSeed.get() + 1, 7);
    CRC32C crc = new CRC32C();
    ByteBuffer shard = ByteBuffer.allocate(LENGTH + 4 + 7 + 4);
    shard.put(PieceCodec.framed(first, LENGTH, crc)).put(PieceCodec.framed(second, 7, crc));
    ByteArrayInputStream in = new ByteArrayInputStream(shard.array());
    byte[] into = new byte[LENGTH + 4];

    assertThat(PieceCodec.read(in, into, LENGTH, crc)).isEqualTo(PieceCodec.Check.INTACT);
    assertThat(Arrays.copyOf(into, LENGTH)).isEqualTo(first);
    assertThat(PieceCodec.read(in, into, 7, crc)).isEqualTo(PieceCodec.Check.INTACT);
    assertThat(Arrays.copyOf(into, 7)).isEqualTo(second);
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, LENGTH / 2, LENGTH - 1, LENGTH, LENGTH + 3})
  void read_ofAFlippedBit_inDataOrTrailer_isCorrupt(int at) throws IOException {
    byte[] framed = PieceCodec.framed(piece(), LENGTH, new CRC32C());
    framed[at] ^= 0x10;
    CRC32C crc = new CRC32C();
    assertThat(PieceCodec.intact(framed, 0, LENGTH, crc)).isFalse();
    assertThat(PieceCodec.read(new ByteArrayInputStream(framed), new byte[LENGTH + 4], LENGTH, crc))
        .isEqualTo(PieceCodec.Check.CORRUPT);
  }

  @Test
  void read_ofAFrameCutShort_isShort() throws IOException {
    byte[] framed = PieceCodec.framed(piece(), LENGTH, new CRC32C());
    byte[] cut = Arrays.copyOf(framed, framed.length - 1);
    assertThat(
            PieceCodec.read(
                new ByteArrayInputStream(cut), new byte[LENGTH + 4], LENGTH, new CRC32C()))
        .isEqualTo(PieceCodec.Check.SHORT);
  }

  @Test
  void intact_checksAFrameInsideALargerArray() {
    byte[] framed = PieceCodec.framed(piece(), LENGTH, new CRC32C());
    byte[] record = new byte[10 + framed.length];
    System.arraycopy(framed, 0, record, 10, framed.length);
    assertThat(PieceCodec.intact(record, 10, LENGTH, new CRC32C())).isTrue();
    record[10 + LENGTH + 2] ^= 1;
    assertThat(PieceCodec.intact(record, 10, LENGTH, new CRC32C())).isFalse();
  }
}
