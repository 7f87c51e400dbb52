package io.racs.repos;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.repos.RepositoryException.Kind;
import io.racs.testkit.SeededBytes;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The {@link Repository} contract, run against every backend: bodies of every size round-trip
 * byte-exact (large ones streamed and compared by digest), ranges clip at every boundary, listings
 * come back in exact UTF-8 binary order with prefixes, pages and start-after, overwrites and
 * deletes behave as S3's do, awkward keys round-trip and stay distinct, and concurrent writers of
 * one key leave one whole body, never a mix.
 *
 * <p>Its parts are a chain of abstract classes, one family of operations each ({@link
 * RepositoryBodyContract}, {@link RepositoryKeyContract}, and here concurrency, identity and
 * health), so that a backend's test extends this one class and runs every case once.
 *
 * <p>A backend's test extends this class and supplies {@link #createRepository()}, a fresh empty
 * repository per test, which this class closes, and {@link #loseStorage()}, which takes the storage
 * away from under it: every call must then fail with {@code UNAVAILABLE}, never answer "no such
 * object" or an empty listing.
 */
public abstract class RepositoryContract extends RepositoryKeyContract {
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
              e -> {
                assertThat(e.kind()).as(call.getKey()).isEqualTo(Kind.UNAVAILABLE);
                assertThat(e).as(call.getKey()).hasMessageContaining(lostStorageNamed());
              });
    }
  }

  @Test
  void describeAndProbe_whenHealthy_nameTypeAndNoError() {
    assertThat(repository.name()).isNotBlank();
    assertThat(repository.describe()).containsKeys("type", "location");
    repository.probe();
  }
}
