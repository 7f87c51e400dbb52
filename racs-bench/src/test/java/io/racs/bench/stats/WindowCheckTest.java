package io.racs.bench.stats;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Proves on hand-computed cases that a window shorter than a median request is invalid with a
 * reason a user can act on, that a short window of many fast requests (a {@code --count} run) is
 * valid, and replays the 64 MiB PUT iteration that read as thousands of operations per second.
 */
class WindowCheckTest {
  private static final long MS = 1_000_000L;
  private static final long S = 1_000_000_000L;

  @Test
  void invalidReason_whenWindowShorterThanMedianRequest_isInvalidAndSaysWhatToRaise() {
    assertThat(WindowCheck.invalidReason(true, 300 * MS, 6_100 * MS, "--duration"))
        .hasValue("window 0.3 s shorter than a request (p50 6.1 s): raise --duration");
    assertThat(WindowCheck.invalidReason(true, 77_000, 6_100 * MS, "--count"))
        .hasValue("window 77 µs shorter than a request (p50 6.1 s): raise --count");
  }

  @Test
  void invalidReason_whenWindowHoldsAMedianRequestOrMore_isValid() {
    // Exactly one median request long: the shortest window that can estimate a rate.
    assertThat(WindowCheck.invalidReason(true, 6_100 * MS, 6_100 * MS, "--duration")).isEmpty();
    assertThat(WindowCheck.invalidReason(true, 5 * S, 6_100 * MS, "--duration")).isPresent();
    // A --count run of 200 requests of 5 µs per client: a 1 ms window is 200 requests long.
    assertThat(WindowCheck.invalidReason(true, MS, 5_000, "--count")).isEmpty();
  }

  @Test
  void invalidReason_whenWindowHasNoLength_isInvalidEvenWithInstantRequests() {
    assertThat(WindowCheck.invalidReason(true, 0, 0, "--duration"))
        .hasValue("window 0 µs shorter than a request (p50 0 µs): raise --duration");
  }

  @Test
  void invalidReason_whenNoWindow_saysWhetherAnyRequestCompleted() {
    assertThat(WindowCheck.invalidReason(false, 0, 6_100 * MS, "--duration"))
        .hasValue(
            "no window: a client stopped before every client had completed a request"
                + " (p50 6.1 s): raise --duration");
    assertThat(WindowCheck.invalidReason(false, 0, -1, "--count"))
        .hasValue("no window: no request completed: raise --count");
  }

  @Test
  void duration_picksAUnitPeopleRead() {
    assertThat(WindowCheck.duration(6_149 * MS)).isEqualTo("6.1 s");
    assertThat(WindowCheck.duration(100 * MS)).isEqualTo("0.1 s");
    assertThat(WindowCheck.duration(12_500_000)).isEqualTo("12.5 ms");
    assertThat(WindowCheck.duration(77_400)).isEqualTo("77 µs");
  }

  @Test
  void invalidReason_whenEightClientsEachCompleteOneLongRequest_rejectsTheTinyWindow() {
    // 64 MiB PUTs, 8 clients, a 5 s iteration: every client's first request completes at about
    // 6.1 s, after the deadline, so each stops after it. The completions land 10 µs apart and
    // client 0 stops 150 µs after its own completion, after the other seven completed.
    AtomicLong clock = new AtomicLong();
    MeasurementWindow w = new MeasurementWindow(8, clock::get);
    long first = 6_100 * MS;
    for (int c = 0; c < 8; c++) {
      w.firstCompletion(c, first + c * 10_000L);
    }
    clock.set(first + 150_000);
    w.clientStopped(0);
    for (int c = 1; c < 8; c++) {
      clock.set(first + 150_000 + c * 10_000L);
      w.clientStopped(c);
    }
    w.close();
    // The window exists, [6.10007 s, 6.10015 s], and holds client 7's completion: 1 request in
    // 80 µs would read as 12 500 ops/s.
    assertThat(w.isValid()).isTrue();
    assertThat(w.endNanos() - w.startNanos()).isEqualTo(80_000);
    int included = 0;
    for (int c = 0; c < 8; c++) {
      included += w.includes(first + c * 10_000L) ? 1 : 0;
    }
    assertThat(included).isEqualTo(1);
    assertThat(1 / w.seconds()).isEqualTo(12_500.0, org.assertj.core.data.Offset.offset(1e-6));
    assertThat(WindowCheck.invalidReason(true, w.endNanos() - w.startNanos(), first, "--duration"))
        .hasValue("window 80 µs shorter than a request (p50 6.1 s): raise --duration");
  }
}
