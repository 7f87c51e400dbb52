package io.racs.repos;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.testkit.SeededBytes;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The part of the {@link Repository} contract on keys: listings come back in exact UTF-8 binary
 * order with prefixes, pages and start-after, awkward keys round-trip and stay distinct (or are
 * refused up front, as the backend documents), and an invalid key fails every method.
 */
public abstract class RepositoryKeyContract extends RepositoryBodyContract {
  // ---- listing -----------------------------------------------------------------------------

  /** Keys whose UTF-8 order differs from naive orders (UTF-16, '/' as a separator, case). */
  protected static final List<String> ORDER_KEYS =
      List.of(
          "a",
          "a/",
          "a/b",
          "a/b/c",
          "a-b",
          "a.b",
          "a0",
          "a//b",
          "a/-",
          "a%",
          "A",
          "b",
          "é",
          "\u0001",
          "~",
          "\u007f",
          "\uFFFD",
          "\uD83D\uDE00",
          "\uD83D\uDE00/x",
          "\uE000",
          "zz",
          "z/z",
          "z");

  @Test
  void list_whenAll_returnsExactUtf8BinaryOrder() {
    putAll(ORDER_KEYS);
    assertThat(keys(repository.list("", "", Repository.MAX_LIST_PAGE)))
        .containsExactlyElementsOf(utf8Sorted(ORDER_KEYS));
  }

  @Test
  void list_whenPaged_concatenatesToFullListing() {
    putAll(ORDER_KEYS);
    for (int pageSize : new int[] {1, 2, 3, 5, ORDER_KEYS.size(), ORDER_KEYS.size() + 1}) {
      List<String> seen = new ArrayList<>();
      String startAfter = "";
      int pages = 0;
      while (true) {
        ListPage page = repository.list("", startAfter, pageSize);
        assertThat(page.objects().size()).isLessThanOrEqualTo(pageSize);
        seen.addAll(keys(page));
        pages++;
        if (!page.truncated()) {
          break;
        }
        startAfter = page.nextStartAfter().orElseThrow();
        assertThat(pages).as("page size %d", pageSize).isLessThan(100);
      }
      assertThat(seen)
          .as("page size %d", pageSize)
          .containsExactlyElementsOf(utf8Sorted(ORDER_KEYS));
    }
  }

  @Test
  void list_whenPrefixAndStartAfter_matchesFilteredOrder() {
    putAll(ORDER_KEYS);
    List<String> prefixes =
        List.of("", "a", "a/", "a/b", "a/b/", "a-", "z", "zz", "b", "é", "\uD83D", "nothing", "/");
    List<String> starts =
        List.of("", "a", "a/", "a.", "a/b", "a0", "b", "\uFFFF", "zzz", "\uD83D\uDE00");
    for (String prefix : prefixes) {
      if (!isWellFormed(prefix)) {
        assertThatThrownBy(() -> repository.list(prefix, "", 10))
            .isInstanceOf(IllegalArgumentException.class);
        continue;
      }
      for (String startAfter : starts) {
        List<String> expected =
            utf8Sorted(ORDER_KEYS).stream()
                .filter(k -> k.startsWith(prefix) && Keys.compare(k, startAfter) > 0)
                .toList();
        List<String> actual = new ArrayList<>();
        Iterator<ObjectInfo> it = listAll(prefix, startAfter, 2);
        it.forEachRemaining(o -> actual.add(o.key()));
        assertThat(actual)
            .as("prefix %s startAfter %s", Keys.abbreviate(prefix), Keys.abbreviate(startAfter))
            .containsExactlyElementsOf(expected);
      }
    }
  }

  @Test
  void list_whenEmpty_returnsEmptyLastPage() {
    ListPage page = repository.list("", "", 10);
    assertThat(page.objects()).isEmpty();
    assertThat(page.truncated()).isFalse();
    assertThat(page.nextStartAfter()).isEmpty();
  }

