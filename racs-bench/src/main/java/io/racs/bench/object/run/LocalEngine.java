package io.racs.bench.object.run;

import io.racs.bench.object.target.ArrayTarget;
import io.racs.bench.object.target.Target;
import io.racs.bench.object.workload.KeySpace;
import io.racs.bench.object.workload.KeySpaces;
import io.racs.repos.decorator.Operation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Runs iterations in this process, on virtual threads. Owns and closes its targets. A workload with
 * {@link Workload#prefixPerClient()} gets one key space per client of the workload it is prepared
 * (or declared) with, which must therefore carry the largest client count its iterations will use.
 */
public final class LocalEngine implements Engine {
  private final List<Target> targets;
  private final Map<String, KeySpaces> keySpaces = new HashMap<>();
  private final Map<String, Target> delayed = new HashMap<>();

  /** An engine over {@code targets}. */
  public LocalEngine(List<Target> targets) {
    this.targets = List.copyOf(targets);
  }

  @Override
  public List<TargetInfo> targets() {
    List<TargetInfo> infos = new ArrayList<>();
    for (Target t : targets) {
      infos.add(
          new TargetInfo(
              t.name(), t.kind(), t.describe(), t.withDelay(Duration.ofMillis(1)).isPresent()));
    }
    return infos;
  }

  private synchronized KeySpaces keySpace(int target, String prefix, Workload workload) {
    return keySpaces.computeIfAbsent(
        target + "\n" + prefix,
        k ->
            workload.prefixPerClient()
                ? KeySpaces.perClient(
                    prefix, workload.clients(), workload.objects(), workload.prefixes())
                : KeySpaces.shared(new KeySpace(prefix, workload.objects(), workload.prefixes())));
  }

  @Override
  public void prepare(int target, String prefix, Workload workload) throws InterruptedException {
    Preparer.prepare(targets.get(target), keySpace(target, prefix, workload), workload);
  }

  @Override
  public void declare(int target, String prefix, Workload workload) {
    keySpace(target, prefix, workload);
  }

  @Override
  public IterationResult iterate(
      int target, String prefix, Workload workload, Duration delay, long seed, Progress progress)
      throws InterruptedException {
    return counted(
        delayed(target, delay),
        t ->
            IterationRunner.run(
                t, keySpace(target, prefix, workload), workload, seed, 0, progress));
  }

  private interface Run {
    IterationResult run(Target target) throws InterruptedException;
  }

  /**
   * Runs one iteration on {@code target}; for an in-process array, records the repository calls it
   * made in between (what the array's store did meanwhile in the background, such as finishing an
   * earlier write on its last repositories, is counted too: a small overcount).
   */
  private static IterationResult counted(Target target, Run run) throws InterruptedException {
    if (!(target instanceof ArrayTarget array)) {
      return run.run(target);
    }
    Map<String, Map<Operation, ArrayTarget.Usage>> before = array.repositoryUsage();
    IterationResult result = run.run(target);
    array
        .repositoryUsage()
        .forEach(
            (repository, usage) ->
                usage.forEach(
                    (op, now) -> {
                      ArrayTarget.Usage was =
                          before
                              .getOrDefault(repository, Map.of())
                              .getOrDefault(op, new ArrayTarget.Usage(0, 0));
                      long calls = now.calls() - was.calls();
                      String label = op.name().toLowerCase(java.util.Locale.ROOT);
                      if (calls > 0) {
                        result.repositoryCalls.merge(label, calls, Long::sum);
                        result
                            .repositoryCallsByRepository
                            .computeIfAbsent(repository, r -> new java.util.TreeMap<>())
                            .put(label, calls);
                      }
                      if (op == Operation.GET) {
                        result.repositoryReadBytes.put(repository, now.bytes() - was.bytes());
                      }
                    }));
    return result;
  }

  /** Runs an iteration that starts at {@code startEpochNanos} (for agents). */
  public IterationResult iterateAt(
      int target,
      String prefix,
      Workload workload,
      Duration delay,
      long seed,
      long startEpochNanos,
      Progress progress)
      throws InterruptedException {
    return counted(
        delayed(target, delay),
        t ->
            IterationRunner.run(
                t, keySpace(target, prefix, workload), workload, seed, startEpochNanos, progress));
  }

  private synchronized Target delayed(int target, Duration delay) {
    Target base = targets.get(target);
    if (delay.isZero()) {
      return base;
    }
    return delayed.computeIfAbsent(
        target + "@" + delay.toNanos(),
        k -> {
          Optional<Target> t = base.withDelay(delay);
          return t.orElseThrow(
              () ->
                  new IllegalArgumentException(
                      "delay: " + delay.toMillis() + "ms on " + base.name() + " (expected: none)"));
        });
  }

  @Override
  public void cleanUp(int target, String prefix) throws InterruptedException {
    KeySpaces keys;
    synchronized (this) {
      keys = keySpaces.remove(target + "\n" + prefix);
    }
    if (keys != null) {
      Preparer.cleanUp(targets.get(target), keys);
    }
  }

  @Override
  public void close() {
    for (Target t : delayed.values()) {
      t.close();
    }
    for (Target t : targets) {
      t.close();
    }
  }
}
