package io.racs.bench.report;

import io.racs.bench.object.run.IterationResult;
import io.racs.bench.object.run.PointResult;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

/**
 * Writes one HdrHistogram interval log ({@code HistogramLogWriter} format) per point: one interval
 * per measured iteration, stamped with the iteration's window in wall-clock time, tagged {@code
 * latency} (and {@code corrected} for open loop, {@code ttfb} for GETs). Values are nanoseconds.
 * Logs from several hosts merge with HdrHistogram's own tools, by time.
 */
public final class HlogReport {
  private HlogReport() {}

  /** Writes the logs under {@code dir/hlog}; returns point id → path relative to {@code dir}. */
  public static Map<String, String> write(Iterable<PointResult> points, Path dir)
      throws IOException {
    Path logs = Files.createDirectories(dir.resolve("hlog"));
    Map<String, String> files = new LinkedHashMap<>();
    for (PointResult p : points) {
      String name = p.id().replaceAll("[^A-Za-z0-9._-]", "_") + ".hlog";
      try (OutputStream out = Files.newOutputStream(logs.resolve(name));
          PrintStream print = new PrintStream(out, false, StandardCharsets.UTF_8)) {
        HistogramLogWriter writer = new HistogramLogWriter(print);
        writer.outputComment("racs-bench object point " + p.id() + " (values in nanoseconds)");
        writer.outputLogFormatVersion();
        long base =
            p.iterations.isEmpty() ? 0 : p.iterations.getFirst().startEpochNanos / 1_000_000;
        writer.outputStartTime(base);
        writer.setBaseTime(base);
        writer.outputLegend();
        for (IterationResult i : p.iterations) {
          // An iteration excluded for its short window still measured the latency of the requests
          // in it, which the point's percentiles include; one without a window measured nothing.
          if (!i.isValid() && i.latency.getTotalCount() == 0) {
            continue;
          }
          long start = (i.startEpochNanos + i.windowStartNanos) / 1_000_000;
          long end = (i.startEpochNanos + i.windowEndNanos) / 1_000_000;
          interval(writer, i.latency, "latency", start, end);
          if (p.workload.openLoop()) {
            interval(writer, i.corrected, "corrected", start, end);
          }
          if (i.ttfb.getTotalCount() > 0) {
            interval(writer, i.ttfb, "ttfb", start, end);
          }
        }
      }
      files.put(p.id(), "hlog/" + name);
    }
    return files;
  }

  private static void interval(
      HistogramLogWriter writer, Histogram h, String tag, long startMillis, long endMillis) {
    Histogram copy = h.copy();
    copy.setTag(tag);
    copy.setStartTimeStamp(startMillis);
    copy.setEndTimeStamp(Math.max(startMillis, endMillis));
    writer.outputIntervalHistogram(copy);
  }
}
