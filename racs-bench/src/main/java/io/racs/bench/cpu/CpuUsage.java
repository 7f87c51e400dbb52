package io.racs.bench.cpu;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The CPU a set of processes (with their descendants) used between two samples.
 *
 * @param pids the processes sampled (their descendants counted with them)
 * @param userSeconds CPU seconds in user mode
 * @param systemSeconds CPU seconds in the kernel on the processes' behalf
 * @param contextSwitches voluntary and involuntary context switches of their live threads
 * @param threadGroupSeconds the same CPU by thread group ({@code jit}, {@code gc}, {@code
 *     eventLoop}, {@code forkJoin}, {@code other}) and {@code unattributed}: the CPU of threads
 *     that ended between the samples, which only their process's total keeps (give or take a few
 *     ticks: threads are read one after another)
 */
public record CpuUsage(
    List<Long> pids,
    double userSeconds,
    double systemSeconds,
    long contextSwitches,
    Map<String, Double> threadGroupSeconds) {
  /** Copies the groups, in their order. */
  public CpuUsage {
    pids = List.copyOf(pids);
    threadGroupSeconds = Collections.unmodifiableMap(new LinkedHashMap<>(threadGroupSeconds));
  }

  /** User and system seconds together. */
  public double totalSeconds() {
    return userSeconds + systemSeconds;
  }
}
