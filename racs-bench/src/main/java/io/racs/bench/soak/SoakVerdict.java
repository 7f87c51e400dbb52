package io.racs.bench.soak;

import com.fasterxml.jackson.databind.JsonNode;
import io.racs.bench.report.Compare;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The verdict of a soak run (scripts/soak.sh): it passes when both bench runs ({@code bench-verify}
 * and {@code bench-churn} under the work directory) answered every operation without a wrong answer
 * or another error, the proxy's resident set and open file descriptors grew no more than their
 * bounds after warm-up ({@link Footprint}), and the proxy is still running with no ERROR line in
 * its log ({@code racs.log}). Prints the summary, then each failure.
 *
 * @param work the soak's work directory
 * @param samples the proxy's footprint samples
 * @param seconds the soak's length: warm-up is its first fifth, at least 60 s
 * @param rssGrowthMib the resident set's growth bound
 * @param fdGrowth the open file descriptors' growth bound
 * @param proxyAlive whether the proxy was still running at the end
 * @param benchFailed whether a bench run exited with an error
 */
public record SoakVerdict(
    Path work,
    Path samples,
    long seconds,
    long rssGrowthMib,
    long fdGrowth,
    boolean proxyAlive,
    boolean benchFailed) {
  /** The bench runs, by name. */
  static final List<String> RUNS = List.of("verify", "churn");

  /** Prints the summary to {@code out}; returns whether the soak passed. */
  public boolean print(PrintWriter out) {
    List<String> failures = new ArrayList<>();
    out.println("soak summary");
    for (String name : RUNS) {
      Path file = work.resolve("bench-" + name).resolve("results.json");
      if (!Files.exists(file)) {
        failures.add(
            "bench " + name + ": no results.json (see " + work + "/bench-" + name + ".log)");
        continue;
      }
      for (JsonNode point : Compare.read(file).path("points")) {
        bench(name, point, out, failures);
      }
    }
    if (benchFailed) {
      failures.add("a bench run exited with an error");
    }
    footprint(out, failures);
    if (!proxyAlive) {
      failures.add("the proxy is no longer running");
    }
    log(out, failures);
    out.flush();
    if (!failures.isEmpty()) {
      out.println("soak: FAILED");
      failures.forEach(f -> out.println("  - " + f));
      out.flush();
      return false;
    }
    out.println("soak: passed");
    out.flush();
    return true;
  }

  private static void bench(String name, JsonNode point, PrintWriter out, List<String> failures) {
    long ops = point.path("ops").asLong();
    long errors = point.path("errorsTotal").asLong();
    JsonNode rate = point.path("throughput").path("opsPerSecond").path("mean");
    List<String> kinds = new ArrayList<>();
    point.path("errors").fieldNames().forEachRemaining(kinds::add);
    List<String> detail = new ArrayList<>();
    for (String kind : kinds.stream().sorted().toList()) {
      detail.add(kind + " " + point.path("errors").path(kind).asLong());
    }
    String details = detail.isEmpty() ? "none" : String.join(", ", detail);
    out.println(
        "  bench "
            + name
            + ": "
            + point.path("mix").asText()
            + ": "
            + ops
            + " ops"
            + (rate.isNumber() && rate.asDouble() != 0
                ? String.format(Locale.ROOT, " (%.1f/s)", rate.asDouble())
                : "")
            + ", "
            + point.path("verifiedObjects").asLong()
            + " GETs verified, errors: "
            + details);
    long mismatches = point.path("errors").path("VERIFY_MISMATCH").asLong();
    if (mismatches > 0) {
      failures.add("bench " + name + ": " + mismatches + " wrong answers");
    }
    if (errors > 0) {
      failures.add("bench " + name + ": " + errors + " errors (" + details + ")");
    }
    if (ops == 0) {
      failures.add("bench " + name + ": no operations");
    }
  }

  private void footprint(PrintWriter out, List<String> failures) {
    Footprint footprint = Footprint.read(samples);
    List<Footprint.Sample> rows = footprint.samples();
    long warmup = Math.max(60, seconds / 5);
    out.printf(
        Locale.ROOT,
        "  samples: %d (every few seconds), warm-up: first %d s%n",
        rows.size(),
        warmup);
    if (!rows.isEmpty()) {
      out.printf(
          Locale.ROOT,
          "  proxy RSS: start %.0f MiB, max %.0f MiB, end %.0f MiB; open fds: start %d, max %d,"
              + " end %d%n",
          rows.getFirst().rssKib() / 1024.0,
          rows.stream().mapToLong(Footprint.Sample::rssKib).max().orElseThrow() / 1024.0,
          rows.getLast().rssKib() / 1024.0,
          rows.getFirst().fds(),
          rows.stream().mapToLong(Footprint.Sample::fds).max().orElseThrow(),
          rows.getLast().fds());
    }
    Optional<Footprint.Growth> growth = footprint.growth(warmup);
    if (growth.isEmpty()) {
      failures.add(
          "only "
              + footprint.after(warmup).size()
              + " samples after warm-up (expected: at least "
              + Footprint.MIN_SAMPLES
              + ")");
      return;
    }
    Footprint.Growth g = growth.get();
    out.printf(
        Locale.ROOT,
        "  growth after warm-up: RSS %+.1f MiB (bound %d), fds %+d (bound %d)%n",
        g.rssMib(),
        rssGrowthMib,
        g.fds(),
        fdGrowth);
    if (g.rssMib() > rssGrowthMib) {
      failures.add(
          String.format(
              Locale.ROOT,
              "RSS grew %.1f MiB after warm-up (bound %d MiB)",
              g.rssMib(),
              rssGrowthMib));
    }
    if (g.fds() > fdGrowth) {
      failures.add("open fds grew by " + g.fds() + " after warm-up (bound " + fdGrowth + ")");
    }
  }

  private void log(PrintWriter out, List<String> failures) {
    List<String> lines;
    try {
      lines =
          new String(Files.readAllBytes(work.resolve("racs.log")), StandardCharsets.UTF_8)
              .lines()
              .toList();
    } catch (IOException e) {
      throw new IllegalArgumentException(work.resolve("racs.log") + ": cannot read the proxy log");
    }
    List<String> errors = lines.stream().filter(l -> l.contains(" ERROR ")).toList();
    List<String> warns = lines.stream().filter(l -> l.contains(" WARN ")).toList();
    out.println("  proxy log: " + errors.size() + " ERROR, " + warns.size() + " WARN lines");
    List<String> shown = new ArrayList<>(errors);
    shown.addAll(warns);
    for (String line : shown.subList(0, Math.min(5, shown.size()))) {
      out.println("    " + line.substring(0, Math.min(200, line.length())));
    }
    if (!errors.isEmpty()) {
      failures.add("the proxy logged " + errors.size() + " ERROR lines");
    }
  }
}
