package io.racs.bench.object.run;

import io.racs.bench.stats.Estimate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One measured point: a target under one workload, size, client count and injected delay, with its
 * measured iterations (warmup ones are not kept).
 */
public final class PointResult {
  /** The target's name. */
  public final String target;

  /** {@code repository} or {@code endpoint}. */
  public final String targetKind;

  /** The workload as configured. */
  public final Workload workload;

  /** The injected round-trip delay. */
  public final Duration delay;

  /** Measured iterations, in order. */
  public final List<IterationResult> iterations = new ArrayList<>();

  /** Things the reader must know about this point (invalid windows, exhausted pools, ...). */
  public final List<String> notes = new ArrayList<>();

  /** The confidence level of this point's intervals. */
  public final double confidence;

  /** A point with no iterations yet, whose intervals are at {@link Estimate#CONFIDENCE}. */
  public PointResult(String target, String targetKind, Workload workload, Duration delay) {
    this(target, targetKind, workload, delay, Estimate.CONFIDENCE);
  }

  /** A point with no iterations yet, whose intervals are at {@code confidence}. */
  public PointResult(
      String target, String targetKind, Workload workload, Duration delay, double confidence) {
    this.target = target;
    this.targetKind = targetKind;
    this.workload = workload;
    this.delay = delay;
    this.confidence = confidence;
  }

  /** The workload label: an operation or {@code mixed}. */
  public String workloadLabel() {
    return workload.mix().label();
  }

  /** The stable identifier of this point: {@code target/workload/size/cN/dMs}. */
  public String id() {
    return String.format(
        Locale.ROOT,
        "%s/%s/%s/c%d/d%dms%s",
        target,
        workloadLabel(),
        workload.size().label(),
        workload.clients(),
        delay.toMillis(),
        workload.openLoop()
            ? String.format(Locale.ROOT, "/r%.0f", workload.rateOpsPerSecond())
            : "");
  }

  /** The valid iterations: those whose window holds a measurement. */
  public List<IterationResult> validIterations() {
    return iterations.stream().filter(IterationResult::isValid).toList();
  }

  /**
   * What the reader must know when the point has measured iterations but no valid one, and so no
   * throughput: why its first iteration was excluded (the notes list every iteration's reason).
   */
  public java.util.Optional<String> warning() {
    if (iterations.isEmpty() || !validIterations().isEmpty()) {
      return java.util.Optional.empty();
    }
    return java.util.Optional.of(
        "no throughput: every iteration ("
            + iterations.size()
            + ") was excluded; iteration 1: "
            + iterations.getFirst().invalidReason);
  }

  /** Successful requests per second over iterations, or empty when none is valid. */
  public java.util.Optional<Estimate> opsPerSecond() {
    List<IterationResult> valid = validIterations();
    if (valid.isEmpty()) {
      return java.util.Optional.empty();
    }
    return java.util.Optional.of(
        Estimate.atConfidence(
            confidence, valid.stream().mapToDouble(IterationResult::opsPerSecond).toArray()));
  }

  /** Megabytes per second over iterations, or empty when none is valid. */
  public java.util.Optional<Estimate> megabytesPerSecond() {
    List<IterationResult> valid = validIterations();
    if (valid.isEmpty()) {
      return java.util.Optional.empty();
    }
    return java.util.Optional.of(
        Estimate.atConfidence(
            confidence, valid.stream().mapToDouble(IterationResult::megabytesPerSecond).toArray()));
  }

  /** Every measured iteration's counts and histograms, added exactly. */
  public IterationResult merged() {
    IterationResult all = new IterationResult();
    for (IterationResult i : iterations) {
      all.add(i);
    }
    return all;
  }

  /** The highest client CPU utilisation over iterations (NaN when unknown). */
  public double maxCpuUtilisation() {
    return max(iterations.stream().mapToDouble(i -> i.cpuUtilisation));
  }

  /** The highest CPU pressure over iterations (NaN when unknown). */
  public double maxCpuPressure() {
    return max(iterations.stream().mapToDouble(i -> i.cpuPressure));
  }

  private static double max(java.util.stream.DoubleStream values) {
    return values.filter(d -> !Double.isNaN(d)).max().orElse(Double.NaN);
  }
}
