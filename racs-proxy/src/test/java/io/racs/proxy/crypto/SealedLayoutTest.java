package io.racs.proxy.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The chunk arithmetic: lengths round-trip, and a range maps to exactly the chunks it touches. */
class SealedLayoutTest {
  private static final int C = SealedLayout.CHUNK_BYTES;
  private static final int T = SealedLayout.TAG_BYTES;

  @Test
  void sealedLength_whenEmptyOrAtChunkBoundaries_countsOneTagPerChunkAndOneForEmpty() {
    assertThat(SealedLayout.sealedLength(0)).isEqualTo(T);
    assertThat(SealedLayout.sealedLength(1)).isEqualTo(1 + T);
    assertThat(SealedLayout.sealedLength(C)).isEqualTo(C + T);
    assertThat(SealedLayout.sealedLength(C + 1)).isEqualTo(C + 1 + 2 * T);
    assertThat(SealedLayout.sealedLength(5L * 1024 * 1024 + 1))
        .isEqualTo(5L * 1024 * 1024 + 1 + 81 * T);
  }

  @Test
  void plainLength_whenGivenEverySealedLength_invertsSealedLengthOrRefuses() {
    for (long p : new long[] {0, 1, 15, 16, 17, C - 1, C, C + 1, 2L * C, 3L * C + 5}) {
      assertThat(SealedLayout.plainLength(SealedLayout.sealedLength(p)))
          .as("plain %d", p)
          .isEqualTo(p);
    }
    // A sealed length that leaves less than a tag after the full chunks stands for no plaintext.
    assertThatThrownBy(() -> SealedLayout.plainLength(C + T + 5))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> SealedLayout.plainLength(0))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void span_whenRangeCrossesOneBoundary_readsTheTwoChunksAndSkipsIntoTheFirst() {
    long plain = 3L * C + 100;
    SealedLayout.Span s = SealedLayout.span(C + 10, C, plain);
    assertThat(s.firstChunk()).isEqualTo(1);
    assertThat(s.chunks()).isEqualTo(2);
    assertThat(s.totalChunks()).isEqualTo(4);
    assertThat(s.sealedOffset()).isEqualTo(C + T);
    assertThat(s.sealedLength()).isEqualTo(2L * (C + T));
    assertThat(s.skipBytes()).isEqualTo(10);
  }

  @Test
  void span_whenRangeEndsInTheShortLastChunk_endsAtTheSealedEnd() {
    long plain = 2L * C + 100;
    SealedLayout.Span s = SealedLayout.span(2L * C + 50, 50, plain);
    assertThat(s.firstChunk()).isEqualTo(2);
    assertThat(s.chunks()).isEqualTo(1);
    assertThat(s.sealedOffset() + s.sealedLength()).isEqualTo(SealedLayout.sealedLength(plain));
  }

  @Test
  void span_whenEmptyObject_readsItsOneChunk() {
    SealedLayout.Span s = SealedLayout.span(0, 0, 0);
    assertThat(s.chunks()).isEqualTo(1);
    assertThat(s.sealedLength()).isEqualTo(T);
  }

  @Test
  void span_whenRangeOutsideThePlaintext_refuses() {
    assertThatThrownBy(() -> SealedLayout.span(5, 10, 10))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> SealedLayout.span(-1, 1, 10))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
