package io.racs.repos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.testkit.SeededBytes;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The part of the {@link Repository} contract on bodies: bodies of every size round-trip byte-exact
 * (large ones streamed and compared by digest), ranges clip at every boundary, overwrites and
 * deletes behave as S3's do, and a body shorter or longer than its length, or one that throws,
 * fails the put and stores nothing.
 */
public abstract class RepositoryBodyContract extends RepositoryContractSupport {
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
}
