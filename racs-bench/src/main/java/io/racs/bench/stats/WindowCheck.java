package io.racs.bench.stats;

import java.util.Locale;
import java.util.Optional;

/**
 * Decides whether an iteration's ramp-cut window can hold a throughput measurement, and says why
 * not in words a user can act on.
 *
 * <p>The window runs from the latest first completion to the first client's stop, and both ends sit
 * on a completion: the request that opens it counts, and so does the last one the first stopping
 * client completes. When requests are longer than the window (64 MiB PUTs at 8 clients in a 5 s
 * iteration, say), the window shrinks to the gap between two completions that happen to lie close
 * together and holds one or two requests: one request over 77 µs reads as 13 000 ops/s. Counting
 * completions over a window can only estimate a rate when the window spans at least one request, so
 * a window shorter than a median request (the median of every request the iteration completed,
 * inside the window or not, so the window's own few samples do not decide) is invalid. Windows of
 * many short requests, however short in wall time (a {@code --count} run of a few hundred fast
 * requests), pass.
 */
public final class WindowCheck {
  private WindowCheck() {}

  /**
   * Why the window cannot hold a measurement, or empty when it can.
   *
   * @param exists whether every client completed a request before the first client stopped
   * @param windowNanos the window's length (ignored when it does not exist)
   * @param requestNanosP50 the median duration of the iteration's completed requests, or a negative
   *     number when none completed
   * @param knob the option that lengthens an iteration ({@code --duration} or {@code --count})
   */
  public static Optional<String> invalidReason(
      boolean exists, long windowNanos, long requestNanosP50, String knob) {
    if (!exists) {
      if (requestNanosP50 < 0) {
        return Optional.of("no window: no request completed: raise " + knob);
      }
      return Optional.of(
          "no window: a client stopped before every client had completed a request (p50 "
              + duration(requestNanosP50)
              + "): raise "
              + knob);
    }
    if (windowNanos <= 0 || windowNanos < requestNanosP50) {
      return Optional.of(
          "window "
              + duration(Math.max(0, windowNanos))
              + " shorter than a request (p50 "
              + duration(Math.max(0, requestNanosP50))
              + "): raise "
              + knob);
    }
    return Optional.empty();
  }

  /** A duration for people: {@code 6.1 s}, {@code 0.3 s}, {@code 12.5 ms}, {@code 77 µs}. */
  public static String duration(long nanos) {
    if (nanos >= 100_000_000L) {
      return String.format(Locale.ROOT, "%.1f s", nanos / 1e9);
    }
    if (nanos >= 1_000_000L) {
      return String.format(Locale.ROOT, "%.1f ms", nanos / 1e6);
    }
    return String.format(Locale.ROOT, "%.0f µs", nanos / 1e3);
  }
}
