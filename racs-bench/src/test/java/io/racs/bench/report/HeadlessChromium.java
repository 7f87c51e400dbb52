package io.racs.bench.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.racs.testkit.TestTools;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Renders an HTML page in headless Chromium (Debian's {@code chromium}, which {@code
 * scripts/provision.sh} installs) and reports what a reader's browser would show: the script errors
 * the page raised (uncaught exceptions, rejected promises, resources that failed to load) and, for
 * every chart ({@code svg.chart}), how many data points and lines it drew inside its own box.
 *
 * <p>The page is copied with a probe: a first script that records every error event, and a last one
 * that, once the page has loaded, measures the charts with the layout engine ({@code
 * getBoundingClientRect}) and writes the findings as JSON into an attribute of {@code <body>}.
 * Chromium's {@code --dump-dom} prints the DOM after load, probe attribute included. A page whose
 * probe never ran (a script error before it, a crash) has no attribute: that is a failure too.
 */
final class HeadlessChromium {
  private static final long TIMEOUT_SECONDS = 120;
  private static final Pattern PROBE = Pattern.compile("data-probe=\"([^\"]*)\"");

  private static final String FIRST =
      """
      <script>
      window.__errors = [];
      addEventListener('error', function (e) {
        var where = e.target && e.target !== window
            ? ' (' + (e.target.src || e.target.href || e.target.tagName) + ')' : '';
        __errors.push(String(e.message || 'resource failed to load') + where
            + (e.filename ? ' at ' + e.filename + ':' + e.lineno : ''));
      }, true);
      addEventListener('unhandledrejection', function (e) {
        __errors.push('unhandled rejection: ' + e.reason);
      });
      </script>
      """;

  private static final String LAST =
      """
      <script>
      addEventListener('load', function () {
        var charts = [];
        document.querySelectorAll('svg.chart').forEach(function (svg) {
          var box = svg.getBoundingClientRect();
          var inside = function (r) {
            return r.width >= 0 && r.left >= box.left - 1 && r.right <= box.right + 1
                && r.top >= box.top - 1 && r.bottom <= box.bottom + 1;
          };
          var points = 0, lines = 0, top = Infinity;
          svg.querySelectorAll('circle.point').forEach(function (c) {
            var r = c.getBoundingClientRect();
            if (r.width > 0 && r.height > 0 && inside(r)) {
              points++;
              top = Math.min(top, (r.top + r.bottom) / 2);
            }
          });
          var plot = svg.querySelector('rect.plot');
          var rise = 0;
          if (plot && points > 0) {
            var p = plot.getBoundingClientRect();
            rise = (p.bottom - top) / p.height;
          }
          svg.querySelectorAll('polyline.series').forEach(function (l) {
            var r = l.getBoundingClientRect();
            if ((r.width > 0 || r.height > 0) && inside(r)) lines++;
          });
          var title = svg.querySelector('text');
          charts.push({title: title ? title.textContent : '', points: points, lines: lines,
              rise: rise, width: box.width, height: box.height});
        });
        var tables = [];
        document.querySelectorAll('table[class]').forEach(function (t) {
          var rows = [];
          t.querySelectorAll('tr').forEach(function (tr) {
            var cells = [];
            tr.querySelectorAll('th, td').forEach(function (c) { cells.push(c.innerText); });
            rows.push(cells);
          });
          tables.push({name: t.className, rows: rows, width: t.getBoundingClientRect().width});
        });
        document.body.setAttribute('data-probe',
            JSON.stringify({errors: window.__errors, charts: charts, tables: tables}));
      });
      </script>
      """;

  /**
   * One chart as drawn: its title, data points and lines inside its box, how high its highest point
   * rises above the bottom of the plot (0 to 1 of the plot's height: lines squashed at the bottom
   * by a badly scaled axis rise little), and its size.
   */
  record Chart(String title, int points, int lines, double rise, double width, double height) {}

  /**
   * One table with a class, as rendered: its class, the text of each row's cells as a reader sees
   * them (the header row first), and its laid-out width (0 when hidden).
   */
  record Table(String name, List<List<String>> rows, double width) {}

