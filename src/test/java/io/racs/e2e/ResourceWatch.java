package io.racs.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Samples a process's threads and connections ({@link ProcessResources}) every {@link #PERIOD}
 * while a fault scenario runs, filed under the phase it is in (healthy, then the fault), and after
 * the fault has cleared checks that they came back: every count at most the most seen while healthy
 * plus a slack, within a deadline. A stream never closed, a thread never ended, stays.
 */
final class ResourceWatch implements AutoCloseable {
  static final Duration PERIOD = Duration.ofMillis(100);

  /**
   * Threads the process may hold beyond the healthy most: the JDK's own come and go (the virtual
   * threads' carriers, the common pool, the SDK's reaper).
   */
  static final int THREAD_SLACK = 6;

  /**
   * Connections per link beyond the healthy most. The pool keeps what a fault made it open until
   * its reaper closes them, 60 s after their last use, and the background work (probes, scrub,
   * listings) keeps using some of them after the load stopped: CI saw 16 on a link whose healthy
   * most was 12, 75 s on. A leak is larger: with the abort of a stream closed early taken out, 41
   * to 51 per link against a healthy 12 to 18, and 286 socket descriptors against 101.
   */
  static final int CONNECTION_SLACK = 10;

  private final long pid;
  private final List<Integer> ports;
  private final Map<String, List<ProcessResources>> phases = new LinkedHashMap<>();
  private final ScheduledExecutorService sampler =
      Executors.newSingleThreadScheduledExecutor(r -> Thread.ofPlatform().daemon().unstarted(r));
  private volatile String phase = "healthy";

  private ResourceWatch(long pid, List<Integer> ports) {
    this.pid = pid;
    this.ports = List.copyOf(ports);
  }

  /**
   * Starts sampling the Java process of launcher {@code pid} ({@link ProcessResources#javaOf}), its
   * connections to {@code ports}, as healthy.
   */
  static ResourceWatch start(long pid, List<Integer> ports) {
    ResourceWatch watch = new ResourceWatch(ProcessResources.javaOf(pid), ports);
    watch.sampler.scheduleAtFixedRate(watch::sample, 0, PERIOD.toMillis(), TimeUnit.MILLISECONDS);
    return watch;
  }

  private void sample() {
    ProcessResources now = ProcessResources.of(pid, ports);
    synchronized (phases) {
      phases.computeIfAbsent(phase, p -> new ArrayList<>()).add(now);
    }
  }

  /** Files later samples under {@code name}. */
  void phase(String name) {
    sample(); // the phase's first sample is the moment it began
    phase = name;
    sample();
  }

  /** The most of each count seen in {@code name}. */
  ProcessResources most(String name) {
    synchronized (phases) {
      List<ProcessResources> samples = phases.get(name);
      assertThat(samples).as("samples of phase %s", name).isNotEmpty();
      return ProcessResources.max(samples);
    }
  }

  /**
   * Stops sampling, then waits up to {@code limit} for every count to come back within the slack of
   * the healthy most; fails, naming the counts, when one does not. Returns the line to print.
   */
  String assertReturnedToHealthy(String name, Duration limit) throws InterruptedException {
    close();
    ProcessResources healthy = most("healthy");
    ProcessResources during = most("fault");
    long deadline = System.nanoTime() + limit.toNanos();
    long began = System.nanoTime();
    ProcessResources after = ProcessResources.of(pid, ports);
    List<String> excess = after.excessOver(healthy, THREAD_SLACK, CONNECTION_SLACK);
    while (!excess.isEmpty() && System.nanoTime() - deadline < 0) {
      TimeUnit.MILLISECONDS.sleep(PERIOD.toMillis()); // a poll period, not a synchronisation
      after = ProcessResources.of(pid, ports);
      excess = after.excessOver(healthy, THREAD_SLACK, CONNECTION_SLACK);
    }
    String line =
        name
            + " resources: healthy most ("
            + healthy
            + "); during the fault most ("
            + during
            + "); after ("
            + after
            + ") "
            + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began)
            + " ms after the load stopped";
    System.out.println(line);
    assertThat(excess).as("leak after the fault cleared: %s", line).isEmpty();
    return line;
  }

  /** Stops sampling (at once: a sample in progress is let finish). */
  @Override
  public void close() {
    sampler.shutdownNow();
  }
}
