package io.racs.proxy.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.testkit.SeededBytes;
import io.racs.testkit.TestSeed;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Sealing and opening streams: every size round-trips, every range opens to exactly its bytes, and
 * altered, reordered, truncated or misattributed sealed bytes fail before any byte of them is
 * handed out.
 */
class SealedStreamsTest {
  private static final int C = SealedLayout.CHUNK_BYTES;

  private static byte[] seal(byte[] plain, DataKey key, int stream) throws IOException {
    try (InputStream in =
        new SealingInputStream(new ByteArrayInputStream(plain), plain.length, key.sealer(stream))) {
      byte[] sealed = in.readAllBytes();
      assertThat(sealed.length).isEqualTo(SealedLayout.sealedLength(plain.length));
      return sealed;
    }
  }

  private static byte[] open(
      byte[] sealed, DataKey key, int stream, long plainBytes, long off, long len)
      throws IOException {
    SealedLayout.Span span = SealedLayout.span(off, len, plainBytes);
    InputStream in =
        new ByteArrayInputStream(
            sealed,
            (int) span.sealedOffset(),
            (int) Math.min(span.sealedLength(), sealed.length - span.sealedOffset()));
    try (InputStream plain =
        new OpeningInputStream(in, key.sealer(stream), span, plainBytes, len)) {
      return readAll(plain, READ_SIZES[(int) ((off + len) % READ_SIZES.length)]);
    }
  }

  // Reads smaller than a chunk go through the stream's buffer; a chunk or more opens straight into
  // the caller's array.
  private static final int[] READ_SIZES = {16384, C, C + 17, 4 * C};

