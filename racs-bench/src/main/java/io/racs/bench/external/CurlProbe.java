package io.racs.bench.external;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Requests timed by curl one at a time ({@code -w '%{http_code} %{time_total}\n'}: a line per
 * request, its status and its seconds), summarised: their count, latency percentiles (the
 * nearest-rank sample at or above each quantile), the answers that were not 2xx, and the count by
 * status ({@code 000}: no answer).
 *
 * @param name the probe's name (its file's, without extension)
 * @param millis every request's time, sorted
 * @param statuses requests by status
 */
public record CurlProbe(String name, double[] millis, Map<String, Integer> statuses) {
  /**
   * Reads a probe file.
   *
   * @throws IllegalArgumentException when it is missing, empty, or a line is not a status and a
   *     time
   */
  public static CurlProbe read(Path file) {
    List<String> lines;
    try {
      lines = Files.readAllLines(file);
    } catch (IOException e) {
      throw new IllegalArgumentException(file + ": no probe (" + e.getMessage() + ")");
    }
    List<Double> times = new ArrayList<>();
    Map<String, Integer> statuses = new TreeMap<>();
    for (String line : lines) {
      if (line.isBlank()) {
        continue;
      }
      String[] f = line.trim().split("\\s+");
      try {
        if (f.length != 2 || !f[0].matches("\\d{3}")) {
          throw new NumberFormatException(line);
        }
        times.add(Double.parseDouble(f[1]) * 1000);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(file + ": " + line + " (expected: STATUS SECONDS)");
      }
      statuses.merge(f[0], 1, Integer::sum);
    }
    if (times.isEmpty()) {
      throw new IllegalArgumentException(file + ": no request (expected: STATUS SECONDS lines)");
    }
    double[] millis = times.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    String name = file.getFileName().toString().replaceFirst("\\.[^.]*$", "");
    return new CurlProbe(name, millis, statuses);
  }

  /** The time at quantile {@code q} (0 to 1). */
  public double percentile(double q) {
    return millis[Math.min(millis.length - 1, (int) (q * millis.length))];
  }

  /** The slowest request's time. */
  public double max() {
    return Arrays.stream(millis).max().orElseThrow();
  }

  /** The requests whose answer was not 2xx (no answer included). */
  public int errors() {
    return statuses.entrySet().stream()
        .filter(e -> !e.getKey().startsWith("2"))
        .mapToInt(Map.Entry::getValue)
        .sum();
  }
}
