package io.racs.bench.cpu;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The CPU of processes over time: a line per sample, {@code EPOCH_SECONDS CPU_SECONDS} (user and
 * system of the processes and their descendants since the first sample), so that the CPU spent
 * between any two instants of their run can be read afterwards ({@link #between}), such as over a
 * load generator's own measurement window, which only its output tells.
 */
public final class CpuTrace {
  private final double[] epochSeconds;
  private final double[] cpuSeconds;

  private CpuTrace(double[] epochSeconds, double[] cpuSeconds) {
    this.epochSeconds = epochSeconds;
    this.cpuSeconds = cpuSeconds;
  }

  /**
   * Samples {@code sampler}'s processes every {@code every} into {@code out} until none of them is
   * running any more (the last line is the last sample taken while one still ran).
   */
  public static void record(ProcessCpu sampler, Duration every, Path out)
      throws IOException, InterruptedException {
    try (BufferedWriter writer = Files.newBufferedWriter(out)) {
      ProcessCpu.Sample first = sampler.sample();
      while (true) {
        double now = System.currentTimeMillis() / 1000.0;
        CpuUsage usage = ProcessCpu.between(first, sampler.sample());
        // A sample taken as the last process ended may miss its CPU: the trace ends before it.
        if (!sampler.anyRunning()) {
          return;
        }
        writer.write(String.format(Locale.ROOT, "%.4f %.2f%n", now, usage.totalSeconds()));
        writer.flush();
        Thread.sleep(every);
      }
    }
  }

  /**
   * Reads a trace {@link #record} wrote.
   *
   * @throws IllegalArgumentException when the file is missing or a line is not two numbers
   */
  public static CpuTrace read(Path file) {
    List<String> lines;
    try {
      lines = Files.readAllLines(file);
    } catch (IOException e) {
      throw new IllegalArgumentException(file + ": no CPU trace (" + e.getMessage() + ")");
    }
    List<double[]> rows = new ArrayList<>();
    for (String line : lines) {
      if (line.isBlank()) {
        continue;
      }
      String[] fields = line.trim().split("\\s+");
      try {
        rows.add(new double[] {Double.parseDouble(fields[0]), Double.parseDouble(fields[1])});
      } catch (NumberFormatException | ArrayIndexOutOfBoundsException e) {
        throw new IllegalArgumentException(
            file + ": " + line + " (expected: EPOCH_SECONDS CPU_SECONDS)");
      }
    }
    double[] t = new double[rows.size()];
    double[] c = new double[rows.size()];
    for (int i = 0; i < t.length; i++) {
      t[i] = rows.get(i)[0];
      c[i] = rows.get(i)[1];
    }
    return new CpuTrace(t, c);
  }

  /** The CPU seconds spent from {@code from} to {@code to} (epoch seconds). */
  public double between(double from, double to) {
    return at(to) - at(from);
  }

  /**
   * The CPU seconds at {@code epoch}, interpolated between the samples around it.
   *
   * @throws IllegalArgumentException when no two samples enclose it
   */
  public double at(double epoch) {
    for (int i = 0; i + 1 < epochSeconds.length; i++) {
      double t0 = epochSeconds[i];
      double t1 = epochSeconds[i + 1];
      if (t0 <= epoch && epoch <= t1) {
        return t1 > t0
            ? cpuSeconds[i] + (cpuSeconds[i + 1] - cpuSeconds[i]) * (epoch - t0) / (t1 - t0)
            : cpuSeconds[i];
      }
    }
    throw new IllegalArgumentException(
        String.format(
            Locale.ROOT, "no CPU sample around %.3f (expected: inside the trace)", epoch));
  }
}
