package io.racs.bench.object.run;

import io.racs.bench.object.workload.Op;
import io.racs.bench.stats.MeasurementWindow;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One client's measurements during an iteration: requests the window already includes are recorded
 * at once into the client's own histograms (no sharing, no locks); undecided ones are kept aside
 * and settled by {@link #settle(MeasurementWindow)} once the window closes. Every completed
 * request, in the window or not, goes into {@link IterationResult#requests}.
 */
final class ClientRecorder {
  /** One completed request. */
  record Sample(
      Op op,
      long startNanos,
      long completionNanos,
      long latencyNanos,
      long correctedNanos,
      long ttfbNanos,
      long bytes,
      boolean verified,
      String error,
      boolean expectedMiss) {}

  final IterationResult result = new IterationResult();
  private final List<Sample> undecided = new ArrayList<>();
  private final long originNanos;
  private final boolean perOp;

  ClientRecorder(long originNanos, boolean perOp) {
    this.originNanos = originNanos;
    this.perOp = perOp;
  }

  void accept(Sample sample, MeasurementWindow.Decision decision) {
    result.requests.recordValue(Math.max(0, sample.latencyNanos()));
    switch (decision) {
      case INCLUDE -> record(sample);
      case UNDECIDED -> undecided.add(sample);
      case EXCLUDE -> {}
    }
  }

  void settle(MeasurementWindow window) {
    for (Sample s : undecided) {
      if (window.includes(s.completionNanos())) {
        record(s);
      }
    }
    undecided.clear();
  }

  private void record(Sample s) {
    IterationResult r = result;
    if (s.expectedMiss()) {
      r.expectedMisses.merge(s.op().label(), 1L, Long::sum);
      return;
    }
    if (s.error() != null) {
      r.errors.merge(s.error(), 1L, Long::sum);
      return;
    }
    r.ops++;
    r.bytes += s.bytes();
    if (s.verified()) {
      r.verified++;
    }
    r.latency.recordValue(Math.max(0, s.latencyNanos()));
    if (s.correctedNanos() >= 0) {
      r.corrected.recordValue(s.correctedNanos());
    }
    if (s.ttfbNanos() >= 0) {
      r.ttfb.recordValue(s.ttfbNanos());
    }
    if (perOp) {
      r.perOp
          .computeIfAbsent(s.op(), o -> IterationResult.newHistogram())
          .recordValue(Math.max(0, s.latencyNanos()));
    }
    int slice =
        (int) Math.max(0, (s.completionNanos() - originNanos) / IterationResult.SLICE_NANOS);
    if (slice >= r.sliceOps.length) {
      int length = Math.max(slice + 1, r.sliceOps.length * 2);
      r.sliceOps = Arrays.copyOf(r.sliceOps, length);
      r.sliceBytes = Arrays.copyOf(r.sliceBytes, length);
    }
    r.sliceOps[slice]++;
    r.sliceBytes[slice] += s.bytes();
  }
}
