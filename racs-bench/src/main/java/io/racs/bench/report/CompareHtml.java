package io.racs.bench.report;

import com.fasterxml.jackson.databind.JsonNode;
import io.racs.bench.stats.Estimate;
import io.racs.bench.stats.Ratio;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code racs bench compare --html}: one self-contained page (no scripts, no network) that puts two
 * {@code bench object} runs side by side — each run's command and time, a throughput-against-
 * clients chart per target and workload with the old and the new run as two lines (whiskers are
 * their intervals, clipped as in the report), and the table of new/old per point with its interval
 * and verdict, the same numbers {@code compare} prints.
 */
public final class CompareHtml {
  private CompareHtml() {}

  /** Writes the page comparing {@code old} (read from {@code oldName}) and {@code current}. */
  public static void write(
      JsonNode old, String oldName, JsonNode current, String currentName, Path file)
      throws IOException {
    Files.writeString(file, render(old, oldName, current, currentName));
  }

  /** The page's HTML. */
  public static String render(JsonNode old, String oldName, JsonNode current, String currentName) {
    Map<String, JsonNode> before = Compare.byId(old);
    Map<String, JsonNode> after = Compare.byId(current);
    String ci =
        Format.percent(current.path("plan").path("confidence").asDouble(Estimate.CONFIDENCE))
            + " CI";
    StringBuilder h = new StringBuilder();
    h.append("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>racs bench compare")
        .append("</title>\n<style>body{font-family:sans-serif;margin:2em}table{border-collapse:")
        .append("collapse}td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}")
        .append("td:first-child,th:first-child{text-align:left}svg{margin:4px}")
        .append(".faster{color:#1a7f37}.slower{color:#cf222e}</style></head><body>\n")
        .append("<h1>racs bench compare</h1>\n<table><tr><th>run</th><th>file</th>")
        .append("<th>started</th><th>command</th></tr>\n");
    run(h, "old", oldName, old);
    run(h, "new", currentName, current);
    h.append("</table>\n<h2>Throughput against clients</h2>\n");
    // One chart per target and case, its points by client count: {old, new} (old may be null).
    Map<String, List<JsonNode[]>> cases = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> e : after.entrySet()) {
      JsonNode b = e.getValue();
      String caseName =
          b.path("target").asText()
              + " "
              + b.path("workload").asText()
              + " "
              + b.path("size").asText()
              + " delay "
              + b.path("delayMillis").asLong()
              + "ms";
      cases
          .computeIfAbsent(caseName, k -> new ArrayList<>())
          .add(new JsonNode[] {before.get(e.getKey()), b});
    }
    for (Map.Entry<String, List<JsonNode[]>> c : cases.entrySet()) {
      List<JsonNode[]> pairs = c.getValue();
      SvgChart chart =
          new SvgChart(c.getKey(), "clients", "ops/s (mean, " + ci + ")")
              .clientTicks(pairs.stream().mapToInt(p -> p[1].path("clients").asInt()).toArray());
      chart.add(series("old", pairs, 0));
      chart.add(series("new", pairs, 1));
      h.append(HtmlReport.chartOrNote(chart));
    }
    h.append("<h2>Points</h2>\n<table><tr><th>point</th><th>metric</th><th>old</th>")
        .append("<th>new</th><th>new/old</th><th>")
        .append(ci)
        .append("</th><th>verdict</th></tr>\n");
    for (Map.Entry<String, JsonNode> e : after.entrySet()) {
      JsonNode a = before.get(e.getKey());
      if (a == null) {
        continue;
      }
      for (String metric : new String[] {"opsPerSecond", "megabytesPerSecond"}) {
        JsonNode ea = a.path("throughput").path(metric);
        JsonNode eb = e.getValue().path("throughput").path(metric);
        String label = metric.equals("opsPerSecond") ? "ops/s" : "MB/s";
        if (!ea.isObject() || !eb.isObject()) {
          row(
              h,
              e.getKey(),
              label,
              ea.isObject() ? Format.estimate(Compare.estimate(ea)) : "none",
              eb.isObject() ? Format.estimate(Compare.estimate(eb)) : "none",
              "n/a",
              "n/a",
              "no throughput in one run");
          continue;
        }
        Estimate oldE = Compare.estimate(ea);
        Estimate newE = Compare.estimate(eb);
        Ratio r = Ratio.of(newE, oldE);
        row(
            h,
            e.getKey(),
            label,
            Format.estimate(oldE),
            Format.estimate(newE),
            Format.number(r.value()),
            Double.isNaN(r.halfWidth())
                ? "n/a"
                : Format.number(r.low()) + " – " + Format.number(r.high()),
            r.verdict(true));
      }
    }
    h.append("</table>\n");
    List<String> onlyOld = new ArrayList<>(before.keySet());
    onlyOld.removeAll(after.keySet());
    List<String> onlyNew = new ArrayList<>(after.keySet());
    onlyNew.removeAll(before.keySet());
    unmatched(h, "Only in the old run", onlyOld);
    unmatched(h, "Only in the new run", onlyNew);
    h.append("</body></html>\n");
    return h.toString();
  }

  private static void run(StringBuilder h, String label, String name, JsonNode root) {
    List<String> command = new ArrayList<>();
    root.path("command").forEach(c -> command.add(c.asText()));
    h.append("<tr><td>")
        .append(label)
        .append("</td><td>")
        .append(Format.html(name))
        .append("</td><td>")
        .append(Format.html(root.path("startedAt").asText("?")))
        .append("</td><td style=\"text-align:left\"><code>")
        .append(Format.html(String.join(" ", command)))
        .append("</code></td></tr>\n");
  }

  /** One run's ops/s against clients; {@code side} 0 is the old run, 1 the new. */
  private static SvgChart.Series series(String name, List<JsonNode[]> pairs, int side) {
    TreeMap<Integer, Estimate> byClients = new TreeMap<>();
    for (JsonNode[] pair : pairs) {
      JsonNode p = pair[side];
      if (p == null) {
        continue;
      }
      JsonNode e = p.path("throughput").path("opsPerSecond");
      if (e.isObject()) {
        byClients.put(p.path("clients").asInt(), Compare.estimate(e));
      }
    }
    double[] x = new double[byClients.size()];
    double[] y = new double[x.length];
    double[] err = new double[x.length];
    int i = 0;
    for (Map.Entry<Integer, Estimate> e : byClients.entrySet()) {
      x[i] = e.getKey();
      y[i] = e.getValue().mean();
      err[i] = e.getValue().halfWidth();
      i++;
    }
    return new SvgChart.Series(name, x, y, err);
  }

  private static void row(StringBuilder h, String... cells) {
    h.append("<tr>");
    for (int i = 0; i < cells.length; i++) {
      boolean verdict = i == cells.length - 1;
      h.append(
              verdict && (cells[i].equals("faster") || cells[i].equals("slower"))
                  ? "<td class=\"" + cells[i] + "\">"
                  : "<td>")
          .append(Format.html(cells[i]))
          .append("</td>");
    }
    h.append("</tr>\n");
  }

  private static void unmatched(StringBuilder h, String title, List<String> ids) {
    if (ids.isEmpty()) {
      return;
    }
    h.append("<h2>").append(title).append("</h2><ul>");
    ids.forEach(id -> h.append("<li>").append(Format.html(id)).append("</li>"));
    h.append("</ul>\n");
  }
}
