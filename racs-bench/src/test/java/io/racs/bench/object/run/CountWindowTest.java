package io.racs.bench.object.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.bench.object.workload.KeyDistribution;
import io.racs.bench.object.workload.KeySpace;
import io.racs.bench.object.workload.Mix;
import io.racs.bench.object.workload.Op;
import io.racs.bench.object.workload.RangeSpec;
import io.racs.bench.object.workload.SizeSpec;
import io.racs.bench.stats.ArrivalSchedule.Arrivals;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Proves that a {@code --count} iteration keeps a window, and so its requests, when one client
 * starts so late that another has finished its whole quota: the interleaving a loaded machine makes
 * (one thread kept off a core for longer than another's quota of fast requests) is built here by a
 * gate on the late client's first request that opens only once the early client has done its quota
 * and is parked or gone. Without the wait for the window the iteration recorded no request at all.
 */
class CountWindowTest {
  private static final int COUNT = 10;
  private static final int CLIENTS = 2;

  /** Client 0 answers at once; client 1's first LIST waits until client 0 cannot run further. */
  private static final class LateSecondClient extends StubTarget {
    final AtomicInteger earlyCalls = new AtomicInteger();
    final CountDownLatch earlyThreadKnown = new CountDownLatch(1);
    volatile Thread early;
    volatile Thread.State earlyStateAtGate;

    LateSecondClient() {
      super("late");
    }

    @Override
    public Client client(int index) {
      return new QuietClient() {
        private boolean first = true;

        @Override
        public int list(String prefix, int maxKeys) {
          if (index == 0) {
            early = Thread.currentThread();
            earlyThreadKnown.countDown();
            earlyCalls.incrementAndGet();
          } else if (first) {
            first = false;
            awaitEarlyClientDone();
          }
          return 0;
        }
      };
    }

    /**
     * Waits until client 0 has made its quota of calls and its thread waits (for the window) or has
     * ended: either way it completes nothing more before this request does.
     */
    private void awaitEarlyClientDone() {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      try {
        assertThat(earlyThreadKnown.await(30, TimeUnit.SECONDS)).isTrue();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
      while (true) {
        Thread.State state = early.getState();
        if (earlyCalls.get() >= COUNT / CLIENTS
            && (state == Thread.State.WAITING || state == Thread.State.TERMINATED)) {
          earlyStateAtGate = state;
          return;
        }
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("client 0 still " + state + " after 30 s");
        }
        Thread.yield();
      }
    }
  }

  private static Workload listCount() {
    return new Workload(
        Mix.of(Op.LIST),
        SizeSpec.fixed(0),
        KeyDistribution.UNIFORM,
        RangeSpec.NONE,
        1,
        1,
        "t/",
        CLIENTS,
        0,
        Arrivals.CONSTANT,
        Duration.ofSeconds(1),
        COUNT,
        false,
        1,
        1000,
        false);
  }

  @Test
  void run_whenAClientFinishesItsCountBeforeAnotherCompletesOne_keepsAWindowAndItsRequests()
      throws Exception {
    LateSecondClient target = new LateSecondClient();
    KeySpace keys = new KeySpace("t/", 1, 1);
    keys.prepared(0, 1);
    IterationResult r = IterationRunner.run(target, keys, listCount(), 7, 0, Progress.silent());
    assertThat(r.requests.getTotalCount()).isEqualTo(COUNT);
    assertThat(target.earlyCalls.get()).isEqualTo(COUNT / CLIENTS);
    // The window opens at the late client's first completion, which it therefore holds.
    assertThat(Objects.requireNonNullElse(r.invalidReason, "valid")).doesNotStartWith("no window");
    assertThat(r.ops).as("requests in the window").isPositive();
    assertThat(r.windowEndNanos).isGreaterThanOrEqualTo(r.windowStartNanos);
    // The early client waited for the window rather than ending before it opened.
    assertThat(target.earlyStateAtGate).isEqualTo(Thread.State.WAITING);
  }
}
