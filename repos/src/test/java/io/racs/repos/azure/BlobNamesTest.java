package io.racs.repos.azure;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.repos.KeyCodec;
import io.racs.repos.Keys;
import io.racs.testkit.TestSeed;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Proves the Azure blob names round-trip every key, hold no character of U+E000..U+FFFF, and sort
 * in key order under both UTF-8 and UTF-16 comparison (Azurite compares UTF-16), on seeded random
 * keys drawn around the boundaries where the two orders differ.
 */
class BlobNamesTest {
  private static final int[] ALPHABET = {
    'a', 'Z', '0', '/', '.', '%', '!', '~', 0x7f, 0xe9, 0xd7ff, 0xe000, 0xe001, 0xfeff, 0xfffd,
    0xfffe, 0xffff, 0x10000, 0x10001, 0x1f600, 0x10ffff
  };

  private final BlobNames names = new BlobNames("test", "pre.fix/");

  private static String randomKey(Random random) {
    StringBuilder key = new StringBuilder();
    int length = 1 + random.nextInt(8);
    for (int i = 0; i < length; i++) {
      key.appendCodePoint(ALPHABET[random.nextInt(ALPHABET.length)]);
    }
    return key.toString();
  }

  @Test
  void of_whenRandomKeys_roundTripsAndPreservesOrderUnderUtf8AndUtf16() {
    Random random = new Random(TestSeed.get());
    for (int i = 0; i < 20_000; i++) {
      String a = randomKey(random);
      String b = randomKey(random);
      String na = names.of(a);
      String nb = names.of(b);
      assertThat(names.keyOf(na)).as(a).isEqualTo(Optional.of(a));
      assertThat(na.codePoints()).as(a).noneMatch(cp -> cp >= 0xe000 && cp <= 0xffff);
      int keyOrder = Integer.signum(Keys.compare(a, b));
      assertThat(Integer.signum(Keys.compare(na, nb))).as(a + " vs " + b).isEqualTo(keyOrder);
      assertThat(Integer.signum(na.compareTo(nb))).as(a + " vs " + b).isEqualTo(keyOrder);
    }
  }

  @Test
  void keyOf_whenForeignNames_empty() {
    assertThat(names.keyOf("other/x!")).isEmpty();
    assertThat(names.keyOf("pre.fix/\uFFFD!")).isEmpty();
    assertThat(names.keyOf("pre.fix/\uD800\uDC00zz!")).isEmpty();
    assertThat(names.keyOf("pre.fix/\uD800\uDC00e000!")).isEmpty();
  }

  @Test
  void accepts_whenTooManySegmentsOrCharacters_false() {
    assertThat(names.accepts("a/".repeat(200))).isTrue();
    assertThat(names.accepts("a/".repeat(260))).isFalse();
    // Each U+FFFD becomes U+10000 (two UTF-16 units) and four hex digits: 6 characters, so 200
    // of them (600 bytes as a key) do not fit in 1024 characters.
    assertThat(names.accepts("\uFFFD".repeat(160))).isTrue();
    assertThat(names.accepts("\uFFFD".repeat(200))).isFalse();
    assertThat(KeyCodec.encode("x")).isEqualTo("x!");
  }
}
