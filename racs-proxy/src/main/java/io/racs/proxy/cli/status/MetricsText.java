package io.racs.proxy.cli.status;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The samples of a Prometheus text exposition ({@code /metrics}), read as far as {@code racs
 * status} needs: each line {@code name{label="value",...} number}; comments and blank lines are
 * skipped, and a line it cannot read is skipped too (a newer proxy may add kinds of line).
 */
final class MetricsText {
  /** One sample. */
  record Sample(String name, Map<String, String> labels, double value) {}

  private static final Pattern LINE =
      Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)\\})?\\s+(\\S+)(?:\\s+\\S+)?");
  private static final Pattern LABEL =
      Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

  private final List<Sample> samples;

  private MetricsText(List<Sample> samples) {
    this.samples = samples;
  }

  static MetricsText parse(String text) {
    List<Sample> samples = new ArrayList<>();
    for (String line : text.lines().toList()) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      Matcher m = LINE.matcher(line.strip());
      if (!m.matches()) {
        continue;
      }
      double value;
      try {
        value = Double.parseDouble(m.group(3));
      } catch (NumberFormatException e) {
        continue;
      }
      Map<String, String> labels = new LinkedHashMap<>();
      if (m.group(2) != null) {
        Matcher l = LABEL.matcher(m.group(2));
        while (l.find()) {
          labels.put(l.group(1), l.group(2).replace("\\\"", "\"").replace("\\\\", "\\"));
        }
      }
      samples.add(new Sample(m.group(1), labels, value));
    }
    return new MetricsText(samples);
  }

  /** The sum of the samples called {@code name} whose labels include {@code match}. */
  double sum(String name, Map<String, String> match) {
    double sum = 0;
    for (Sample s : samples) {
      if (s.name().equals(name) && s.labels().entrySet().containsAll(match.entrySet())) {
        sum += s.value();
      }
    }
    return sum;
  }

  /**
   * The {@code q} quantile (0 to 1) of the histogram {@code name} over the series whose labels
   * include {@code match} (their buckets summed), as the upper bound of the bucket it falls in; NaN
   * when the histogram holds no observation.
   */
  double quantile(String name, Map<String, String> match, double q) {
    TreeMap<Double, Double> cumulative = new TreeMap<>();
    for (Sample s : samples) {
      if (s.name().equals(name + "_bucket")
          && s.labels().entrySet().containsAll(match.entrySet())
          && s.labels().containsKey("le")) {
        String le = s.labels().get("le");
        double bound = le.equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(le);
        cumulative.merge(bound, s.value(), Double::sum);
      }
    }
    if (cumulative.isEmpty()) {
      return Double.NaN;
    }
    double total = cumulative.lastEntry().getValue();
    if (total <= 0) {
      return Double.NaN;
    }
    for (Map.Entry<Double, Double> bucket : cumulative.entrySet()) {
      if (bucket.getValue() >= q * total) {
        return bucket.getKey();
      }
    }
    return Double.POSITIVE_INFINITY;
  }
}
