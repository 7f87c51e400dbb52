package io.racs.bench.object.run;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Where iterations run: in this process ({@link LocalEngine}) or on remote agents. Targets are
 * addressed by their index in {@link #targets()}; key spaces by their prefix, which the engine maps
 * to its own state (an agent adds its own sub-prefix so agents never share keys).
 */
public interface Engine extends AutoCloseable {
  /** The targets' names, kinds and descriptions, in index order. */
  List<TargetInfo> targets();

  /** A target as reports show it. */
  record TargetInfo(String name, String kind, Map<String, String> description, boolean delayable) {}

  /**
   * Creates the key space {@code prefix} of {@code workload.objects()} keys and stores them; with
   * {@link Workload#prefixPerClient()}, one such key space per client of {@code workload} (the
   * largest client count of the iterations that will use it), each under its own {@code c<i>/}.
   */
  void prepare(int target, String prefix, Workload workload) throws InterruptedException;

  /** Creates the key space {@code prefix} without storing anything (PUT-only workloads). */
  void declare(int target, String prefix, Workload workload);

  /**
   * Runs one iteration on target {@code target} with {@code delay} injected (zero: none; only for
   * delayable targets).
   */
  IterationResult iterate(
      int target, String prefix, Workload workload, Duration delay, long seed, Progress progress)
      throws InterruptedException;

  /** Deletes every key of the key space {@code prefix} and forgets it. */
  void cleanUp(int target, String prefix) throws InterruptedException;

  /** Notes about the engine itself for the report (lost or slow agents), in order. */
  default List<String> notes() {
    return List.of();
  }

  @Override
  void close();
}
