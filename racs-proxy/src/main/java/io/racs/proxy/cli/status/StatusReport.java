package io.racs.proxy.cli.status;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The one-screen summary {@code racs status} prints, read from a proxy's {@code /health/ready} JSON
 * and {@code /metrics} text: the array's verdict, each repository with its state, traffic and
 * latency, the background work, and warnings for whatever is not as it should be.
 *
 * @param lines what to print
 * @param verdict the array's state: healthy, degraded (serving with repositories out) or not ready
 */
public record StatusReport(List<String> lines, Verdict verdict) {
  /** What the summary concludes. */
  public enum Verdict {
    /** Every repository is up and the proxy is ready. */
    HEALTHY,
    /** The proxy serves, but a repository is not up: redundancy is reduced. */
    DEGRADED,
    /** The proxy does not take writes (fewer than a write quorum of repositories). */
    NOT_READY
  }

  private static final ObjectMapper JSON = new ObjectMapper();

  /** The summary of {@code readyJson} and {@code metricsText} (empty when it could not be read). */
  public static StatusReport of(String readyJson, String metricsText) throws IOException {
    JsonNode ready = JSON.readTree(readyJson);
    MetricsText metrics = MetricsText.parse(metricsText);
    List<String> lines = new ArrayList<>();
    List<String> warnings = new ArrayList<>();
    JsonNode repositories = ready.path("repositories");
    int up = 0;
    for (JsonNode r : repositories) {
      up += r.path("state").asText().equals("up") ? 1 : 0;
    }
    boolean isReady = ready.path("ready").asBoolean(false);
    Verdict verdict =
        !isReady
            ? Verdict.NOT_READY
            : up == repositories.size() ? Verdict.HEALTHY : Verdict.DEGRADED;
    lines.add(
        String.format(
            Locale.ROOT,
            "array: %s (%d of %d repositories up; %d take writes, writes need %d)",
            switch (verdict) {
              case HEALTHY -> "healthy";
              case DEGRADED -> "degraded, serving";
              case NOT_READY -> "not ready, writes refused";
            },
            up,
            repositories.size(),
            ready.path("healthy").asInt(),
            ready.path("writeQuorum").asInt()));
    StringBuilder more = new StringBuilder("  lifecycle: " + ready.path("lifecycle").asText("?"));
    JsonNode c = ready.path("coordination");
    if (c.isObject()) {
      more.append(
          String.format(
              Locale.ROOT,
              "; coordination: %s, %s, leader %s, %d members",
              c.path("id").asText(),
              c.path("connected").asBoolean() ? "connected" : "DISCONNECTED",
              c.path("leaderId").isNull() ? "none" : c.path("leaderId").asText(),
              c.path("members").size()));
      if (!c.path("connected").asBoolean()) {
        warnings.add("coordination: not connected to ZooKeeper");
      }
    }
    lines.add(more.toString());
    JsonNode opening = ready.path("array");
    if (opening.isObject() && !opening.path("open").asBoolean(true)) {
      warnings.add(
          "the array is not open yet ("
              + opening.path("attempts").asInt()
              + " attempts in "
              + opening.path("waitingSeconds").asLong()
              + " s): "
              + opening.path("reason").asText("?"));
    }
    lines.add(
        String.format(
            Locale.ROOT,
            "%4s  %-16s %-14s %10s %8s %8s %8s  %s",
            "slot",
            "repository",
            "state",
            "requests",
            "errors",
            "p50 ms",
            "p99 ms",
            "reason"));
    for (JsonNode r : repositories) {
      Map<String, String> slot = Map.of("slot", r.path("slot").asText());
      String state = r.path("state").asText();
      String reason = r.path("reason").asText("");
      double requests = metrics.sum("racs_repository_requests_total", slot);
      double errors = metrics.sum("racs_repository_errors_total", slot);
      lines.add(
          String.format(
              Locale.ROOT,
              "%4s  %-16s %-14s %10.0f %8.0f %8s %8s  %s",
              r.path("slot").asText(),
              r.path("name").asText(),
              state,
              requests,
              errors,
              millis(metrics.quantile("racs_repository_request_duration_seconds", slot, 0.50)),
              millis(metrics.quantile("racs_repository_request_duration_seconds", slot, 0.99)),
              reason));
      if (!state.equals("up")) {
        warnings.add(
            "slot "
                + r.path("slot").asText()
                + " ("
                + r.path("name").asText()
                + ") is "
                + state
                + (reason.isEmpty() ? "" : ": " + reason));
      }
    }
    double backlog = metrics.sum("racs_heal_backlog_objects", Map.of());
    lines.add(
        String.format(
            Locale.ROOT,
            "background: heal backlog %.0f objects; stripes read with parity %.0f (around slow"
                + " shards %.0f); corrupt pieces %.0f; under-replicated writes %.0f",
            backlog,
            metrics.sum("racs_store_degraded_stripes_total", Map.of()),
            metrics.sum("racs_store_slow_shard_stripes_total", Map.of()),
            metrics.sum("racs_store_corrupt_pieces_total", Map.of()),
            metrics.sum("racs_store_under_replicated_writes_total", Map.of())));
    if (backlog > 0) {
      warnings.add("the last scrub could not repair " + (long) backlog + " objects: run racs heal");
    }
    if (warnings.isEmpty()) {
      lines.add("warnings: none");
    } else {
      lines.add("warnings:");
      warnings.forEach(w -> lines.add("  " + w));
    }
    return new StatusReport(lines.stream().map(String::stripTrailing).toList(), verdict);
  }

  /** A histogram bucket's bound in milliseconds, as the table prints it. */
  private static String millis(double seconds) {
    if (Double.isNaN(seconds)) {
      return "-";
    }
    if (Double.isInfinite(seconds)) {
      return "inf";
    }
    double ms = seconds * 1000;
    return String.format(Locale.ROOT, ms >= 100 ? "%.0f" : ms >= 10 ? "%.1f" : "%.2f", ms);
  }
}
