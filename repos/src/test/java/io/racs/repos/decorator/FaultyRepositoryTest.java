package io.racs.repos.decorator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.repos.ObjectStream;
import io.racs.repos.Repository;
import io.racs.repos.RepositoryException;
import io.racs.repos.RepositoryException.Kind;
import io.racs.repos.memory.MemoryRepository;
import io.racs.testkit.SeededBytes;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Proves each scripted fault does exactly what it says and nothing more: the Nth call fails and the
 * next succeeds, matching keys fail and others do not, an outage fails everything until it ends,
 * corrupted reads differ from the stored bytes at the documented offsets only, seeded random
 * failures replay, a full disk refuses puts only, a stall holds a call until released without any
 * sleep, and a gate across repositories holds only the armed number of matching calls.
 */
class FaultyRepositoryTest {
  private final MemoryRepository memory = MemoryRepository.create("mem");
  private final FaultyRepository faulty = new FaultyRepository(memory);

  private static void assertKind(Runnable call, Kind kind) {
    assertThatThrownBy(call::run)
        .isInstanceOfSatisfying(
            RepositoryException.class, e -> assertThat(e.kind()).isEqualTo(kind));
  }

  private void put(String key) {
    faulty.put(key, new ByteArrayInputStream(new byte[] {1}), 1);
  }

  @Test
  void failCall_whenNthCall_failsOnlyThatCall() {
    faulty.failCall(3, Kind.TIMEOUT);
    put("a");
    put("b");
    assertKind(() -> put("c"), Kind.TIMEOUT);
    assertThat(memory.head("c")).as("a failed call never reaches the delegate").isEmpty();
    put("c");
    assertThat(faulty.calls()).isEqualTo(4);
  }

  @Test
  void failKeys_whenPatternMatches_failsThoseKeysOnly() {
    faulty.failKeys(Pattern.compile("shard/2/.*"), Kind.CORRUPT);
    put("shard/1/x");
    assertKind(() -> put("shard/2/x"), Kind.CORRUPT);
    assertKind(() -> faulty.head("shard/2/x"), Kind.CORRUPT);
    assertThat(faulty.head("shard/1/x")).isPresent();
    faulty.clearFaults();
    put("shard/2/x");
  }

  @Test
  void outage_whileOn_everyCallUnavailable() {
    put("k");
    faulty.outage(true);
    assertKind(() -> faulty.get("k"), Kind.UNAVAILABLE);
    assertKind(() -> faulty.list("", "", 10), Kind.UNAVAILABLE);
    assertKind(faulty::probe, Kind.UNAVAILABLE);
    assertKind(() -> faulty.delete("k"), Kind.UNAVAILABLE);
    faulty.outage(false);
    assertThat(faulty.head("k")).isPresent();
  }

  @Test
  void corruptReads_whenOn_flipsBytesAtStrideOffsets() throws IOException {
    byte[] body = SeededBytes.bytes(11, 10_000);
    memory.put("k", new ByteArrayInputStream(body), body.length);
    faulty.corruptReads(true);
    byte[] whole;
    try (ObjectStream in = faulty.get("k")) {
      whole = in.readAllBytes();
    }
    List<Integer> differing = new ArrayList<>();
    for (int i = 0; i < body.length; i++) {
      if (whole[i] != body[i]) {
        differing.add(i);
      }
    }
    assertThat(differing).containsExactly(0, 4096, 8192);
    try (ObjectStream in = faulty.get("k", 4000, 200)) {
      byte[] range = in.readAllBytes();
      assertThat(range[96]).isEqualTo((byte) (body[4096] ^ 0xff));
      assertThat(range[0]).isEqualTo(body[4000]);
    }
    faulty.corruptReads(false);
    try (ObjectStream in = faulty.get("k")) {
      assertThat(in.readAllBytes()).isEqualTo(body);
    }
  }

  @Test
  void failRandomly_whenSameSeed_replaysSameFailures() {
    List<Integer> first = randomFailures(42);
    assertThat(first).isNotEmpty().hasSizeLessThan(100);
    assertThat(randomFailures(42)).isEqualTo(first);
  }

  private static List<Integer> randomFailures(long seed) {
    FaultyRepository repository =
        new FaultyRepository(MemoryRepository.create("r")).failRandomly(0.3, seed, Kind.TIMEOUT);
    List<Integer> failed = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      try {
        repository.head("k");
      } catch (RepositoryException e) {
        failed.add(i);
      }
    }
    return failed;
  }

  @Test
  void stall_whenArmed_holdsCallUntilReleased() throws Exception {
    FaultyRepository.Stall stall = faulty.stall(Operation.PUT);
    CompletableFuture<Void> held =
        CompletableFuture.runAsync(() -> put("held"), r -> Thread.ofVirtual().start(r));
    stall.awaitStalled();
    assertThat(held).isNotDone();
    // Other operations, and later puts, pass while the first put is held.
    put("other");
    assertThat(faulty.head("held")).isEmpty();
    stall.release();
    held.get();
    assertThat(faulty.head("held")).isPresent();
  }

  @Test
  void full_whileOn_refusesPutsWithFullAndServesTheRest() {
    put("k");
    faulty.full(true);
    assertThatThrownBy(() -> put("new"))
        .isInstanceOfSatisfying(
            RepositoryException.class, e -> assertThat(e.kind()).isEqualTo(Kind.FULL))
        .hasMessageContaining("No space left on device");
    assertThat(faulty.head("k")).isPresent();
    assertThat(faulty.list("", "", 10).objects()).hasSize(1);
    faulty.delete("k");
    faulty.full(false);
    put("new");
    assertThat(memory.head("new")).isPresent();
  }

  @Test
  void gate_whenArmed_holdsMatchingCallsOnEveryRepositoryUntilOpened() throws Exception {
    FaultyRepository.Gate gate = new FaultyRepository.Gate(Operation.PUT, k -> k.startsWith("s/"));
    MemoryRepository second = MemoryRepository.create("mem2");
    List<Repository> array = FaultyRepository.gated(List.of(memory, second), gate);
    gate.arm(2);
    List<CompletableFuture<Void>> held = new ArrayList<>();
    for (Repository repository : array) {
      held.add(
          CompletableFuture.runAsync(
              () -> repository.put("s/1", new ByteArrayInputStream(new byte[] {1}), 1),
              r -> Thread.ofVirtual().start(r)));
    }
    gate.awaitHeld(2, Duration.ofSeconds(10));
    assertThat(held).noneMatch(CompletableFuture::isDone);
    assertThat(memory.head("s/1")).as("a held call has not reached the delegate").isEmpty();
    // Keys that do not match, and matching calls past the armed number, pass.
    array.get(0).put("t/1", new ByteArrayInputStream(new byte[] {1}), 1);
    array.get(1).put("s/2", new ByteArrayInputStream(new byte[] {1}), 1);
    gate.awaitCompleted(1, Duration.ofSeconds(10));
    gate.open();
    for (CompletableFuture<Void> call : held) {
      call.get();
    }
    gate.awaitCompleted(3, Duration.ofSeconds(10));
    assertThat(memory.head("s/1")).isPresent();
    assertThat(second.head("s/1")).isPresent();
  }
}
