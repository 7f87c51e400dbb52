package io.racs.repos.minio;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One real MinIO server process on 127.0.0.1, with its own data directories and log file, run from
 * the provisioned binary ({@link ProvisionedTools#minio()}) unless told another.
 *
 * <p>Lifecycle: {@link #start()} picks a free port the first time and reuses it on every restart,
 * so clients built against {@link #endpoint()} keep working across {@link #stop()} / {@link
 * #start()}. {@link #stop()} terminates the process by PID and waits for it; {@link #kill()}
 * simulates a crash (SIGKILL). Not thread-safe: one caller (a test, the demo) drives one server at
 * a time.
 */
public final class MinioServer implements AutoCloseable {
  private static final Duration READY_TIMEOUT = Duration.ofSeconds(90);
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(15);
  private static final int START_ATTEMPTS = 3;

  private final Path binary;
  private final Path home;
  private final List<Path> drives;
  private final String accessKey;
  private final String secretKey;
  private final Map<String, String> environment;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  private int port;
  private Process process;

  private MinioServer(Builder builder) {
    this.binary = builder.binary != null ? builder.binary : ProvisionedTools.minio();
    this.home = builder.home;
    this.accessKey = builder.accessKey;
    this.secretKey = builder.secretKey;
    this.environment = Map.copyOf(builder.environment);
    List<Path> dirs = new ArrayList<>();
    for (int i = 0; i < builder.drives; i++) {
      dirs.add(home.resolve(builder.drives == 1 ? "data" : "drive" + i));
    }
    this.drives = List.copyOf(dirs);
  }

  /** Returns a builder for a server living under {@code home}. */
  public static Builder builder(Path home) {
    return new Builder(home);
  }

  /** Starts the server (or restarts it on its previous port) and waits until it is ready. */
  public synchronized void start() {
    if (isRunning()) {
      return;
    }
    boolean portFixed = port != 0;
    IllegalStateException last = null;
    for (int attempt = 0; attempt < START_ATTEMPTS; attempt++) {
      if (!portFixed) {
        port = freePort();
      }
      try {
        launch();
        return;
      } catch (IllegalStateException e) {
        // Another process can take a port between our probe and MinIO's bind; try a new one.
        last = e;
        if (portFixed) {
          break;
        }
      }
    }
    throw last;
  }

  private void launch() {
    try {
      for (Path drive : drives) {
        Files.createDirectories(drive);
      }
      List<String> command = new ArrayList<>();
      command.add(binary.toString());
      command.add("server");
      command.add("--address");
      command.add("127.0.0.1:" + port);
      command.add("--quiet");
      for (Path drive : drives) {
        command.add(drive.toString());
      }
      ProcessBuilder pb = new ProcessBuilder(command);
      pb.redirectErrorStream(true);
      pb.redirectOutput(ProcessBuilder.Redirect.appendTo(logFile().toFile()));
      Map<String, String> env = pb.environment();
      env.put("MINIO_ROOT_USER", accessKey);
      env.put("MINIO_ROOT_PASSWORD", secretKey);
      // MINIO_CI_CD lets MinIO use directories on the root filesystem.
      env.put("MINIO_CI_CD", "1");
      env.put("MINIO_BROWSER", "off");
      env.put("MINIO_UPDATE", "off");
      env.putAll(environment);
      process = pb.start();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + binary, e);
    }
    awaitReady();
  }

  private void awaitReady() {
    URI health = URI.create("http://127.0.0.1:" + port + "/minio/health/ready");
    long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            "MinIO exited with status "
                + process.exitValue()
                + " before ready; log:\n"
                + logTail());
      }
      try {
        HttpResponse<Void> response =
            http.send(
                HttpRequest.newBuilder(health).timeout(Duration.ofSeconds(2)).GET().build(),
                HttpResponse.BodyHandlers.discarding());
        if (response.statusCode() == 200) {
          return;
        }
      } catch (IOException e) {
        // Not listening yet.
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for MinIO", e);
      }
      try {
        // Waiting on the process doubles as the poll interval and notices an early exit at once.
        process.waitFor(50, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for MinIO", e);
      }
    }
    destroy(true);
    throw new IllegalStateException(
        "MinIO not ready within " + READY_TIMEOUT + " on port " + port + "; log:\n" + logTail());
  }

  /** Stops the server gracefully (SIGTERM, then SIGKILL after a timeout) and waits for exit. */
  public synchronized void stop() {
    destroy(false);
  }

  /** Kills the server at once (SIGKILL), as a crash would. */
  public synchronized void kill() {
    destroy(true);
  }

  private void destroy(boolean force) {
    if (process == null) {
      return;
    }
    ProcessHandle handle = process.toHandle();
    handle.descendants().forEach(ProcessHandle::destroyForcibly);
    if (force) {
      process.destroyForcibly();
    } else {
      process.destroy();
    }
    try {
      if (!process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly();
        process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
    process = null;
  }

  /** True while the server process is alive. */
  public synchronized boolean isRunning() {
    return process != null && process.isAlive();
  }

  /** The PID of the running process. */
  public synchronized long pid() {
    if (process == null) {
      throw new IllegalStateException("MinIO is not running");
    }
    return process.pid();
  }

  /** The S3 endpoint, {@code http://127.0.0.1:PORT}; fixed after the first start. */
  public URI endpoint() {
    if (port == 0) {
      throw new IllegalStateException("MinIO has not been started");
    }
    return URI.create("http://127.0.0.1:" + port);
  }

  /** The port the server listens on; fixed after the first start. */
  public int port() {
    return port;
  }

  /** The root access key. */
  public String accessKey() {
    return accessKey;
  }

  /** The root secret key. */
  public String secretKey() {
    return secretKey;
  }

  /** The region MinIO answers for. */
  public String region() {
    return "us-east-1";
  }

  /** The directories the server stores objects in. */
  public List<Path> drives() {
    return drives;
  }

  /** The server's combined stdout and stderr. */
  public Path logFile() {
    return home.resolve("minio.log");
  }

  private String logTail() {
    try {
      List<String> lines = Files.readAllLines(logFile());
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }

  @Override
  public void close() {
    stop();
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("no free port on 127.0.0.1", e);
    }
  }

  /** Builds a {@link MinioServer}. */
  public static final class Builder {
    private final Path home;
    private Path binary;
    private int drives = 1;
    private String accessKey = "racs-test-access";
    private String secretKey = "racs-test-secret-key";
    private final Map<String, String> environment = new LinkedHashMap<>();

    private Builder(Path home) {
      this.home = home;
    }

    /** The MinIO binary; defaults to the provisioned one. */
    public Builder binary(Path binary) {
      this.binary = binary;
      return this;
    }

    /** Number of drive directories; more than one runs MinIO in erasure-coded mode. */
    public Builder drives(int drives) {
      if (drives < 1) {
        throw new IllegalArgumentException("drives: " + drives + " (expected: >= 1)");
      }
      this.drives = drives;
      return this;
    }

    /** Root credentials (MinIO wants at least 3 and 8 characters). */
    public Builder credentials(String accessKey, String secretKey) {
      this.accessKey = accessKey;
      this.secretKey = secretKey;
      return this;
    }

    /** An extra environment variable for the server, e.g. a storage class. */
    public Builder env(String name, String value) {
      environment.put(name, value);
      return this;
    }

    /** Creates the server without starting it. */
    public MinioServer build() {
      return new MinioServer(this);
    }
  }
}
