package io.racs.repos;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.repos.RepositoryException.Kind;
import io.racs.testkit.SeededBytes;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The {@link Repository} contract, run against every backend: bodies of every size round-trip
 * byte-exact (large ones streamed and compared by digest), ranges clip at every boundary, listings
 * come back in exact UTF-8 binary order with prefixes, pages and start-after, overwrites and
 * deletes behave as S3's do, awkward keys round-trip and stay distinct, and concurrent writers of
 * one key leave one whole body, never a mix.
 *
 * <p>A backend's test extends this class and supplies {@link #createRepository()}, a fresh empty
 * repository per test, which this class closes, and {@link #loseStorage()}, which takes the storage
 * away from under it: every call must then fail with {@code UNAVAILABLE}, never answer "no such
 * object" or an empty listing.
 */
public abstract class RepositoryContract {
  /** The seed of this run's data; printed by failing assertions. */
  protected static final long SEED = 0x5EED_0004L;

  /** The repository under test, fresh for each test. */
  protected Repository repository;

  /** Returns a new, empty repository. */
  protected abstract Repository createRepository() throws Exception;

  /**
   * Takes the storage of {@link #repository} away as an outage or an operator's mistake would (a
   * root directory removed, a bucket deleted), keeping the repository object open. Returns false,
   * changing nothing, when the backend has no storage outside the repository object that could go
   * missing (memory): the contract's storage-loss test then reports itself skipped.
   */
  protected abstract boolean loseStorage() throws Exception;

  /**
   * Whether the backend must refuse {@code key}, a valid key that its provider cannot hold, by the
   * rule the backend documents (see {@link Repository}: "A backend may also refuse ... a valid key
   * that its provider cannot hold"). The default, false, is for a backend that holds every valid
   * key. The contract checks that {@link Repository#accepts} says exactly this, that every refused
   * key fails every method given it with {@link IllegalArgumentException} before its body is read
   * and stores nothing, and that every other key round-trips.
   */
  protected boolean mustRefuse(String key) {
    return false;
  }

  @BeforeEach
  final void openRepository() throws Exception {
    repository = createRepository();
  }

  @AfterEach
  final void closeRepository() {
    if (repository != null) {
      repository.close();
    }
  }

  // ---- round trips -------------------------------------------------------------------------

  static Stream<Integer> smallSizes() {
    return Stream.of(0, 1, 2, 1000, 1024 * 1024);
  }

  @ParameterizedTest(name = "{0} bytes")
  @MethodSource("smallSizes")
  void put_whenLengthKnown_getReturnsSameBytes(int size) throws IOException {
    byte[] body = SeededBytes.bytes(SEED + size, size);
    ObjectInfo stored = repository.put("round/known", new ByteArrayInputStream(body), size);
    assertThat(stored.key()).isEqualTo("round/known");
    assertThat(stored.sizeBytes()).isEqualTo(size);
    assertThat(read("round/known")).as("seed %d", SEED + size).isEqualTo(body);
  }

  @ParameterizedTest(name = "{0} bytes")
  @MethodSource("smallSizes")
  void put_whenLengthUnknown_getReturnsSameBytes(int size) throws IOException {
    byte[] body = SeededBytes.bytes(SEED - size, size);
    ObjectInfo stored = repository.put("round/unknown", new ByteArrayInputStream(body), -1);
    assertThat(stored.sizeBytes()).isEqualTo(size);
    assertThat(read("round/unknown")).as("seed %d", SEED - size).isEqualTo(body);
    assertThat(repository.head("round/unknown").orElseThrow().sizeBytes()).isEqualTo(size);
  }

  @Test
  void put_when64MiBStreamedWithKnownLength_getReturnsSameDigest() throws IOException {
    roundTripLarge(64L << 20, true);
  }

  @Test
  void put_when64MiBStreamedWithUnknownLength_getReturnsSameDigest() throws IOException {
    roundTripLarge((64L << 20) + 3, false);
  }

  private void roundTripLarge(long size, boolean lengthKnown) throws IOException {
    long seed = SEED ^ size;
    ObjectInfo stored =
        repository.put("large", SeededBytes.stream(seed, size), lengthKnown ? size : -1);
    assertThat(stored.sizeBytes()).isEqualTo(size);
    try (ObjectStream in = repository.get("large")) {
      assertThat(in.info().sizeBytes()).isEqualTo(size);
      assertThat(SeededBytes.sha256(in))
          .as("seed %d", seed)
          .isEqualTo(SeededBytes.sha256(seed, size));
    }
  }

  @Test
  void head_whenPresent_describesObject() {
    byte[] body = SeededBytes.bytes(SEED, 321);
    ObjectInfo stored = repository.put("h", new ByteArrayInputStream(body), body.length);
    ObjectInfo head = repository.head("h").orElseThrow();
    assertThat(head.key()).isEqualTo("h");
    assertThat(head.sizeBytes()).isEqualTo(321);
    assertThat(head.etag()).isEqualTo(stored.etag());
    assertThat(head.lastModified()).isNotNull();
  }

  @Test
  void headAndGet_whenMissing_emptyAndNotFound() {
    assertThat(repository.head("missing")).isEmpty();
    assertThatThrownBy(() -> repository.get("missing"))
        .isInstanceOfSatisfying(
            RepositoryException.class,
            e -> assertThat(e.kind()).isEqualTo(RepositoryException.Kind.NOT_FOUND));
    assertThatThrownBy(() -> repository.get("missing", 5, 10))
        .isInstanceOfSatisfying(
            RepositoryException.class,
            e -> assertThat(e.kind()).isEqualTo(RepositoryException.Kind.NOT_FOUND));
  }

  // ---- ranges ------------------------------------------------------------------------------

  @Test
  void get_whenRangeAtEveryBoundary_returnsClippedSlice() throws IOException {
    int size = 1000;
    byte[] body = SeededBytes.bytes(SEED + 7, size);
    repository.put("r", new ByteArrayInputStream(body), size);
    long[][] ranges = {
      {0, 0},
      {0, 1},
      {0, size - 1},
      {0, size},
      {0, size + 1},
      {0, Long.MAX_VALUE},
      {0, -1},
      {1, -1},
      {1, 1},
      {499, 2},
      {size - 1, 1},
      {size - 1, 2},
      {size - 1, -1},
      {size, 0},
      {size, 1},
      {size, -1},
      {size + 1, 5},
      {Long.MAX_VALUE / 2, 1},
      {1, Long.MAX_VALUE},
      {size - 1, Long.MAX_VALUE},
    };
    for (long[] range : ranges) {
      int from = (int) Math.min(range[0], size);
      int to = range[1] < 0 ? size : (int) Math.min(size, from + Math.min(range[1], size));
      try (ObjectStream in = repository.get("r", range[0], range[1])) {
        assertThat(in.readAllBytes())
            .as("range offset=%d length=%d", range[0], range[1])
            .isEqualTo(Arrays.copyOfRange(body, from, to));
        assertThat(in.info().sizeBytes()).isEqualTo(size);
      }
    }
  }

  @Test
  void get_whenObjectEmpty_everyRangeIsEmpty() throws IOException {
    repository.put("empty", new ByteArrayInputStream(new byte[0]), 0);
    for (long[] range : new long[][] {{0, -1}, {0, 0}, {0, 1}, {1, 1}, {7, -1}}) {
      try (ObjectStream in = repository.get("empty", range[0], range[1])) {
        assertThat(in.readAllBytes()).as("range %s", Arrays.toString(range)).isEmpty();
        assertThat(in.info().sizeBytes()).isZero();
      }
    }
  }

  @Test
  void get_whenClosedEarly_leavesRepositoryUsable() throws IOException {
    repository.put("early", SeededBytes.stream(SEED, 4 << 20), 4 << 20);
    for (int i = 0; i < 3; i++) {
      try (ObjectStream in = repository.get("early")) {
        assertThat(in.read()).isGreaterThanOrEqualTo(0);
      }
    }
    assertThat(repository.head("early")).isPresent();
  }

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

  // ---- overwrite and delete ----------------------------------------------------------------

  @Test
  void put_whenKeyExists_replacesWholeObject() throws IOException {
    byte[] first = SeededBytes.bytes(SEED + 1, 5000);
    byte[] second = SeededBytes.bytes(SEED + 2, 17);
    repository.put("o", new ByteArrayInputStream(first), first.length);
    repository.put("o", new ByteArrayInputStream(second), -1);
    assertThat(read("o")).isEqualTo(second);
    assertThat(repository.head("o").orElseThrow().sizeBytes()).isEqualTo(17);
    assertThat(keys(repository.list("", "", 10))).containsExactly("o");
  }

  @Test
  void delete_whenPresent_removesOnlyThatKey() {
    putAll(List.of("d", "d/", "d/e", "de"));
    repository.delete("d/");
    assertThat(repository.head("d/")).isEmpty();
    assertThat(keys(repository.list("", "", 10))).containsExactly("d", "d/e", "de");
    repository.delete("d/e");
    repository.delete("d");
    assertThat(keys(repository.list("", "", 10))).containsExactly("de");
    assertThatThrownBy(() -> repository.get("d/e"))
        .isInstanceOfSatisfying(
            RepositoryException.class,
            e -> assertThat(e.kind()).isEqualTo(RepositoryException.Kind.NOT_FOUND));
  }

  @Test
  void delete_whenMissing_succeeds() {
    repository.delete("never/was");
    repository.put("x", new ByteArrayInputStream(new byte[1]), 1);
    repository.delete("x");
    repository.delete("x");
    assertThat(repository.head("x")).isEmpty();
  }

  @Test
  void discard_removesLikeDelete_andAMissingKeySucceeds() {
    putAll(List.of("g", "g/h", "gh"));
    repository.discard("g/h");
    repository.discard("never/was");
    assertThat(repository.head("g/h")).isEmpty();
    assertThat(keys(repository.list("", "", 10))).containsExactly("g", "gh");
    repository.discard("g");
    repository.discard("g");
    assertThat(keys(repository.list("", "", 10))).containsExactly("gh");
  }

  @Test
  void put_whenDeletedThenPutAgain_isVisibleAgain() throws IOException {
    for (int i = 0; i < 3; i++) {
      byte[] body = SeededBytes.bytes(SEED + i, 10 + i);
      repository.put("p/q/r", new ByteArrayInputStream(body), body.length);
      assertThat(read("p/q/r")).isEqualTo(body);
      repository.delete("p/q/r");
      assertThat(repository.head("p/q/r")).isEmpty();
    }
  }

  // ---- bodies that lie ---------------------------------------------------------------------

  @Test
  void put_whenBodyShorterThanLength_failsAndStoresNothing() {
    assertThatThrownBy(() -> repository.put("short", new ByteArrayInputStream(new byte[10]), 11))
        .isInstanceOfSatisfying(
            RepositoryException.class,
            e -> assertThat(e.kind()).isEqualTo(RepositoryException.Kind.UNEXPECTED));
    assertThat(repository.head("short")).isEmpty();
    assertThat(repository.list("", "", 10).objects()).isEmpty();
  }

  @Test
  void put_whenBodyLongerThanLength_failsAndKeepsPreviousObject() throws IOException {
    repository.put("long", new ByteArrayInputStream(new byte[] {7}), 1);
    assertThatThrownBy(() -> repository.put("long", new ByteArrayInputStream(new byte[10]), 9))
        .isInstanceOfSatisfying(
            RepositoryException.class,
            e -> assertThat(e.kind()).isEqualTo(RepositoryException.Kind.UNEXPECTED));
    assertThat(read("long")).containsExactly(7);
  }

  @Test
  void put_whenBodyThrows_failsWithCauseAndStoresNothing() {
    IOException boom = new IOException("client went away");
    InputStream failing =
        new InputStream() {
          private int left = 100_000;

          @Override
          public int read() throws IOException {
            // Keep failing: InputStream.read(byte[]) swallows an exception after the first byte.
            if (left <= 0) {
              throw boom;
            }
            left--;
            return 1;
          }
        };
    assertThatThrownBy(() -> repository.put("broken", failing, -1))
        .isInstanceOfSatisfying(
            RepositoryException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(RepositoryException.Kind.UNEXPECTED);
              assertThat(e).hasRootCause(boom);
            });
    assertThat(repository.head("broken")).isEmpty();
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

  // ---- concurrency -------------------------------------------------------------------------

  @Test
  void put_whenConcurrentWritersOfOneKey_readersSeeOneWholeBody() throws Exception {
    int writers = 4;
    int rounds = 3;
    int size = 256 * 1024 + 13;
    Set<String> digests = new HashSet<>();
    for (int w = 0; w < writers; w++) {
      for (int r = 0; r < rounds; r++) {
        digests.add(SeededBytes.sha256(seed(w, r), size));
      }
    }
    byte[] initial = SeededBytes.bytes(SEED, size);
    repository.put("contended", new ByteArrayInputStream(initial), size);
    digests.add(SeededBytes.sha256(new ByteArrayInputStream(initial)));

    try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<?>> tasks = new ArrayList<>();
      for (int w = 0; w < writers; w++) {
        int writer = w;
        tasks.add(
            pool.submit(
                () -> {
                  start.await();
                  for (int r = 0; r < rounds; r++) {
                    // Alternate known and unknown lengths so both write paths race.
                    repository.put(
                        "contended",
                        SeededBytes.stream(seed(writer, r), size),
                        r % 2 == 0 ? size : -1);
                  }
                  return null;
                }));
      }
      for (int reader = 0; reader < 2; reader++) {
        tasks.add(
            pool.submit(
                () -> {
                  start.await();
                  for (int r = 0; r < rounds * 2; r++) {
                    try (ObjectStream in = repository.get("contended")) {
                      assertThat(digests).contains(SeededBytes.sha256(in));
                    }
                  }
                  return null;
                }));
      }
      start.countDown();
      for (Future<?> task : tasks) {
        task.get();
      }
    }
    try (ObjectStream in = repository.get("contended")) {
      assertThat(digests).contains(SeededBytes.sha256(in));
    }
    assertThat(keys(repository.list("", "", 10))).containsExactly("contended");
  }

  private static long seed(int writer, int round) {
    return SEED * 31 + writer * 1000L + round;
  }

  // ---- identity and health -----------------------------------------------------------------

  @Test
  void purgeLeftovers_whenNoWriteCrashed_findsNothingAndKeepsEveryObject() throws IOException {
    putAll(List.of("p", "p/q"));
    assertThat(repository.purgeLeftovers(Duration.ZERO, true)).isZero();
    assertThat(repository.purgeLeftovers(Duration.ZERO, false)).isZero();
    assertThat(keys(repository.list("", "", 10))).containsExactly("p", "p/q");
    assertThat(read("p/q")).isEqualTo("p/q".getBytes(UTF_8));
    assertThatThrownBy(() -> repository.purgeLeftovers(Duration.ofSeconds(-1), true))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void everyCall_whenStorageLost_failsUnavailableNeverMissingOrEmpty() throws Exception {
    putAll(List.of("kept", "kept/child"));
    Assumptions.assumeTrue(loseStorage(), "this backend has no storage that can go missing");
    List<Map.Entry<String, ThrowingCallable>> calls =
        List.of(
            Map.entry("get", () -> repository.get("kept").close()),
            Map.entry("get range", () -> repository.get("kept", 1, 2).close()),
            Map.entry("get missing", () -> repository.get("never").close()),
            Map.entry("head", () -> repository.head("kept")),
            Map.entry("head missing", () -> repository.head("never")),
            Map.entry("list", () -> repository.list("", "", 10)),
            Map.entry("list prefix", () -> repository.list("kept/", "", 10)),
            Map.entry("list after", () -> repository.list("", "kept", 10)),
            Map.entry(
                "put", () -> repository.put("new", new ByteArrayInputStream(new byte[] {1}), 1)),
            Map.entry("delete", () -> repository.delete("kept")),
            Map.entry("discard", () -> repository.discard("kept/child")),
            Map.entry("probe", () -> repository.probe()));
    for (Map.Entry<String, ThrowingCallable> call : calls) {
      assertThatThrownBy(call.getValue())
          .as(call.getKey())
          .isInstanceOfSatisfying(
              RepositoryException.class,
              e -> assertThat(e.kind()).as(call.getKey()).isEqualTo(Kind.UNAVAILABLE));
    }
  }

  @Test
  void describeAndProbe_whenHealthy_nameTypeAndNoError() {
    assertThat(repository.name()).isNotBlank();
    assertThat(repository.describe()).containsKeys("type", "location");
    repository.probe();
  }

  // ---- helpers -----------------------------------------------------------------------------

  /** Reads a whole object. */
  protected byte[] read(String key) throws IOException {
    try (ObjectStream in = repository.get(key)) {
      return in.readAllBytes();
    }
  }

  /** Puts each key with its own UTF-8 bytes as the body. */
  protected void putAll(Collection<String> keys) {
    for (String key : keys) {
      byte[] body = key.getBytes(UTF_8);
      repository.put(key, new ByteArrayInputStream(body), body.length);
    }
  }

  /** The keys of a page. */
  protected static List<String> keys(ListPage page) {
    return page.objects().stream().map(ObjectInfo::key).toList();
  }

  /** Every key under {@code prefix}, through pages of 7. */
  protected List<String> listAllKeys(String prefix) {
    List<String> all = new ArrayList<>();
    Repositories.listAll(repository, prefix, 7).forEachRemaining(o -> all.add(o.key()));
    return all;
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

  /** Sorts by the unsigned bytes of the UTF-8 encoding, independently of {@link Keys#ORDER}. */
  protected static List<String> utf8Sorted(Collection<String> keys) {
    return keys.stream()
        .sorted((a, b) -> Arrays.compareUnsigned(a.getBytes(UTF_8), b.getBytes(UTF_8)))
        .toList();
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
