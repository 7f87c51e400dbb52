package io.racs.proxy.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Keeps the Grafana dashboard shipped in {@code docker/grafana/racs-dashboard.json} in step with
 * what a proxy exposes: every metric a panel queries has a {@code # TYPE} line in a real proxy's
 * {@code /metrics} (a histogram's {@code _bucket} by its own name), and every label a query groups
 * or filters by is a label of that metric's samples (Prometheus's own {@code instance} and {@code
 * le} aside), and is in {@link MetricFamiliesTest}'s golden list. A renamed metric or label fails
 * here rather than leaving an empty panel.
 */
class DashboardMetricsTest {
  private static final Pattern METRIC = Pattern.compile("\\b(racs_[a-z_]+)\\b(\\{[^}]*\\})?");
  private static final Pattern BY = Pattern.compile("by \\(([^)]*)\\) \\(rate\\((racs_[a-z_]+)");
  private static final Pattern MATCHER = Pattern.compile("([a-z_]+)\\s*(?:=~|!=|=)");
  private static final Set<String> PROMETHEUS_LABELS = Set.of("instance", "le");

  @TempDir Path dir;

  @Test
  void everyQueriedMetricAndLabel_isOneTheProxyExposes() throws Exception {
    String exposition = MetricFamiliesTest.scrape(dir, new String[] {null}).getFirst().body();
    Set<String> typed = new HashSet<>();
    Map<String, Set<String>> labels = new HashMap<>();
    for (String line : exposition.lines().toList()) {
      if (line.startsWith("# TYPE ")) {
        typed.add(line.split(" ")[2]);
      } else if (!line.startsWith("#") && !line.isBlank()) {
        String name = line.split("[{ ]")[0];
        Set<String> keys = labels.computeIfAbsent(name, n -> new HashSet<>());
        Matcher m = Pattern.compile("([a-z_]+)=\"").matcher(line);
        while (m.find()) {
          keys.add(m.group(1));
        }
      }
    }
    List<String> problems = new ArrayList<>();
    for (String expr : expressions()) {
      Matcher m = METRIC.matcher(expr);
      while (m.find()) {
        String name = m.group(1);
        String family = name.replaceAll("_(bucket|sum|count)$", "");
        if (!typed.contains(name) && !typed.contains(family)) {
          problems.add(name + " is not exposed (in: " + expr + ")");
          continue;
        }
        if (m.group(2) != null) {
          Matcher l = MATCHER.matcher(m.group(2));
          while (l.find()) {
            checkLabel(name, l.group(1), labels, expr, problems);
          }
        }
      }
      Matcher by = BY.matcher(expr);
      while (by.find()) {
        for (String label : by.group(1).split(",\\s*")) {
          checkLabel(by.group(2), label.strip(), labels, expr, problems);
        }
      }
    }
    assertThat(problems).isEmpty();
    assertThat(expressions()).hasSizeGreaterThan(10);
  }

  @Test
  void everyQueriedMetric_isInTheGoldenList() throws Exception {
    Set<String> golden = new HashSet<>(MetricFamiliesTest.GOLDEN.keySet());
    golden.addAll(MetricFamiliesTest.COORDINATION.keySet());
    List<String> problems = new ArrayList<>();
    for (String expr : expressions()) {
      Matcher m = METRIC.matcher(expr);
      while (m.find()) {
        String name = m.group(1);
        if (!golden.contains(name)
            && !golden.contains(name.replaceAll("_(bucket|sum|count)$", ""))) {
          problems.add(name + " is not in MetricFamiliesTest.GOLDEN (in: " + expr + ")");
        }
      }
    }
    assertThat(problems).isEmpty();
  }

  private static void checkLabel(
      String metric,
      String label,
      Map<String, Set<String>> labels,
      String expr,
      List<String> problems) {
    if (PROMETHEUS_LABELS.contains(label)) {
      return;
    }
    Set<String> has = labels.get(metric);
    if (has == null) {
      return; // no sample in this scrape (no error of that kind yet): its name was checked
    }
    if (!has.contains(label)) {
      problems.add(metric + " has no label " + label + " (has " + has + "; in: " + expr + ")");
    }
  }

  /** Every panel target's PromQL, and the instance variable's query. */
  private static List<String> expressions() throws Exception {
    JsonNode dashboard = new ObjectMapper().readTree(Files.readString(dashboardFile()));
    List<String> out = new ArrayList<>();
    for (JsonNode panel : dashboard.path("panels")) {
      for (JsonNode target : panel.path("targets")) {
        out.add(target.path("expr").asText());
      }
    }
    for (JsonNode variable : dashboard.path("templating").path("list")) {
      if (variable.path("type").asText().equals("query")) {
        out.add(variable.path("query").asText());
      }
    }
    return out;
  }

  private static Path dashboardFile() {
    Path dir = Path.of("").toAbsolutePath();
    while (dir != null && !Files.exists(dir.resolve("docker/grafana/racs-dashboard.json"))) {
      dir = dir.getParent();
    }
    assertThat(dir).as("docker/grafana/racs-dashboard.json above the test's directory").isNotNull();
    return dir.resolve("docker/grafana/racs-dashboard.json");
  }
}
