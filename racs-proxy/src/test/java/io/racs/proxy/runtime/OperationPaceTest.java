package io.racs.proxy.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Proves the lifecycle scan's pace: at most the given number of operations a second (a lower bound
 * on the time taken, which a loaded machine can only lengthen), and no wait at all unlimited.
 */
class OperationPaceTest {
  @Test
  void await_at200PerSecond_takesAtLeastTheIntervalBetweenOperations() {
    OperationPace pace = OperationPace.perSecond(200);
    long start = System.nanoTime();
    for (int i = 0; i < 21; i++) {
      pace.await();
    }
    // 21 operations are 20 intervals of 5 ms after the first.
    assertThat(System.nanoTime() - start)
        .isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(100));
  }

  @Test
  void await_unlimited_neverWaits() {
    OperationPace pace = OperationPace.perSecond(0);
    long start = System.nanoTime();
    for (int i = 0; i < 100_000; i++) {
      pace.await();
    }
    assertThat(System.nanoTime() - start).isLessThan(TimeUnit.SECONDS.toNanos(5));
  }
}
