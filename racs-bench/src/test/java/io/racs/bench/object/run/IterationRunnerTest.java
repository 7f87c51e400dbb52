package io.racs.bench.object.run;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Proves clients run on platform threads up to {@link IterationRunner#PLATFORM_THREAD_CLIENTS} and
 * on virtual threads beyond.
 */
class IterationRunnerTest {
  @Test
  void clientThread_whenFewOrManyClients_isPlatformOrVirtual() throws InterruptedException {
    Thread few = IterationRunner.clientThread(8).unstarted(() -> {});
    Thread limit =
        IterationRunner.clientThread(IterationRunner.PLATFORM_THREAD_CLIENTS).unstarted(() -> {});
    Thread many =
        IterationRunner.clientThread(IterationRunner.PLATFORM_THREAD_CLIENTS + 1)
            .unstarted(() -> {});
    assertThat(few.isVirtual()).isFalse();
    assertThat(limit.isVirtual()).isFalse();
    assertThat(many.isVirtual()).isTrue();
  }
}
