package io.racs.repos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Proves {@link OnFirstCall}: the action runs until it first succeeds and never after, a failure is
 * the caller's and is tried again, and many first calls at once run it once.
 */
class OnFirstCallTest {
  @Test
  void ensure_whenActionFailsThenSucceeds_retriesThenNeverRunsAgain() {
    AtomicInteger runs = new AtomicInteger();
    OnFirstCall once =
        OnFirstCall.of(
            () -> {
              if (runs.incrementAndGet() == 1) {
                throw new IllegalStateException("store down");
              }
            });
    assertThatThrownBy(once::ensure).hasMessage("store down");
    once.ensure();
    once.ensure();
    assertThat(runs).hasValue(2);
  }

  @Test
  void ensure_whenManyFirstCallsAtOnce_runsTheActionOnce() throws Exception {
    AtomicInteger runs = new AtomicInteger();
    OnFirstCall once = OnFirstCall.of(runs::incrementAndGet);
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < 16; i++) {
      threads.add(
          Thread.ofVirtual()
              .start(
                  () -> {
                    try {
                      start.await();
                    } catch (InterruptedException e) {
                      Thread.currentThread().interrupt();
                    }
                    once.ensure();
                  }));
    }
    start.countDown();
    for (Thread t : threads) {
      t.join();
    }
    assertThat(runs).hasValue(1);
  }
}
