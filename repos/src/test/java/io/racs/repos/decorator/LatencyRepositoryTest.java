package io.racs.repos.decorator;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.repos.ObjectStream;
import io.racs.repos.memory.MemoryRepository;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Proves the latency decorator adds at least its configured delay in each direction to every call
 * (measured with the clock around the call, as a lower bound only, so a slow machine cannot fail
 * it), and says so in its description.
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
}
