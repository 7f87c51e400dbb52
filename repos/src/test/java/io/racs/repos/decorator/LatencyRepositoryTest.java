package io.racs.repos.decorator;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.repos.ObjectStream;
import io.racs.repos.memory.MemoryRepository;
import io.racs.testkit.TestSeed;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Proves the latency decorator adds at least its configured delay in each direction to every call
 * (measured with the clock around the call, as a lower bound only, so a slow machine cannot fail
 * it), and says so in its description; and that a late tail delays the configured fraction of calls
 * by its extra time, the same calls for the same seed (drawn without waiting).
 */
class LatencyRepositoryTest {
  @Test
  void everyCall_whenDelayed_takesAtLeastRequestPlusResponseDelay() throws IOException {
    LatencyRepository.Delay request =
        new LatencyRepository.Delay(Duration.ofMillis(15), Duration.ofMillis(5));
    LatencyRepository.Delay response =
        new LatencyRepository.Delay(Duration.ofMillis(10), Duration.ZERO);
    try (LatencyRepository repository =
        new LatencyRepository(MemoryRepository.create("m"), request, response, 7)) {
      long minimumNanos = Duration.ofMillis(25).toNanos();

      long started = System.nanoTime();
      repository.put("k", new ByteArrayInputStream(new byte[] {1}), 1);
      assertThat(System.nanoTime() - started).isGreaterThanOrEqualTo(minimumNanos);

      started = System.nanoTime();
      try (ObjectStream in = repository.get("k")) {
        assertThat(System.nanoTime() - started).isGreaterThanOrEqualTo(minimumNanos);
        assertThat(in.readAllBytes()).containsExactly(1);
      }

      started = System.nanoTime();
      repository.list("", "", 10);
      repository.head("k");
      repository.delete("k");
      assertThat(System.nanoTime() - started).isGreaterThanOrEqualTo(3 * minimumNanos);

      assertThat(repository.describe())
          .containsEntry("type", "memory")
          .containsEntry("latency", "request 15ms+5ms, response 10ms+0ms");
    }
  }

  @Test
  void everyCall_whenNoDelay_forwardsUnchanged() {
    try (LatencyRepository repository =
        new LatencyRepository(
            MemoryRepository.create("m"),
            LatencyRepository.Delay.NONE,
            LatencyRepository.Delay.NONE,
            1)) {
      repository.put("k", new ByteArrayInputStream(new byte[3]), 3);
      assertThat(repository.head("k").orElseThrow().sizeBytes()).isEqualTo(3);
    }
  }

  @Test
  void responseNanos_whenLateTail_delaysTheFractionByTheExtraAndReplaysBySeed() {
    long seed = TestSeed.get();
    LatencyRepository.Delay jittered =
        new LatencyRepository.Delay(Duration.ZERO, Duration.ofMillis(40));
    LatencyRepository.Late late = new LatencyRepository.Late(0.02, Duration.ofMillis(200));
    List<Long> first = new ArrayList<>();
    List<Long> again = new ArrayList<>();
    int draws = 20_000;
    try (LatencyRepository a =
            new LatencyRepository(
                MemoryRepository.create("a"), LatencyRepository.Delay.NONE, jittered, late, seed);
        LatencyRepository b =
            new LatencyRepository(
                MemoryRepository.create("b"), LatencyRepository.Delay.NONE, jittered, late, seed)) {
      for (int i = 0; i < draws; i++) {
        first.add(a.responseNanos());
        again.add(b.responseNanos());
      }
      assertThat(a.describe())
          .containsEntry("latency", "request 0ms+0ms, response 0ms+40ms, 2.0% 200ms late");
    }
    assertThat(again).as("seed %d", seed).isEqualTo(first);
    long lateCalls = first.stream().filter(n -> n >= Duration.ofMillis(200).toNanos()).count();
    // 2% of 20,000 is 400, with a standard deviation of about 20: six of them either side.
    assertThat(lateCalls).as("seed %d", seed).isBetween(280L, 520L);
    assertThat(first)
        .as("seed %d", seed)
        .allMatch(n -> n >= 0 && n < Duration.ofMillis(240).toNanos())
        .anyMatch(n -> n > Duration.ofMillis(30).toNanos() && n < Duration.ofMillis(40).toNanos());
  }

  @Test
  void everyCall_whenEveryCallLate_takesAtLeastTheExtra() {
    try (LatencyRepository repository =
        new LatencyRepository(
            MemoryRepository.create("m"),
            LatencyRepository.Delay.NONE,
            LatencyRepository.Delay.NONE,
            new LatencyRepository.Late(1, Duration.ofMillis(30)),
            1)) {
      long started = System.nanoTime();
      repository.head("k");
      assertThat(System.nanoTime() - started)
          .isGreaterThanOrEqualTo(Duration.ofMillis(30).toNanos());
    }
  }

  @Test
  void late_whenRateOutOfRange_isRefused() {
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> new LatencyRepository.Late(1.5, Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("rate: 1.5 (expected: 0 to 1)");
  }
}
