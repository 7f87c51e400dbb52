package io.racs.bench.object.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.InputStream;
import java.util.EnumMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Proves the workload's parts do what their options promise: exact mixes per deck, content that is
 * the same from any offset, sizes and ranges within bounds, skewed key choice, and one-line
 * messages for bad input.
 */
class WorkloadPartsTest {
  @Test
  void deck_whenMixParsed_realisesTheRatiosExactlyPerDeck() {
    Mix mix = Mix.parse("get=60,put=30,delete=10");
    assertThat(mix.toString()).isEqualTo("put=3,get=6,delete=1");
    Mix.Deck deck = mix.deck(7);
    for (int round = 0; round < 5; round++) {
      Map<Op, Integer> counts = new EnumMap<>(Op.class);
      for (int i = 0; i < deck.size(); i++) {
        counts.merge(deck.next(), 1, Integer::sum);
      }
      assertThat(counts).containsEntry(Op.GET, 6).containsEntry(Op.PUT, 3);
      assertThat(counts).containsEntry(Op.DELETE, 1);
    }
  }

  @Test
  void parse_whenMixBad_failsWithOneLine() {
    assertThatThrownBy(() -> Mix.parse("get=0"))
        .hasMessage("mix weight of get: 0 (expected: 1 to 1000000)");
    assertThatThrownBy(() -> Mix.parse("fetch=1"))
        .hasMessage("operation: fetch (expected: put, get, head, list, delete or mixed)");
  }

  @Test
  void stream_whenReadFromAnyOffset_matchesByteAt() throws Exception {
    long seed = Content.seed(1, "k", 3);
    byte[] whole;
    try (InputStream in = Content.stream(seed, 1000)) {
      whole = in.readAllBytes();
    }
    assertThat(whole).hasSize(1000);
    for (int offset : new int[] {0, 1, 7, 8, 13, 999}) {
      byte[] part = new byte[1000 - offset];
      Content.fill(seed, offset, part, 0, part.length);
      for (int i = 0; i < part.length; i++) {
        assertThat(part[i]).isEqualTo(whole[offset + i]);
      }
      assertThat(Content.byteAt(seed, offset)).isEqualTo(whole[offset]);
    }
    assertThat(Content.seed(1, "k", 4)).isNotEqualTo(seed);
  }

  @Test
  void fill_whenAnyOffsetLengthAndDestination_matchesByteAtAndThePinnedContent() {
    long seed = Content.seed(7, "key", 2);
    for (long offset = 0; offset < 24; offset++) {
      for (int length = 0; length < 40; length++) {
        byte[] buffer = new byte[length + 6];
        Content.fill(seed, offset, buffer, 3, length);
        for (int i = 0; i < length; i++) {
          assertThat(buffer[3 + i])
              .as("offset %d length %d byte %d", offset, length, i)
              .isEqualTo(Content.byteAt(seed, offset + i));
        }
        assertThat(buffer[0]).isZero();
        assertThat(buffer[3 + length]).isZero();
      }
    }
    // Objects written by one version are verified by another, on another host: the bytes are
    // part of the format. These CRC32C values pin them.
    long pinned = Content.seed(1, "k", 3);
    assertThat(Content.crc(pinned, 0, 1 << 20)).isEqualTo(0x53e0b529L);
    assertThat(Content.crc(pinned, 13, 100_003)).isEqualTo(0x71b54c6fL);
  }

  @Test
  void sizeOf_whenUniform_staysInBoundsAndIsDeterministic() {
    SizeSpec s = SizeSpec.parse("uniform:4KiB-8KiB");
    for (int v = 1; v < 1000; v++) {
      long size = s.sizeOf(9, "key", v);
      assertThat(size).isBetween(4096L, 8192L);
      assertThat(s.sizeOf(9, "key", v)).isEqualTo(size);
    }
    assertThat(SizeSpec.parseList("4KiB,1MiB"))
        .extracting(SizeSpec::a)
        .containsExactly(4096L, 1L << 20);
    assertThatThrownBy(() -> SizeSpec.parseList("4KB"))
        .hasMessageStartingWith("sizes: 4KB (expected: sizes such as 4KiB,1MiB");
  }

  @Test
  void sizeOf_whenLognormal_hasTheMedian() {
    SizeSpec s = SizeSpec.parse("lognormal:64KiB:0.5");
    long below = 0;
    for (int v = 1; v <= 10_000; v++) {
      below += s.sizeOf(3, "k" + v, v) < 65536 ? 1 : 0;
    }
    assertThat(below / 10_000.0).isCloseTo(0.5, within(0.03));
  }

  @Test
  void pick_whenRanges_areClippedToTheObject() {
    SplittableRandom random = new SplittableRandom(1);
    assertThat(RangeSpec.parse("0-1023").pick(4096, random)).containsExactly(0, 1024);
    assertThat(RangeSpec.parse("4000-5000").pick(4096, random)).containsExactly(4000, 96);
    for (int i = 0; i < 1000; i++) {
      long[] r = RangeSpec.parse("random").pick(4096, random);
      assertThat(r[0] + r[1]).isLessThanOrEqualTo(4096);
      assertThat(r[1]).isPositive();
      long[] f = RangeSpec.parse("random:100").pick(4096, random);
      assertThat(f[1]).isEqualTo(100);
    }
    assertThatThrownBy(() -> RangeSpec.parse("9-1"))
        .hasMessage("range: 9-1 (expected: FIRST-LAST such as 0-1023, random:LENGTH, or random)");
  }

  @Test
  void chooser_whenHotSet_sendsTheRequestedShareToIt() {
    KeyDistribution.Chooser hot = KeyDistribution.parse("hot:10/90").chooser(100, 5);
    int inHot = 0;
    for (int i = 0; i < 100_000; i++) {
      inHot += hot.next() < 10 ? 1 : 0;
    }
    assertThat(inHot / 100_000.0).isCloseTo(0.9, within(0.01));
    KeyDistribution.Chooser zipf = KeyDistribution.parse("zipf").chooser(100, 5);
    int first = 0;
    for (int i = 0; i < 100_000; i++) {
      first += zipf.next() == 0 ? 1 : 0;
    }
    // 1 / H(100) = 1 / 5.18738 = 0.19277.
    assertThat(first / 100_000.0).isCloseTo(0.1928, within(0.01));
  }
}
