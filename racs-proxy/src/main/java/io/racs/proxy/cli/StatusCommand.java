package io.racs.proxy.cli;

import io.racs.proxy.cli.status.StatusReport;
import io.racs.proxy.runtime.ServerConfig;
import io.racs.repos.config.RepositoryConfigLoader;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code racs status}: one screen about a running proxy, like {@code mc admin info}: the array,
 * each repository's state, traffic and latency, the background work, and warnings. It exits
 * non-zero when the array is degraded, so that scripts can use it.
 */
@Command(
    name = "status",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "One screen about a running proxy, read from its admin port: the array, each repository's"
          + " state, requests, errors and latency, the background work, and warnings."
    },
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:every repository is up and the proxy is ready",
      "1:degraded (a repository is not up), not ready, or the proxy did not answer",
      "2:invalid command line or configuration"
    })
public final class StatusCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(
      names = "--endpoint",
      paramLabel = "URL",
      description = "the proxy's admin URL (default: http://127.0.0.1:9001, or --config's)")
  URI endpoint;

  @Option(
      names = "--config",
      paramLabel = "FILE",
      description = "the proxy's configuration file: its server.adminListen is the admin URL")
  Path config;

  @Option(
      names = "--timeout",
      paramLabel = "SECONDS",
      description = "how long to wait for each answer, in seconds (default: ${DEFAULT-VALUE})",
      defaultValue = "5")
  int timeoutSeconds;

  @Override
  public Integer call() throws Exception {
    URI admin = admin();
    HttpClient http = HttpClient.newBuilder().connectTimeout(timeout()).build();
    String ready;
    String metrics;
    try {
      ready = get(http, admin.resolve("/health/ready"));
      metrics = get(http, admin.resolve("/metrics"));
    } catch (ConnectException | HttpTimeoutException e) {
      spec.commandLine()
          .getErr()
          .println(
              "racs status: no answer from "
                  + admin
                  + " ("
                  + e.getClass().getSimpleName()
                  + "): is the proxy running with its admin port there?");
      return ExitCodes.FAILURE;
    }
    StatusReport report = StatusReport.of(ready, metrics);
    report.lines().forEach(spec.commandLine().getOut()::println);
    return report.verdict() == StatusReport.Verdict.HEALTHY ? ExitCodes.OK : ExitCodes.FAILURE;
  }

  private Duration timeout() {
    if (timeoutSeconds < 1) {
      throw new IllegalArgumentException("--timeout: " + timeoutSeconds + " (expected: >= 1)");
    }
    return Duration.ofSeconds(timeoutSeconds);
  }

  private URI admin() throws IOException {
    if (endpoint != null && config != null) {
      throw new IllegalArgumentException("--endpoint and --config: give one of them");
    }
    if (endpoint != null) {
      if (endpoint.getScheme() == null || endpoint.getHost() == null) {
        throw new IllegalArgumentException(
            "--endpoint: " + endpoint + " (expected: a URL such as http://127.0.0.1:9001)");
      }
      return endpoint;
    }
    String listen =
        config == null
            ? ServerConfig.defaults().adminListen()
            : ServerConfig.from(RepositoryConfigLoader.create().load(config)).adminListen();
    if (listen == null) {
      throw new IllegalArgumentException(
          "--config: " + config + " turns the admin port off (server.adminListen: off)");
    }
    java.net.InetSocketAddress at = ServerConfig.address(listen, "server.adminListen");
    String host = at.getHostString().equals("0.0.0.0") ? "127.0.0.1" : at.getHostString();
    return URI.create(
        "http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + at.getPort());
  }

  /** The body of a GET; {@code /health/ready} answers 503 with its JSON when not ready. */
  private String get(HttpClient http, URI uri) throws IOException, InterruptedException {
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(uri).timeout(timeout()).GET().build(),
            HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200 && response.statusCode() != 503) {
      throw new IOException(uri + " answered " + response.statusCode());
    }
    return response.body();
  }
}