  @Test
  void list_reportsSizes() {
    repository.put("s/one", new ByteArrayInputStream(new byte[1]), 1);
    repository.put("s/three", new ByteArrayInputStream(new byte[3]), 3);
    List<ObjectInfo> objects = repository.list("s/", "", 10).objects();
    assertThat(objects).extracting(ObjectInfo::sizeBytes).containsExactly(1L, 3L);
  }

  // ---- keys --------------------------------------------------------------------------------

  /** Keys that break naive mappings onto file systems and URLs; all fit within S3's limit. */
  protected static List<String> awkwardKeys() {
    List<String> keys =
        new ArrayList<>(
            List.of(
                "..",
                ".",
                "...",
                "a/../b",
                "../../etc/passwd",
                "./x",
                "a/./b",
                "//",
                "/",
                "a//b",
                "/a",
                "a/",
                "a/b/",
                "%",
                "%2F",
                "a%2Fb",
                "%25",
                "\u0000",
                "\u0001\u001f",
                "\t\n\r",
                "\u007f",
                "\u0085",
                " ",
                " .. ",
                "a b",
                "+",
                "!",
                "-",
                "@",
                "~",
                "=",
                "_",
                "#?&",
                "\\",
                "C:\\x",
                "日本語/キー",
                "\uD83D\uDE00",
                "e\u0301",
                "\u00e9",
                "NUL",
                "con",
                ".racs-tmp-123",
                "x.obj",
                "x.obj/y",
                "\uFEFF",
                "\u202E"));
    keys.add("x".repeat(300));
    keys.add("y".repeat(300) + "/" + "z".repeat(256));
    keys.add("é".repeat(200));
    keys.add("long/" + "x".repeat(62));
    keys.add("long/" + "x".repeat(63));
    keys.add("long/" + "x".repeat(124));
    keys.add("long/" + "x".repeat(124) + "-");
    keys.add("long/" + "x".repeat(124) + "/");
    // The longest plain key every backend holds: 1023 bytes, because an escaping backend adds a
    // terminator. 1024-byte keys are in awkwardMaxLengthKeys().
    StringBuilder plain = new StringBuilder();
    while (plain.length() < Keys.MAX_KEY_BYTES) {
      plain.append("k".repeat(61)).append('/');
    }
    plain.setLength(Keys.MAX_KEY_BYTES - 2);
    plain.append('q');
    keys.add(plain.toString());
    return keys;
  }

  /** Valid 1024-byte keys, most of which expand when escaped. */
  protected static List<String> awkwardMaxLengthKeys() {
    return List.of(
        "k".repeat(61) + "/" + "k".repeat(962),
        "x".repeat(1024),
        "/".repeat(1024),
        ".".repeat(1024),
        "%".repeat(1024),
        "\u0001".repeat(1024),
        "é".repeat(512),
        "\uD83D\uDE00".repeat(256),
        "a/".repeat(512),
        "..".repeat(511) + "/.");
  }

  @Test
  void put_whenAwkwardKeys_eachRoundTripsAndListsInOrder() throws IOException {
    List<String> keys = awkwardKeys();
    assertThat(new HashSet<>(keys)).hasSameSizeAs(keys);
    for (String key : keys) {
      assertThat(key.getBytes(UTF_8).length).isLessThanOrEqualTo(Keys.MAX_KEY_BYTES);
      assertThat(repository.accepts(key)).as("key %s", Keys.abbreviate(key)).isTrue();
      byte[] body = key.getBytes(UTF_8);
      repository.put(key, new ByteArrayInputStream(body), body.length);
    }
    for (String key : keys) {
      assertThat(read(key)).as("key %s", Keys.abbreviate(key)).isEqualTo(key.getBytes(UTF_8));
      assertThat(repository.head(key)).as("key %s", Keys.abbreviate(key)).isPresent();
    }
    assertThat(listAllKeys("")).containsExactlyElementsOf(utf8Sorted(keys));
    for (String key : keys) {
      repository.delete(key);
    }
    assertThat(repository.list("", "", 10).objects()).isEmpty();
  }

