package io.racs.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.bench.cli.BenchMain;
import io.racs.proxy.cli.ExitCodes;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Proves in a real browser (headless Chromium) that the demo's report and a comparison page render
 * as a reader sees them: no script error, and every chart draws its data inside its box, its
 * highest point well above the bottom — never an empty chart, nor lines squashed flat by an axis
 * scaled to something else than the data. The demo runs once, in this JVM, exactly as {@code racs
 * demo --no-wait} does (with 1 s iterations); the comparison page compares its results with
 * themselves. A fixture page with a failing script, an empty chart and a flat one proves the probe
 * catches each. A run of the in-process array shows its repository requests per client operation
 * and the cost table as a reader sees them.
 */
class ReportBrowserIT {
  @TempDir static Path dir;
  private static Path report;

  @BeforeAll
  static void runTheDemo() {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code =
        BenchMain.run(
            new PrintWriter(out, true),
            new PrintWriter(err, true),
            "demo",
            "--dir",
            dir.resolve("demo").toString(),
            "--listen",
            "127.0.0.1:0",
            "--duration",
            "1s",
            "--no-wait");
    assertThat(code).as(out + "\n" + err).isEqualTo(ExitCodes.OK);
    report = dir.resolve("demo/report");
  }

  private static void assertRendersEveryChart(HeadlessChromium.Probe probe, int atLeast) {
    assertThat(probe.errors()).as("script errors").isEmpty();
    assertThat(probe.charts()).hasSizeGreaterThanOrEqualTo(atLeast);
    for (HeadlessChromium.Chart c : probe.charts()) {
      assertThat(c.width()).as(c.title()).isPositive();
      assertThat(c.points()).as("points drawn in " + c.title()).isPositive();
      assertThat(c.lines()).as("lines drawn in " + c.title()).isPositive();
      // The axis follows the data: the highest point stands well above the bottom of the plot
      // (at least 1 / (1.15 x 2), the headroom times the coarsest step to a round number).
      assertThat(c.rise()).as("highest point of " + c.title()).isGreaterThan(0.4);
    }
  }

  @Test
  void report_whenTheDemoRan_rendersEveryChartWithoutScriptError() throws Exception {
    // One mixed workload at two client counts: throughput, latency and timeline charts.
    assertRendersEveryChart(HeadlessChromium.render(report.resolve("report.html")), 3);
  }

  @Test
  void comparePage_whenTheDemoIsComparedWithItself_rendersEveryChartWithoutScriptError()
      throws Exception {
    Path page = dir.resolve("compare.html");
    String results = report.resolve("results.json").toString();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code =
        BenchMain.run(
            new PrintWriter(out, true),
            new PrintWriter(err, true),
            "compare",
            results,
            results,
            "--html",
            page.toString());
    assertThat(code).as(err.toString()).isEqualTo(ExitCodes.OK);
    // One chart per target: repo-0 and racs-proxy.
    assertRendersEveryChart(HeadlessChromium.render(page), 2);
  }

  @Test
  void report_whenAnArrayRan_showsItsRequestsPerOperationAndWhatTheyCost() throws Exception {
    StringBuilder yaml =
        new StringBuilder(
            "array:\n  geometry: 4x2\n  slots: [m0, m1, m2, m3, m4, m5]\nrepositories:\n");
    for (int i = 0; i < 6; i++) {
      yaml.append("  - name: m").append(i).append("\n    type: memory\n");
    }
    Path config = Files.writeString(dir.resolve("array.yaml"), yaml);
    Path out = dir.resolve("array-run");
    StringWriter err = new StringWriter();
    int code =
        BenchMain.run(
            new PrintWriter(new StringWriter(), true),
            new PrintWriter(err, true),
            "object",
            "--config",
            config.toString(),
            "--array",
            "racs",
            "--quiet",
            "--op",
            "get,put",
            "--objects",
            "4",
            "--warmup",
            "0",
            "--iterations",
            "2",
            "--count",
            "20",
            "--out",
            out.toString());
    assertThat(code).as(err.toString()).isEqualTo(ExitCodes.OK);

    HeadlessChromium.Probe probe = HeadlessChromium.render(out.resolve("report.html"));

    assertThat(probe.errors()).as("script errors").isEmpty();
    HeadlessChromium.Table cost = probe.table("cost");
    assertThat(cost.width()).isPositive();
    assertThat(cost.rows().getFirst())
        .contains("list/op", "get/op", "put/op", "array total", "direct total", "array / direct");
    int list = cost.rows().getFirst().indexOf("list/op");
    int direct = cost.rows().getFirst().indexOf("direct total");
    assertThat(cost.rows()).hasSize(3); // the header, GET and PUT
    List<String> get = cost.rows().get(1);
    assertThat(get.getFirst()).isEqualTo("racs/get/4KiB/c1/d0ms");
    // Every GET lists the key's index on all six repositories (docs/bench/cost.md).
    assertThat(Double.parseDouble(get.get(list))).isGreaterThanOrEqualTo(6.0);
    // One GET ($0.40 per 1M) and 4 KiB out ($0.34) at AWS S3 Standard's prices.
    assertThat(get.get(direct)).isEqualTo("0.74");
    assertThat(cost.rows().get(2).get(direct)).isEqualTo("5.00"); // one PUT
  }

  @Test
  void probe_whenAScriptFailsAndAChartIsEmpty_reportsBoth() throws Exception {
    Path page = dir.resolve("broken.html");
    Files.writeString(
        page,
        """
        <!DOCTYPE html><html><head><meta charset="utf-8"><title>broken</title></head><body>
        <script>undefinedFunction();</script>
        <svg xmlns="http://www.w3.org/2000/svg" class="chart" width="200" height="100">
        <text x="10" y="20">empty</text><polyline class="series" points=""/></svg>
        <svg xmlns="http://www.w3.org/2000/svg" class="chart" width="200" height="100">
        <text x="10" y="20">outside</text>
        <circle class="point" cx="500" cy="50" r="3"/></svg>
        <svg xmlns="http://www.w3.org/2000/svg" class="chart" width="200" height="100">
        <text x="10" y="20">flat</text><rect class="plot" x="0" y="0" width="200" height="100"/>
        <circle class="point" cx="50" cy="98" r="1"/><circle class="point" cx="90" cy="97" r="1"/>
        </svg>
        </body></html>
        """);
    HeadlessChromium.Probe probe = HeadlessChromium.render(page);
    assertThat(probe.errors()).singleElement().asString().contains("undefinedFunction");
    assertThat(probe.charts())
        .extracting(HeadlessChromium.Chart::title, HeadlessChromium.Chart::points)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("empty", 0),
            org.assertj.core.groups.Tuple.tuple("outside", 0),
            org.assertj.core.groups.Tuple.tuple("flat", 2));
    assertThat(probe.charts().get(2).rise()).isLessThan(0.05);
  }
}
