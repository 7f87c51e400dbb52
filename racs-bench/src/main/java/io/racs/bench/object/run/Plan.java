package io.racs.bench.object.run;

import io.racs.bench.object.workload.Mix;
import io.racs.bench.object.workload.SizeSpec;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * A whole object benchmark run: the sweep dimensions around a template workload. Every combination
 * of workload × size × delay × clients is one case; within a case, iterations of all targets are
 * interleaved (target 1, target 2, ..., target 1, ...) so drift hits every target alike.
 *
 * @param template the workload whose mix, size and clients the sweep replaces
 * @param mixes workloads to run (an operation or a mix each)
 * @param sizes sizes to run (fixed sizes or one distribution each)
 * @param clients client counts to sweep
 * @param delays injected delays to sweep (zero first)
 * @param warmup discarded iterations per point
 * @param iterations measured iterations per point
 * @param overhead a pair of target names A/B for the overhead ratio, if any
 * @param cleanUp delete the objects a case created when it ends
 * @param confidence the confidence level of every interval the run reports (e.g. 0.999)
 */
public record Plan(
    Workload template,
    List<Mix> mixes,
    List<SizeSpec> sizes,
    List<Integer> clients,
    List<Duration> delays,
    int warmup,
    int iterations,
    Optional<String[]> overhead,
    boolean cleanUp,
    double confidence) {
  /** Checks the fields. */
  public Plan {
    mixes = List.copyOf(mixes);
    sizes = List.copyOf(sizes);
    clients = List.copyOf(clients);
    delays = List.copyOf(delays);
    if (mixes.isEmpty() || sizes.isEmpty() || clients.isEmpty() || delays.isEmpty()) {
      throw new IllegalArgumentException("plan: an empty sweep (expected: at least one of each)");
    }
    if (warmup < 0) {
      throw new IllegalArgumentException("warmup: " + warmup + " (expected: >= 0)");
    }
    if (iterations < 1) {
      throw new IllegalArgumentException("iterations: " + iterations + " (expected: >= 1)");
    }
    if (!(confidence >= 0.5 && confidence < 1)) {
      throw new IllegalArgumentException("confidence: " + confidence + " (expected: 0.5 to 1)");
    }
  }
}