  /** What the page showed. */
  record Probe(List<String> errors, List<Chart> charts, List<Table> tables) {
    /** The table of class {@code name}. */
    Table table(String name) {
      return tables.stream()
          .filter(t -> t.name().equals(name))
          .findFirst()
          .orElseThrow(() -> new AssertionError("no table of class " + name + ": " + tables));
    }
  }

  private HeadlessChromium() {}

  /** The Chromium binary: {@code RACS_CHROMIUM}, as {@code scripts/provision.sh} records it. */
  static Path binary() {
    return TestTools.chromium();
  }

  /**
   * Renders {@code page} and returns what the probe found.
   *
   * @throws IllegalStateException when Chromium fails, times out, or the probe did not run
   */
  static Probe render(Path page) throws IOException, InterruptedException {
    Path work = Files.createTempDirectory("racs-chromium");
    try {
      String html = Files.readString(page, StandardCharsets.UTF_8);
      int head = html.indexOf("<head>");
      int end = html.lastIndexOf("</body>");
      if (head < 0 || end < 0) {
        throw new IllegalStateException(page + ": no <head> or </body> to put the probe in");
      }
      String probed =
          html.substring(0, head + 6)
              + FIRST
              + html.substring(head + 6, end)
              + LAST
              + html.substring(end);
      // Beside the original, so relative links resolve as they would for a reader.
      Path copy = page.resolveSibling(".probe-" + page.getFileName());
      Files.writeString(copy, probed, StandardCharsets.UTF_8);
      try {
        return run(copy, work);
      } finally {
        Files.deleteIfExists(copy);
      }
    } finally {
      deleteTree(work);
    }
  }

  private static Probe run(Path page, Path work) throws IOException, InterruptedException {
    List<String> command =
        List.of(
            binary().toString(),
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--user-data-dir=" + work.resolve("profile"),
            "--virtual-time-budget=5000",
            "--dump-dom",
            page.toUri().toString());
    Path out = work.resolve("dom.html");
    Path err = work.resolve("chromium.err");
    Process p =
        new ProcessBuilder(command)
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
            .start();
    if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
      throw new IllegalStateException(
          "chromium did not finish in " + TIMEOUT_SECONDS + " s: " + Files.readString(err));
    }
    String dom = Files.readString(out, StandardCharsets.UTF_8);
    Matcher m = PROBE.matcher(dom);
    if (p.exitValue() != 0 || !m.find()) {
      throw new IllegalStateException(
          "the probe did not run in "
              + page
              + " (chromium exit "
              + p.exitValue()
              + "): "
              + Files.readString(err)
              + "\n"
              + dom.substring(0, Math.min(dom.length(), 2000)));
    }
    JsonNode json = new ObjectMapper().readTree(unescape(m.group(1)));
    List<String> errors = new ArrayList<>();
    json.path("errors").forEach(e -> errors.add(e.asText()));
    List<Chart> charts = new ArrayList<>();
    json.path("charts")
        .forEach(
            c ->
                charts.add(
                    new Chart(
                        c.path("title").asText(),
                        c.path("points").asInt(),
                        c.path("lines").asInt(),
                        c.path("rise").asDouble(),
                        c.path("width").asDouble(),
                        c.path("height").asDouble())));
    List<Table> tables = new ArrayList<>();
    json.path("tables")
        .forEach(
            t -> {
              List<List<String>> rows = new ArrayList<>();
              t.path("rows")
                  .forEach(
                      r -> {
                        List<String> cells = new ArrayList<>();
                        r.forEach(c -> cells.add(c.asText()));
                        rows.add(cells);
                      });
              tables.add(new Table(t.path("name").asText(), rows, t.path("width").asDouble()));
            });
    return new Probe(errors, charts, tables);
  }

  /** Undoes the escaping of an attribute value in Chromium's serialized DOM. */
  private static String unescape(String attribute) {
    return attribute
        .replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&nbsp;", "\u00a0")
        .replace("&amp;", "&");
  }

  private static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> files = Files.walk(root)) {
      for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(f);
      }
    }
  }
}
