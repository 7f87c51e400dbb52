package io.racs.bench.stats;

import java.lang.management.ManagementFactory;

/**
 * This process's CPU use over an interval: process CPU time / (wall time × cores). A load generator
 * above {@link #SATURATED} measures itself as much as its target, and reports say so.
 */
public final class ClientCpu {
  /** Utilisation from which the client is flagged as saturated. */
  public static final double SATURATED = 0.85;

  private final long cpuStartNanos;
  private final long wallStartNanos;

  private ClientCpu(long cpuStartNanos, long wallStartNanos) {
    this.cpuStartNanos = cpuStartNanos;
    this.wallStartNanos = wallStartNanos;
  }

  /** Starts measuring now. */
  public static ClientCpu start() {
    return new ClientCpu(processCpuNanos(), System.nanoTime());
  }

  /** Utilisation since {@link #start()}, 0 to 1, or {@code NaN} when the JVM cannot tell. */
  public double utilisation() {
    long cpu = processCpuNanos();
    long wall = System.nanoTime() - wallStartNanos;
    if (cpu < 0 || cpuStartNanos < 0 || wall <= 0) {
      return Double.NaN;
    }
    return utilisation(cpu - cpuStartNanos, wall, Runtime.getRuntime().availableProcessors());
  }

  /** {@code cpu / (wall × cores)}. */
  public static double utilisation(long cpuNanos, long wallNanos, int cores) {
    return (double) cpuNanos / ((double) wallNanos * cores);
  }

  private static long processCpuNanos() {
    if (ManagementFactory.getOperatingSystemMXBean()
        instanceof com.sun.management.OperatingSystemMXBean os) {
      return os.getProcessCpuTime();
    }
    return -1;
  }
}
