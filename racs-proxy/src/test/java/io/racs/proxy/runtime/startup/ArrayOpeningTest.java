package io.racs.proxy.runtime.startup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.codec.Geometry;
import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.api.StoreConfig;
import io.racs.proxy.store.api.StoreException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;

/**
 * How {@link ArrayOpening#begin} hands over its first attempt: one that ends within {@code
 * firstAttemptWait} is judged in {@code begin} (a mistake no wait mends is thrown there, before the
 * proxy listens), and one still running then goes on in the background, where a mistake it finds
 * later ends the wait with that failure and a shortage of repositories makes it try again. The
 * attempts are scripted with latches, so no test depends on how long anything takes.
 */
class ArrayOpeningTest {
  private static final StoreConfig CONFIG = StoreConfig.builder(Geometry.parse("4x2")).build();

  private static ArrayOpening.Settings firstAttemptWait(Duration wait) {
    return new ArrayOpening.Settings(null, Duration.ofMillis(10), Duration.ofMillis(20), wait);
  }

  private static StoreException shortage() {
    return new StoreException(StoreException.Code.INSUFFICIENT_SHARDS, "only 3 of 6 answer");
  }

  @Test
  void begin_whenTheFirstAttemptFailsWithAMistakeInTime_throwsIt() {
    BiFunction<StoreConfig, List<io.racs.repos.Repository>, ErasureStore> foreign =
        (c, r) -> {
          throw new IllegalStateException("slot 1 belongs to another array");
        };
    assertThatThrownBy(
            () ->
                ArrayOpening.begin(
                    CONFIG, List.of(), foreign, firstAttemptWait(Duration.ofMinutes(10))))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("another array");
  }

  @Test
  void begin_whenTheFirstAttemptOutlivesItsWait_returnsAndAMistakeFoundLaterEndsTheWait()
      throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    BiFunction<StoreConfig, List<io.racs.repos.Repository>, ErasureStore> stalled =
        (c, r) -> {
          try {
            release.await();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          throw new IllegalStateException("slot 1 belongs to another array");
        };

    ArrayOpening opening =
        ArrayOpening.begin(CONFIG, List.of(), stalled, firstAttemptWait(Duration.ofMillis(50)));

    assertThat(opening.store()).isEmpty();
    assertThat(opening.status().attempts()).isZero();
    assertThat(opening.status().reason()).contains("first attempt", "goes on");
    assertThat(opening.opened()).isNotDone();
    release.countDown();
    assertThatThrownBy(() -> opening.opened().get(30, TimeUnit.SECONDS))
        .isInstanceOf(ExecutionException.class)
        .cause()
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("another array");
  }

  @Test
  void begin_whenTheFirstAttemptOutlivesItsWaitAndFindsTooFew_triesAgain() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger calls = new AtomicInteger();
    CountDownLatch third = new CountDownLatch(3);
    BiFunction<StoreConfig, List<io.racs.repos.Repository>, ErasureStore> slow =
        (c, r) -> {
          if (calls.incrementAndGet() == 1) {
            try {
              release.await();
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          }
          third.countDown();
          throw shortage();
        };

    try (ArrayOpening opening =
        ArrayOpening.begin(CONFIG, List.of(), slow, firstAttemptWait(Duration.ofMillis(50)))) {
      assertThat(calls).hasValue(1);
      release.countDown();
      assertThat(third.await(30, TimeUnit.SECONDS)).as("retried after the first attempt").isTrue();
      assertThat(opening.opened()).isNotDone();
      assertThat(opening.status().reason()).contains("only 3 of 6");
    }
  }

  @Test
  void begin_whenTheFirstAttemptFindsTooFewInTime_returnsWaitingWithItsReason() throws Exception {
    CountDownLatch retried = new CountDownLatch(2);
    BiFunction<StoreConfig, List<io.racs.repos.Repository>, ErasureStore> few =
        (c, r) -> {
          retried.countDown();
          throw shortage();
        };
    try (ArrayOpening opening =
        ArrayOpening.begin(CONFIG, List.of(), few, firstAttemptWait(Duration.ofMinutes(10)))) {
      assertThat(opening.status().attempts()).isGreaterThanOrEqualTo(1);
      assertThat(opening.status().reason()).contains("only 3 of 6");
      assertThat(retried.await(30, TimeUnit.SECONDS)).isTrue();
    }
  }
}
