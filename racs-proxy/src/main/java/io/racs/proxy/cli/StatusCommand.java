package io.racs.proxy.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code racs status --endpoint URL}: a one-screen summary of a running proxy, read from its admin
 * port ({@code /health/ready} and {@code /metrics}): whether it is ready, each repository's state
 * and reason with its calls and failed calls so far, and the background work. It exits 0 when every
 * repository is up, 1 when the array is degraded (any repository not up, or below the write quorum)
 * or the proxy cannot be reached, so that scripts can use it.
 */
@Command(
    name = "status",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "One-screen summary of a running proxy from its admin port: readiness, each repository's"
          + " state and traffic, background work. Exits 1 when degraded or unreachable."
    })
public final class StatusCommand implements Callable<Integer> {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration TIMEOUT = Duration.ofSeconds(10);
  private static final Pattern SAMPLE =
      Pattern.compile(
          "^(racs_repository_(?:requests|errors)_total)\\{slot=\"(\\d+)\",[^}]*\\} (\\d+)$");

  @Spec CommandSpec spec;

  @Option(
      names = "--endpoint",
      required = true,
      paramLabel = "URL",
      description = "the proxy's admin address, e.g. http://127.0.0.1:9001")
  String endpoint;

  @Override
  public Integer call() throws InterruptedException {
    PrintWriter out = spec.commandLine().getOut();
    URI base = base(endpoint);
    JsonNode ready;
    String metrics;
    try (HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build()) {
      ready = JSON.readTree(get(http, base.resolve("/health/ready")).body());
      HttpResponse<String> m = get(http, base.resolve("/metrics"));
      metrics = m.statusCode() == 200 ? m.body() : "";
    } catch (IOException e) {
      out.printf("racs status: cannot read %s: %s%n", base, e.getMessage());
      return ExitCodes.FAILURE;
    }
    Map<String, Long> samples = samples(metrics);
    int healthy = ready.path("healthy").asInt();
    int writeQuorum = ready.path("writeQuorum").asInt();
    int total = ready.path("repositories").size();
    boolean degraded = !ready.path("ready").asBoolean() || healthy < total;
    out.printf(
        "array at %s: %s, %d of %d repositories take writes (write quorum %d)%n",
        base,
        !ready.path("ready").asBoolean() ? "NOT READY" : degraded ? "DEGRADED" : "healthy",
        healthy,
        total,
        writeQuorum);
    out.printf(
        "%-4s %-20s %-13s %10s %8s  %s%n",
        "slot", "repository", "state", "requests", "errors", "reason");
    for (JsonNode r : ready.path("repositories")) {
      String slot = r.path("slot").asText();
      out.printf(
          "%-4s %-20s %-13s %10s %8s  %s%n",
          slot,
          r.path("name").asText(),
          r.path("state").asText(),
          count(samples, "racs_repository_requests_total", slot),
          count(samples, "racs_repository_errors_total", slot),
          r.path("reason").asText(""));
    }
    out.printf("lifecycle scan: %s%n", ready.path("lifecycle").asText("unknown"));
    Matcher backlog = Pattern.compile("(?m)^racs_heal_backlog_objects (\\d+)$").matcher(metrics);
    out.printf(
        "heal backlog: %s objects the last scrub could not repair%n",
        backlog.find() ? backlog.group(1) : "unknown");
    JsonNode coordination = ready.path("coordination");
    if (!coordination.isMissingNode()) {
      out.printf(
          "coordination: %s, %s, %d proxies%n",
          coordination.path("connected").asBoolean() ? "connected" : "NOT CONNECTED",
          coordination.path("leader").asBoolean() ? "leader" : "follower",
          coordination.path("members").size());
    }
    if (degraded) {
      out.println(
          "warning: repositories are out; reads rebuild from parity. See docs/console.md and"
              + " run racs heal once they are back.");
    }
    return degraded ? ExitCodes.FAILURE : ExitCodes.OK;
  }

  private static URI base(String endpoint) {
    try {
      URI uri = URI.create(endpoint.endsWith("/") ? endpoint : endpoint + "/");
      if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme())
          || uri.getHost() == null) {
        throw new IllegalArgumentException("no scheme or host");
      }
      return uri;
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "--endpoint: " + endpoint + " (expected: http://HOST:ADMINPORT)", e);
    }
  }

  private static HttpResponse<String> get(HttpClient http, URI uri)
      throws IOException, InterruptedException {
    return http.send(
        HttpRequest.newBuilder(uri).timeout(TIMEOUT).build(), HttpResponse.BodyHandlers.ofString());
  }

  /** Each repository's requests and errors summed over operations, keyed "metric/slot". */
  private static Map<String, Long> samples(String metrics) {
    Map<String, Long> sums = new HashMap<>();
    for (String line : metrics.split("\n")) {
      Matcher m = SAMPLE.matcher(line);
      if (m.matches()) {
        sums.merge(m.group(1) + "/" + m.group(2), Long.parseLong(m.group(3)), Long::sum);
      }
    }
    return sums;
  }

  private static String count(Map<String, Long> samples, String metric, String slot) {
    Long value = samples.get(metric + "/" + slot);
    return value == null ? "-" : String.format(Locale.ROOT, "%d", value);
  }
}
