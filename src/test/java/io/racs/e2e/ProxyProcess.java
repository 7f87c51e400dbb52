package io.racs.e2e;

import io.racs.repos.minio.MinioServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The proxy as users run it: {@code ./racs server --config FILE} in its own process, over real
 * MinIO servers or local directories, on free loopback ports. It is ready when it prints "ready";
 * {@link #close()} stops it with SIGTERM (a graceful drain) and waits.
 */
final class ProxyProcess implements AutoCloseable {
  static final String ACCESS_KEY = "e2e-access";
  static final String SECRET_KEY = "e2e-secret-key-0123456789";
  private static final Pattern SERVING = Pattern.compile("RACS serving S3 at (\\S+) ");
  private static final Pattern ADMIN = Pattern.compile("admin: http://[^:]+:(\\d+)/");

  private final Process process;
  private final Path log;
  private final URI endpoint;
  private final int adminPort;

  private ProxyProcess(Process process, Path log, URI endpoint, int adminPort) {
    this.process = process;
    this.log = log;
    this.endpoint = endpoint;
    this.adminPort = adminPort;
  }

  /** A configuration over MinIO servers, one bucket per server (created by the caller). */
  static String minioConfig(List<MinioServer> servers, String bucket, String geometry, String tls) {
    StringBuilder yaml = new StringBuilder();
    yaml.append("array:\n  geometry: ").append(geometry).append("\n  slowShardTimeout: 5s\n");
    yaml.append("server:\n  listen: 127.0.0.1:0\n  adminListen: 127.0.0.1:0\n");
    yaml.append("  credentials:\n    - {accessKey: ")
        .append(ACCESS_KEY)
        .append(", secretKey: ")
        .append(SECRET_KEY)
        .append("}\n");
    if (tls != null) {
      yaml.append(tls);
    }
    yaml.append("repositories:\n");
    for (int i = 0; i < servers.size(); i++) {
      MinioServer s = servers.get(i);
      yaml.append("  - name: minio-")
          .append(i)
          .append('\n')
          .append("    type: minio\n")
          .append("    endpoint: ")
          .append(s.endpoint())
          .append('\n')
          .append("    bucket: ")
          .append(bucket)
          .append('\n')
          .append("    credentials: {accessKey: ")
          .append(s.accessKey())
          .append(", secretKey: ")
          .append(s.secretKey())
          .append("}\n")
          .append("    connectTimeout: 1s\n    readTimeout: 10s\n    retries: 0\n");
    }
    return yaml.toString();
  }

  /** A configuration over local directories under {@code dir}. */
  static String fsConfig(Path dir, String geometry, String tls) throws IOException {
    StringBuilder yaml = new StringBuilder();
    yaml.append("array:\n  geometry: ").append(geometry).append('\n');
    yaml.append("server:\n  listen: 127.0.0.1:0\n  adminListen: 127.0.0.1:0\n");
    yaml.append("  credentials:\n    - {accessKey: ")
        .append(ACCESS_KEY)
        .append(", secretKey: ")
        .append(SECRET_KEY)
        .append("}\n");
    if (tls != null) {
      yaml.append(tls);
    }
    yaml.append("repositories:\n");
    int n = java.util.Arrays.stream(geometry.split("x")).mapToInt(Integer::parseInt).sum();
    for (int i = 0; i < n; i++) {
      Path root = Files.createDirectories(dir.resolve("repo-" + i));
      yaml.append("  - {name: fs-")
          .append(i)
          .append(", type: fs, path: ")
          .append(root)
          .append("}\n");
    }
    return yaml.toString();
  }

  /** Starts the proxy on {@code config} (YAML text) and waits until it is ready. */
  static ProxyProcess start(Path dir, String config) throws IOException, InterruptedException {
    return start(dir, config, Map.of());
  }

  /**
   * Starts the proxy on {@code config} with extra environment variables (such as {@code
   * RACS_JAVA_OPTS}) and waits until it is ready.
   */
  static ProxyProcess start(Path dir, String config, Map<String, String> env)
      throws IOException, InterruptedException {
    return start(dir, config, env, true);
  }

  /**
   * Starts the proxy on {@code config} and waits until it listens: until it is ready, or until it
   * says it is not ready yet ("not ready: ...", printed when too few repositories answer for the
   * array to open, and the proxy answers 503 while it waits for them).
   */
  static ProxyProcess startListening(Path dir, String config, Map<String, String> env)
      throws IOException, InterruptedException {
    return start(dir, config, env, false);
  }

  private static ProxyProcess start(
      Path dir, String config, Map<String, String> env, boolean untilReady)
      throws IOException, InterruptedException {
    Path file = dir.resolve("racs.yaml");
    Files.writeString(file, config);
    // A restart in the same directory keeps the earlier runs' logs: proxy.log, proxy-2.log, ...
    Path first = dir.resolve("proxy.log");
    int run = 1;
    while (Files.exists(dir.resolve(run == 1 ? "proxy.log" : "proxy-" + run + ".log"))) {
      run++;
    }
    Path log = run == 1 ? first : dir.resolve("proxy-" + run + ".log");
    List<String> command =
        new ArrayList<>(
            List.of(
                Launcher.root().resolve("racs").toString(), "server", "--config", file.toString()));
    ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile());
    pb.environment().put("RACS_NO_BUILD", "1");
    pb.environment().putAll(env);
    pb.redirectErrorStream(true);
    Process process = pb.start();
    CompletableFuture<String[]> ready = new CompletableFuture<>();
    // A platform thread: a virtual one was seen not to run for the whole 120 s wait in CI (the
    // log file it creates first never appeared) while other proxies' readers sat in pipe reads.
    Thread.ofPlatform()
        .daemon()
        .name("proxy-output-" + process.pid())
        .start(
            () -> {
              String endpoint = null;
              String admin = "-1";
              try (BufferedReader in =
                      new BufferedReader(
                          new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
                  var out = Files.newBufferedWriter(log)) {
                for (String line; (line = in.readLine()) != null; ) {
                  out.write(line);
                  out.newLine();
                  out.flush();
                  Matcher m = SERVING.matcher(line);
                  if (m.find()) {
                    endpoint = m.group(1);
                  }
                  Matcher a = ADMIN.matcher(line);
                  if (a.find()) {
                    admin = a.group(1);
                  }
                  if (line.equals("ready") || (!untilReady && line.startsWith("not ready:"))) {
                    ready.complete(new String[] {endpoint, admin});
                  }
                }
              } catch (IOException e) {
                ready.completeExceptionally(e);
              }
              ready.completeExceptionally(new IllegalStateException("proxy exited before ready"));
            });
    String[] started;
    try {
      started = ready.get(120, TimeUnit.SECONDS);
    } catch (Exception e) {
      killTree(process);
      // No log at all means the thread that writes it never ran; say so rather than fail on it.
      String output = Files.exists(log) ? Files.readString(log) : "(no log: " + log + ")";
      throw new IllegalStateException("proxy did not start: " + e + "\n" + output, e);
    }
    return new ProxyProcess(process, log, URI.create(started[0]), Integer.parseInt(started[1]));
  }

  URI endpoint() {
    return endpoint;
  }

  int adminPort() {
    return adminPort;
  }

  /**
   * Waits until the proxy reports no repository unavailable ({@code /health/ready}): one that a
   * fault left suspended is resumed by a background probe, up to 15 s after it answers again, and a
   * test that injects its own fault before then would find more repositories out than it meant.
   *
   * @throws AssertionError if some repository is still unavailable after {@code limit}
   */
  void awaitNoneUnavailable(Duration limit) throws IOException, InterruptedException {
    awaitReport(
        limit,
        r -> !r.body().contains("\"state\":\"unavailable\""),
        "repositories still unavailable");
  }

  /**
   * Waits until {@code /health/ready} answers 200 (the array is open and a write quorum takes
   * writes).
   *
   * @return the report
   * @throws AssertionError if it is not ready after {@code limit}
   */
  String awaitReady(Duration limit) throws IOException, InterruptedException {
    return awaitReport(limit, r -> r.statusCode() == 200, "not ready");
  }

  /**
   * Polls {@code /health/ready} until its answer is {@code done}, and returns that answer's body.
   * The proxy's own report is polled: what it waits for (the probes that end a suspension, the
   * attempts to open the array) runs on the proxy's clock.
   */
  private String awaitReport(
      Duration limit,
      java.util.function.Predicate<java.net.http.HttpResponse<String>> done,
      String otherwise)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + limit.toNanos();
    try (java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient()) {
      java.net.http.HttpRequest request =
          java.net.http.HttpRequest.newBuilder(
                  URI.create("http://127.0.0.1:" + adminPort + "/health/ready"))
              .build();
      while (true) {
        java.net.http.HttpResponse<String> report =
            http.send(request, java.net.http.HttpResponse.BodyHandlers.ofString());
        if (done.test(report)) {
          return report.body();
        }
        if (System.nanoTime() > deadline) {
          throw new AssertionError(otherwise + " after " + limit + ": " + report.body());
        }
        java.util.concurrent.TimeUnit.MILLISECONDS.sleep(100);
      }
    }
  }

  String log() {
    try {
      return Files.readString(log);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The proxy's process id (the JVM: the launcher execs it). */
  long pid() {
    return process.pid();
  }

  /**
   * SIGKILL to the launcher and every process under it: the launcher runs java as a child (to
   * filter its stderr), so killing the launcher alone would leave the proxy serving.
   */
  private void killTree() {
    killTree(process);
  }

  private static void killTree(Process process) {
    process.descendants().forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
  }

  /** Kills the proxy at once (SIGKILL), as a crash or an OOM killer would, and waits for it. */
  void kill() throws InterruptedException {
    killTree();
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      throw new IllegalStateException("proxy " + process.pid() + " survived SIGKILL for 60 s");
    }
  }

  @Override
  public void close() {
    process.toHandle().descendants().forEach(ProcessHandle::destroy);
    process.destroy();
    try {
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        process.toHandle().descendants().forEach(ProcessHandle::destroyForcibly);
        killTree();
        process.waitFor();
      }
    } catch (InterruptedException e) {
      killTree();
      Thread.currentThread().interrupt();
    }
  }
}
