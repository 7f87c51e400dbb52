package io.racs.bench.stats;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.bench.stats.MeasurementWindow.Decision;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Proves the ramp cut on hand-fed timestamps: the window opens at the latest first completion and
 * closes at the first client's stop, and undecided requests settle exactly.
 */
class MeasurementWindowTest {
  @Test
  void classify_whenClientsRampUpAndDown_cutsBothRamps() {
    AtomicLong clock = new AtomicLong();
    MeasurementWindow w = new MeasurementWindow(2, clock::get);
    // Client 0 completes at 10 and 20 before client 1 has completed anything: undecided.
    w.firstCompletion(0, 10);
    assertThat(w.classify(10)).isEqualTo(Decision.UNDECIDED);
    assertThat(w.classify(20)).isEqualTo(Decision.UNDECIDED);
    // Client 1's first completion at 25 opens the window at 25.
    w.firstCompletion(1, 25);
    assertThat(w.classify(25)).isEqualTo(Decision.INCLUDE);
    assertThat(w.classify(24)).isEqualTo(Decision.EXCLUDE);
    assertThat(w.classify(60)).isEqualTo(Decision.INCLUDE);
    // Client 1 stops at 100; client 0 stops at 130; anything after the first stop is undecided.
    clock.set(100);
    w.clientStopped(1);
    assertThat(w.classify(120)).isEqualTo(Decision.UNDECIDED);
    clock.set(130);
    w.clientStopped(0);
    w.close();
    assertThat(w.isValid()).isTrue();
    assertThat(w.startNanos()).isEqualTo(25);
    assertThat(w.endNanos()).isEqualTo(100);
    assertThat(w.seconds()).isEqualTo(75e-9);
    assertThat(w.includes(10)).isFalse();
    assertThat(w.includes(25)).isTrue();
    assertThat(w.includes(100)).isTrue();
    assertThat(w.includes(120)).isFalse();
  }

  @Test
  void close_whenAClientStopsBeforeAnotherCompletes_isInvalid() {
    AtomicLong clock = new AtomicLong(5);
    MeasurementWindow w = new MeasurementWindow(2, clock::get);
    w.firstCompletion(0, 3);
    w.clientStopped(1);
    clock.set(9);
    w.clientStopped(0);
    w.close();
    assertThat(w.isValid()).isFalse();
    assertThat(w.includes(3)).isFalse();
  }

  @Test
  void awaitOpen_whenEveryClientCompletes_returnsAndTheStopFollowsTheStart() throws Exception {
    AtomicLong clock = new AtomicLong();
    MeasurementWindow w = new MeasurementWindow(2, clock::get);
    w.firstCompletion(0, 3);
    Thread waiter = awaitingOpen(w, () -> w.clientStopped(0));
    clock.set(8);
    w.firstCompletion(1, 7);
    waiter.join();
    w.clientStopped(1);
    w.close();
    assertThat(w.isValid()).isTrue();
    assertThat(w.startNanos()).isEqualTo(7);
    assertThat(w.includes(7)).isTrue();
  }

  @Test
  void awaitOpen_whenAClientStopsWithoutCompleting_returns() throws Exception {
    // The window can never open: a client waiting for it must not wait forever.
    MeasurementWindow w = new MeasurementWindow(2);
    w.firstCompletion(0, 3);
    Thread waiter = awaitingOpen(w, () -> {});
    w.clientStopped(1);
    waiter.join();
    assertThat(waiter.isAlive()).isFalse();
  }

  /** A thread that waits for {@code w} to open, then runs {@code then}. */
  private static Thread awaitingOpen(MeasurementWindow w, Runnable then) {
    return Thread.ofPlatform()
        .start(
            () -> {
              try {
                w.awaitOpen();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
              }
              then.run();
            });
  }
}
