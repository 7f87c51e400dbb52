package io.racs.bench.stats;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * This process's CPU use over an interval: process CPU time / (wall time × cores). A load generator
 * above {@link #SATURATED} measures itself as much as its target, and reports say so.
 *
 * <p>Beside it, the machine's CPU pressure over the same interval: the share of the wall time in
 * which at least one runnable task waited for a core (Linux pressure stall information, the "some"
 * line of {@code /proc/pressure/cpu}). Utilisation says how much of the cores was used; pressure
 * says whether work queued for them, which is what "the CPU saturates" means for a run whose
 * throughput stops growing with its clients.
 */
public final class ClientCpu {
  /** Utilisation from which the client is flagged as saturated. */
  public static final double SATURATED = 0.85;

  private static final Path PRESSURE = Path.of("/proc/pressure/cpu");

  private final long cpuStartNanos;
  private final long wallStartNanos;
  private final long stallStartMicros;

  private ClientCpu(long cpuStartNanos, long wallStartNanos, long stallStartMicros) {
    this.cpuStartNanos = cpuStartNanos;
    this.wallStartNanos = wallStartNanos;
    this.stallStartMicros = stallStartMicros;
  }

  /** Starts measuring now. */
  public static ClientCpu start() {
    return new ClientCpu(processCpuNanos(), System.nanoTime(), stallMicros(PRESSURE));
  }

  /**
   * The share of the wall time since {@link #start()} in which some runnable task on this machine
   * waited for a core, 0 to 1, or {@code NaN} where the kernel does not tell (not Linux, or no
   * pressure stall information).
   */
  public double pressure() {
    long stall = stallMicros(PRESSURE);
    long wall = System.nanoTime() - wallStartNanos;
    if (stall < 0 || stallStartMicros < 0 || wall <= 0) {
      return Double.NaN;
    }
    return Math.min(1, (stall - stallStartMicros) * 1000.0 / wall);
  }

  /**
   * The "some" total of a pressure file (microseconds in which some task stalled, since boot), or
   * -1 when the file is missing or not in the kernel's format.
   */
  static long stallMicros(Path file) {
    try {
      for (String line : Files.readAllLines(file)) {
        if (line.startsWith("some ")) {
          for (String field : line.split(" ")) {
            if (field.startsWith("total=")) {
              return Long.parseLong(field.substring("total=".length()));
            }
          }
        }
      }
      return -1;
    } catch (IOException | NumberFormatException e) {
      return -1;
    }
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
