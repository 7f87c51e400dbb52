package io.racs.bench.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/**
 * Proves open-loop schedules and coordinated-omission correction on a hand-computed stall: one slow
 * request delays the next ones, and only the corrected latency shows the users' wait.
 */
class ArrivalScheduleTest {
  @Test
  void correctedLatency_whenOneRequestStalls_chargesTheQueuedRequests() {
    // 10 requests/s: intended starts 0, 100, 200, 300 ms. Request 0 takes 250 ms, others 10 ms.
    ArrivalSchedule schedule = new ArrivalSchedule(10, ArrivalSchedule.Arrivals.CONSTANT, 1, 0);
    long[] service = {250, 10, 10, 10};
    long free = 0;
    long[] uncorrected = new long[4];
    long[] corrected = new long[4];
    for (int i = 0; i < 4; i++) {
      long intended = schedule.next() / 1_000_000;
      long start = Math.max(intended, free);
      long end = start + service[i];
      free = end;
      uncorrected[i] = end - start;
      corrected[i] = ArrivalSchedule.correctedLatency(intended, start, end);
    }
    // Request 1 was due at 100, started at 250, ended at 260: 160 ms corrected, 10 uncorrected.
    // Request 2: due 200, started 260, ended 270: 70 ms. Request 3: due 300, on time: 10 ms.
    assertThat(uncorrected).containsExactly(250, 10, 10, 10);
    assertThat(corrected).containsExactly(250, 160, 70, 10);
  }

  @Test
  void next_whenPoisson_hasTheRequestedMeanRate() {
    ArrivalSchedule schedule = new ArrivalSchedule(1000, ArrivalSchedule.Arrivals.POISSON, 42, 0);
    long last = 0;
    for (int i = 0; i < 100_000; i++) {
      last = schedule.next();
    }
    // 100000 arrivals at 1000/s take about 100 s; the mean gap's standard error is 0.3%.
    assertThat(last / 1e9).isCloseTo(100, within(2.0));
  }

  @Test
  void utilisation_whenHandComputed_isCpuOverWallTimesCores() {
    assertThat(ClientCpu.utilisation(3_000, 2_000, 2)).isEqualTo(0.75);
  }
}