  @Test
  void put_whenMaxLengthAwkwardKeys_roundTripOrAreRefusedUpFront() throws IOException {
    List<String> keys = awkwardMaxLengthKeys();
    List<String> held = new ArrayList<>();
    for (String key : keys) {
      String shown = Keys.abbreviate(key);
      assertThat(key.getBytes(UTF_8).length).as("key %s", shown).isEqualTo(1024);
      assertThat(repository.accepts(key)).as("accepts(%s)", shown).isEqualTo(!mustRefuse(key));
      if (mustRefuse(key)) {
        assertRefused(key);
      } else {
        byte[] body = SeededBytes.bytes(key.hashCode(), 3);
        repository.put(key, new ByteArrayInputStream(body), body.length);
        assertThat(read(key)).as("key %s", shown).isEqualTo(body);
        held.add(key);
      }
    }
    // The refused keys left nothing behind, and did not disturb the keys that were held.
    assertThat(listAllKeys("")).containsExactlyElementsOf(utf8Sorted(held));
    for (String key : held) {
      assertThat(repository.head(key)).as("key %s", Keys.abbreviate(key)).isPresent();
      repository.delete(key);
    }
    assertThat(repository.list("", "", 10).objects()).isEmpty();
  }

  /**
   * Every method that takes a key fails on {@code key} with an argument error that names the key,
   * and a put does so before reading any of its body.
   */
  private void assertRefused(String key) {
    String shown = Keys.abbreviate(key);
    ByteArrayInputStream body = new ByteArrayInputStream(new byte[] {1, 2, 3});
    List<ThrowingCall> calls =
        List.of(
            () -> repository.put(key, body, 3),
            () -> repository.put(key, body, -1),
            () -> repository.get(key),
            () -> repository.get(key, 1, 1),
            () -> repository.head(key),
            () -> repository.delete(key),
            () -> repository.discard(key));
    for (int i = 0; i < calls.size(); i++) {
      assertThatThrownBy(calls.get(i)::call)
          .as("call %d with refused key %s", i, shown)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("key: ")
          .hasMessageContaining("(expected: ");
    }
    assertThat(body.available()).as("body bytes left unread by refused puts").isEqualTo(3);
  }

  /** A repository call, for checking that each of several fails the same way. */
  @FunctionalInterface
  private interface ThrowingCall {
    void call() throws Exception;
  }

  @Test
  void everyMethod_whenKeyInvalid_throwsIllegalArgument() {
    List<String> invalid = List.of("", "x".repeat(1025), "é".repeat(513), "\uD800", "a\uDC00b");
    for (String key : invalid) {
      assertThatThrownBy(() -> repository.put(key, new ByteArrayInputStream(new byte[0]), 0))
          .isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> repository.get(key)).isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> repository.head(key)).isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> repository.delete(key)).isInstanceOf(IllegalArgumentException.class);
    }
    assertThatThrownBy(() -> repository.put(null, new ByteArrayInputStream(new byte[0]), 0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> repository.list("", "", 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxKeys: 0 (expected: 1 to 1000)");
    assertThatThrownBy(() -> repository.get("k", -1, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("offset: -1");
    assertThatThrownBy(() -> repository.put("k", new ByteArrayInputStream(new byte[0]), -2))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("lengthBytes: -2");
  }

  private Iterator<ObjectInfo> listAll(String prefix, String startAfter, int pageSize) {
    List<ObjectInfo> all = new ArrayList<>();
    String after = startAfter;
    while (true) {
      ListPage page = repository.list(prefix, after, pageSize);
      all.addAll(page.objects());
      if (!page.truncated()) {
        return all.iterator();
      }
      after = page.nextStartAfter().orElseThrow();
    }
  }

  private static boolean isWellFormed(String s) {
    try {
      Keys.utf8Length(s, "s");
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }
}