  private static byte[] readAll(InputStream in, int readSize) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buffer = new byte[readSize];
    for (int n; (n = in.read(buffer, 0, readSize)) >= 0; ) {
      out.write(buffer, 0, n);
    }
    return out.toByteArray();
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, C - 1, C, C + 1, 5 * 1024 * 1024 + 1})
  void roundTrip_whenAnySize_returnsThePlaintextAndNoWindowOfItIsInTheSealedBytes(int size)
      throws IOException {
    Random random = new Random(TestSeed.get());
    byte[] plain = SeededBytes.bytes(random.nextLong(), size);
    DataKey key = DataKey.generate();
    byte[] sealed = seal(plain, key, 0);
    for (int readSize : READ_SIZES) {
      SealedLayout.Span span = SealedLayout.span(0, size, size);
      try (InputStream in =
          new OpeningInputStream(
              new ByteArrayInputStream(sealed), key.sealer(0), span, size, size)) {
        assertThat(readAll(in, readSize)).as("read %d at a time", readSize).isEqualTo(plain);
      }
    }
    if (size >= 32) {
      byte[] window = Arrays.copyOfRange(plain, size / 2 - 16, size / 2 + 16);
      assertThat(indexOf(sealed, window)).isEqualTo(-1);
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, C - 1, C, C + 1, 3 * C})
  void seal_whenLengthUnknownUntilTheEnd_sealsTheSameBytesAsWithTheLengthDeclared(int size)
      throws IOException {
    byte[] plain = SeededBytes.bytes(TestSeed.get(), size);
    DataKey key = DataKey.generate();
    SealingInputStream streamed =
        new SealingInputStream(new ByteArrayInputStream(plain), -1, key.sealer(0));
    assertThat(streamed.sealedLength()).isEqualTo(-1);
    assertThat(streamed.readAllBytes()).isEqualTo(seal(plain, key, 0));
    assertThat(streamed.plainBytesRead()).isEqualTo(size);
  }

  @Test
  void open_whenRandomRanges_returnsExactlyTheirBytes() throws IOException {
    Random random = new Random(TestSeed.get());
    int size = 3 * C + 777;
    byte[] plain = SeededBytes.bytes(random.nextLong(), size);
    DataKey key = DataKey.generate();
    byte[] sealed = seal(plain, key, 7);
    for (int i = 0; i < 200; i++) {
      int off = random.nextInt(size + 1);
      int len = random.nextInt(size - off + 1);
      assertThat(open(sealed, key, 7, size, off, len))
          .as("range [%d, +%d)", off, len)
          .isEqualTo(Arrays.copyOfRange(plain, off, off + len));
    }
  }

  @Test
  void open_whenAnyOneByteFlipped_failsBeforeHandingOutAByteOfThatChunk() throws IOException {
    Random random = new Random(TestSeed.get());
    int size = 2 * C + 10;
    byte[] plain = SeededBytes.bytes(random.nextLong(), size);
    DataKey key = DataKey.generate();
    byte[] sealed = seal(plain, key, 0);
    for (int i = 0; i < 20; i++) {
      byte[] altered = sealed.clone();
      int at = random.nextInt(altered.length);
      altered[at] ^= (byte) (1 + random.nextInt(255));
      int chunk = at / SealedLayout.SEALED_CHUNK_BYTES;
      ByteArrayOutputStream got = new ByteArrayOutputStream();
      SealedLayout.Span span = SealedLayout.span(0, size, size);
      // Read a chunk at a time (straight into this array after the first chunk) or less.
      byte[] buffer = new byte[i % 2 == 0 ? C : 1000];
      assertThatThrownBy(
              () -> {
                try (InputStream in =
                    new OpeningInputStream(
                        new ByteArrayInputStream(altered), key.sealer(0), span, size, size)) {
                  for (int n; (n = in.read(buffer)) >= 0; ) {
                    got.write(buffer, 0, n);
                  }
                }
              })
          .as("byte %d flipped", at)
          .isInstanceOf(TamperedDataException.class);
      // Only the chunks before the altered one were handed out, and they are the plaintext's.
      assertThat(got.toByteArray()).isEqualTo(Arrays.copyOf(plain, chunk * C));
      if (chunk > 0 && buffer.length == C) {
        // The altered chunk was opened straight into the caller's array, and nothing of it is
        // left there: the array holds the chunk before it, or zeros (the JCA clears its output
        // when the tag does not match).
        byte[] before = Arrays.copyOfRange(plain, (chunk - 1) * C, chunk * C);
        assertThat(Arrays.equals(buffer, before) || Arrays.equals(buffer, new byte[C]))
            .as("the caller's array after chunk %d failed", chunk)
            .isTrue();
      }
    }
  }

  @Test
  void open_whenTwoChunksSwapped_fails() throws IOException {
    byte[] plain = SeededBytes.bytes(TestSeed.get(), 3 * C);
    DataKey key = DataKey.generate();
    byte[] sealed = seal(plain, key, 0);
    int s = SealedLayout.SEALED_CHUNK_BYTES;
    byte[] swapped = sealed.clone();
    System.arraycopy(sealed, 0, swapped, s, s);
    System.arraycopy(sealed, s, swapped, 0, s);
    assertThatThrownBy(() -> open(swapped, key, 0, plain.length, 0, plain.length))
        .isInstanceOf(TamperedDataException.class);
  }

  @Test
  void open_whenCutAtAChunkBoundaryAndReadAsShorter_failsOnTheChunkThatWasNotLast()
      throws IOException {
    byte[] plain = SeededBytes.bytes(TestSeed.get(), 3 * C);
    DataKey key = DataKey.generate();
    byte[] sealed = seal(plain, key, 0);
    byte[] cut = Arrays.copyOf(sealed, 2 * SealedLayout.SEALED_CHUNK_BYTES);
    // A record altered to say 2 chunks: the second chunk was not sealed as the last one.
    assertThatThrownBy(() -> open(cut, key, 0, 2L * C, 0, 2L * C))
        .isInstanceOf(TamperedDataException.class);
    // The true length with the last chunk missing: the stream ends early.
    assertThatThrownBy(() -> open(cut, key, 0, plain.length, 0, plain.length))
        .isInstanceOf(TamperedDataException.class);
  }

  @Test
  void open_whenAnotherStreamOrKey_fails() throws IOException {
    byte[] plain = new byte[100];
    DataKey key = DataKey.generate();
    byte[] sealed = seal(plain, key, 1);
    assertThatThrownBy(() -> open(sealed, key, 2, 100, 0, 100))
        .isInstanceOf(TamperedDataException.class);
    assertThatThrownBy(() -> open(sealed, DataKey.generate(), 1, 100, 0, 100))
        .isInstanceOf(TamperedDataException.class);
  }

  @Test
  void seal_whenPlaintextShorterOrLongerThanDeclared_fails() {
    DataKey key = DataKey.generate();
    assertThatThrownBy(
            () ->
                new SealingInputStream(new ByteArrayInputStream(new byte[10]), 11, key.sealer(0))
                    .readAllBytes())
        .isInstanceOf(IOException.class)
        .hasMessageContaining("ended after 10");
    assertThatThrownBy(
            () ->
                new SealingInputStream(new ByteArrayInputStream(new byte[12]), 11, key.sealer(0))
                    .readAllBytes())
        .isInstanceOf(IOException.class)
        .hasMessageContaining("longer");
  }

  @Test
  void open_whenTheInputLendsRunsOfAnyLength_returnsExactlyTheRangesBytes() throws IOException {
    long seed = TestSeed.get();
    Random random = new Random(seed);
    int size = 5 * C + 333;
    byte[] plain = SeededBytes.bytes(random.nextLong(), size);
    DataKey key = DataKey.generate();
    byte[] sealed = seal(plain, key, 3);
    for (int i = 0; i < 200; i++) {
      int off = random.nextInt(size + 1);
      int len = random.nextInt(size - off + 1);
      // Runs from a byte to two chunks: chunks that lie whole in a run, and chunks across runs.
      int maxRun = 1 + random.nextInt(2 * SealedLayout.SEALED_CHUNK_BYTES);
      SealedLayout.Span span = SealedLayout.span(off, len, size);
      Lent in = new Lent(sealed, (int) span.sealedOffset(), maxRun, random.nextLong());
      try (InputStream opened = new OpeningInputStream(in, key.sealer(3), span, size, len)) {
        assertThat(readAll(opened, READ_SIZES[i % READ_SIZES.length]))
            .as("range [%d, +%d), runs up to %d bytes (seed %d)", off, len, maxRun, seed)
            .isEqualTo(Arrays.copyOfRange(plain, off, off + len));
      }
    }
  }

  @Test
  void open_whenEveryChunkIsLentWhole_opensEachInPlaceAndCopiesNone() throws IOException {
    byte[] plain = SeededBytes.bytes(TestSeed.get(), 4 * C + 5);
    DataKey key = DataKey.generate();
    byte[] sealed = seal(plain, key, 0);
    SealedLayout.Span span = SealedLayout.span(0, plain.length, plain.length);
    for (int readSize : new int[] {1000, C}) {
      Lent in = new Lent(sealed, 0, SealedLayout.SEALED_CHUNK_BYTES, -1);
      try (InputStream opened =
          new OpeningInputStream(in, key.sealer(0), span, plain.length, plain.length)) {
        assertThat(readAll(opened, readSize)).isEqualTo(plain);
      }
      assertThat(in.lentBytes).as("read %d at a time", readSize).isEqualTo(sealed.length);
      assertThat(in.readBytes).as("read %d at a time", readSize).isZero();
    }
  }

  @Test
  void open_whenALentChunkIsAltered_failsBeforeHandingOutAByteOfIt() throws IOException {
    long seed = TestSeed.get();
    Random random = new Random(seed);
    int size = 3 * C + 10;
    byte[] plain = SeededBytes.bytes(random.nextLong(), size);
    DataKey key = DataKey.generate();
    byte[] sealed = seal(plain, key, 0);
    SealedLayout.Span span = SealedLayout.span(0, size, size);
    for (int i = 0; i < 20; i++) {
      byte[] altered = sealed.clone();
      int at = random.nextInt(altered.length);
      altered[at] ^= (byte) (1 + random.nextInt(255));
      int chunk = at / SealedLayout.SEALED_CHUNK_BYTES;
      int maxRun = i % 2 == 0 ? SealedLayout.SEALED_CHUNK_BYTES : 10_000;
      Lent in = new Lent(altered, 0, maxRun, random.nextLong());
      ByteArrayOutputStream got = new ByteArrayOutputStream();
      byte[] buffer = new byte[i % 4 < 2 ? C : 1000];
      assertThatThrownBy(
              () -> {
                try (InputStream opened =
                    new OpeningInputStream(in, key.sealer(0), span, size, size)) {
                  for (int n; (n = opened.read(buffer)) >= 0; ) {
                    got.write(buffer, 0, n);
                  }
                }
              })
          .as("byte %d flipped, runs up to %d (seed %d)", at, maxRun, seed)
          .isInstanceOf(TamperedDataException.class);
      assertThat(got.toByteArray()).isEqualTo(Arrays.copyOf(plain, chunk * C));
    }
  }

  /**
   * Bytes lent in runs up to {@code maxRun} long (of random lengths from {@code seed}, or all of
   * {@code maxRun} when the seed is -1), each in an array of its own at an offset, as a part reader
   * lends its pieces; read() takes from the same runs.
   */
  private static final class Lent extends InputStream implements LendingInput {
    private final byte[] bytes;
    private final int maxRun;
    private final Random runs;
    private int position;
    private int runLeft;
    private byte[] lentArray;
    private int lentOffset;
    long lentBytes;
    long readBytes;

    Lent(byte[] bytes, int from, int maxRun, long seed) {
      this.bytes = bytes;
      this.position = from;
      this.maxRun = maxRun;
      this.runs = seed == -1 ? null : new Random(seed);
    }

    private int take(int max) {
      if (position == bytes.length || max <= 0) {
        return 0;
      }
      if (runLeft == 0) {
        runLeft = runs == null ? maxRun : 1 + runs.nextInt(maxRun);
      }
      return Math.min(max, Math.min(runLeft, bytes.length - position));
    }

    @Override
    public int lend(int max) {
      int n = take(max);
      lentArray = new byte[n + 7];
      lentOffset = 5;
      System.arraycopy(bytes, position, lentArray, lentOffset, n);
      position += n;
      runLeft -= n;
      lentBytes += n;
      return n;
    }

    @Override
    public byte[] lentArray() {
      return lentArray;
    }

    @Override
    public int lentOffset() {
      return lentOffset;
    }

    @Override
    public int read() {
      byte[] one = new byte[1];
      return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
    }

    @Override
    public int read(byte[] b, int off, int len) {
      if (len == 0) {
        return 0;
      }
      int n = take(len);
      if (n == 0) {
        return -1;
      }
      System.arraycopy(bytes, position, b, off, n);
      position += n;
      runLeft -= n;
      readBytes += n;
      return n;
    }
  }

  static int indexOf(byte[] haystack, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= haystack.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }
}
