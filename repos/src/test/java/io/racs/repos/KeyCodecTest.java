package io.racs.repos;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Proves the safe-name codec is injective, order-preserving and safe: on seeded random keys built
 * from the characters that matter (separators, dots, escape leads, markers, controls, non-ASCII,
 * long runs), encoded names sort exactly as keys do, decode back, match prefixes exactly when keys
 * do, and consist of components of 1 to 250 bytes that never start with a dot.
 */
class KeyCodecTest {
  private static final long SEED = 20260104L;
  private static final String[] ALPHABET = {
    "/",
    "/",
    "/",
    ".",
    "..",
    "-",
    "@",
    "+",
    "!",
    "%",
    "=",
    "_",
    "~",
    "0",
    "9",
    "A",
    "Z",
    "a",
    "z",
    "\u0000",
    "\u001f",
    " ",
    "\u007f",
    "\u0080",
    "é",
    "\uFFFD",
    "\uE000",
    "\uD83D\uDE00",
    "x",
    "y"
  };
  private static final Comparator<String> UTF8_BYTES =
      (a, b) -> Arrays.compareUnsigned(a.getBytes(UTF_8), b.getBytes(UTF_8));

  @Test
  void encode_whenRandomKeys_preservesOrderAndRoundTrips() {
    Random random = new Random(SEED);
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      keys.add(randomKey(random));
    }
    for (String key : keys) {
      String name = KeyCodec.encode(key);
      assertThat(KeyCodec.decode(name))
          .as("seed %d key %s", SEED, Keys.abbreviate(key))
          .hasValue(key);
      for (String component : name.split("/", -1)) {
        assertThat(component).isNotEmpty().doesNotStartWith(".");
        assertThat(component.getBytes(UTF_8).length).isLessThanOrEqualTo(250);
      }
    }
    List<String> byKey = keys.stream().distinct().sorted(UTF8_BYTES).toList();
    List<String> byName =
        keys.stream()
            .distinct()
            .sorted(Comparator.comparing(KeyCodec::encode, UTF8_BYTES))
            .toList();
    assertThat(byName).as("seed %d", SEED).isEqualTo(byKey);
  }

  @Test
  void compare_whenRandomPairs_ordersAsUtf8Bytes() {
    // Pairs that share a random head, so that they differ anywhere, also right after a surrogate
    // pair or at a char above U+E000 meeting one.
    Random random = new Random(SEED + 2);
    for (int i = 0; i < 50_000; i++) {
      String head = random.nextInt(3) == 0 ? "" : randomKey(random);
      String a = head + randomKey(random);
      String b = head + randomKey(random);
      assertThat(Integer.signum(Keys.compare(a, b)))
          .as("seed %d: %s vs %s", SEED + 2, Keys.abbreviate(a), Keys.abbreviate(b))
          .isEqualTo(Integer.signum(UTF8_BYTES.compare(a, b)));
      assertThat(Keys.compare(a, a)).isZero();
    }
  }

  @Test
  void encodePrefix_whenRandomPairs_matchesExactlyWhenKeyHasPrefix() {
    Random random = new Random(SEED + 1);
    int matches = 0;
    for (int i = 0; i < 50_000; i++) {
      String key = randomKey(random);
      String prefix;
      if (random.nextBoolean()) {
        // A true prefix, cut at a code point boundary.
        int[] cps = key.codePoints().toArray();
        int cut = random.nextInt(cps.length + 1);
        prefix = new String(cps, 0, cut);
      } else {
        prefix = Character.toString(randomKey(random).codePointAt(0));
      }
      boolean expected = key.startsWith(prefix);
      matches += expected ? 1 : 0;
      assertThat(KeyCodec.encode(key).startsWith(KeyCodec.encodePrefix(prefix)))
          .as("seed %d key %s prefix %s", SEED + 1, Keys.abbreviate(key), Keys.abbreviate(prefix))
          .isEqualTo(expected);
    }
    assertThat(matches).isGreaterThan(20_000);
  }

  @Test
  void encode_whenOrdinaryKey_keepsItReadable() {
    assertThat(KeyCodec.encode("photos/2026/cat")).isEqualTo("photos/2026/cat!");
    assertThat(KeyCodec.encode("a.b")).isEqualTo("a%2Eb!");
    assertThat(KeyCodec.encode("..")).isEqualTo("%2E%2E!");
    assertThat(KeyCodec.encode("a//b/")).isEqualTo("a/+/b/!");
    assertThat(KeyCodec.encode("/")).isEqualTo("+/!");
    assertThat(KeyCodec.encode("é")).isEqualTo("é!");
    assertThat(KeyCodec.encode("x".repeat(63) + "-")).isEqualTo("x".repeat(62) + "@/x%2D!");
    assertThat(KeyCodec.encode("x".repeat(62) + "-")).isEqualTo("x".repeat(62) + "-/%2D!");
    assertThat(KeyCodec.encodePrefix("a/")).isEqualTo("a/");
  }

  @Test
  void encode_whenRandomKeys_noNameIsADirectoryOfAnother() {
    Random random = new Random(SEED + 2);
    for (int i = 0; i < 20_000; i++) {
      String name = KeyCodec.encode(randomKey(random));
      assertThat(name).endsWith("!");
      assertThat(name.substring(0, name.length() - 1)).doesNotContain("!");
    }
  }

  @Test
  void decode_whenNotCanonical_isEmpty() {
    for (String name :
        List.of(
            "", "/", ".", "..", "a/", "!/a", "a/!/b", "+", "a%2", "a%2e", "a%41", "a b", "a.b",
            "x-", "x@/y", "a//b", "%FF")) {
      assertThat(KeyCodec.decode(name)).as("name %s", name).isEmpty();
    }
  }

  private static String randomKey(Random random) {
    StringBuilder key = new StringBuilder();
    int parts = 1 + random.nextInt(random.nextInt(10) == 0 ? 200 : 8);
    for (int i = 0; i < parts; i++) {
      String piece = ALPHABET[random.nextInt(ALPHABET.length)];
      if (random.nextInt(20) == 0) {
        piece = piece.repeat(40 + random.nextInt(60));
      }
      key.append(piece);
    }
    while (key.toString().getBytes(UTF_8).length > Keys.MAX_KEY_BYTES) {
      key.setLength(key.length() - 1);
      if (Character.isHighSurrogate(key.charAt(key.length() - 1))) {
        key.setLength(key.length() - 1);
      }
    }
    return key.toString();
  }
}
