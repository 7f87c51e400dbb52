package io.racs.repos.minio;

import io.racs.repos.process.ServerProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One real MinIO server process on 127.0.0.1, with its own data directories and log file, run from
 * the provisioned binary ({@link ProvisionedTools#minio()}) unless told another.
 *
 * <p>Lifecycle: {@link #start()} picks a free port the first time and reuses it on every restart,
 * so clients built against {@link #endpoint()} keep working across {@link #stop()} / {@link
 * #start()}. {@link #stop()} terminates the process by PID and waits for it; {@link #kill()}
 * simulates a crash (SIGKILL). Runs as a {@link ServerProcess}, whose methods are synchronized.
 */
public final class MinioServer implements AutoCloseable {
  private static final Duration READY_TIMEOUT = Duration.ofSeconds(90);

  private final Path home;
  private final List<Path> drives;
  private final String accessKey;
  private final String secretKey;
  private final ServerProcess process;

  private MinioServer(Builder builder) {
    Path binary = builder.binary != null ? builder.binary : ProvisionedTools.minio();
    this.home = builder.home;
    this.accessKey = builder.accessKey;
    this.secretKey = builder.secretKey;
    List<Path> dirs = new ArrayList<>();
    for (int i = 0; i < builder.drives; i++) {
      dirs.add(home.resolve(builder.drives == 1 ? "data" : "drive" + i));
    }
    this.drives = List.copyOf(dirs);
    Map<String, String> env = new LinkedHashMap<>();
    env.put("MINIO_ROOT_USER", accessKey);
    env.put("MINIO_ROOT_PASSWORD", secretKey);
    // MINIO_CI_CD lets MinIO use directories on the root filesystem.
    env.put("MINIO_CI_CD", "1");
    env.put("MINIO_BROWSER", "off");
    env.put("MINIO_UPDATE", "off");
    env.putAll(builder.environment);
    this.process =
        new ServerProcess(
            "minio",
            home,
            port -> command(binary, port),
            READY_TIMEOUT,
            port ->
                ServerProcess.answersOk(
                    URI.create("http://127.0.0.1:" + port + "/minio/health/ready")),
            env);
  }

  private List<String> command(Path binary, int port) {
    List<String> command = new ArrayList<>();
    command.add(binary.toString());
    command.add("server");
    command.add("--address");
    command.add("127.0.0.1:" + port);
    command.add("--quiet");
    for (Path drive : drives) {
      command.add(drive.toString());
    }
    return command;
  }

  /** Returns a builder for a server living under {@code home}. */
  public static Builder builder(Path home) {
    return new Builder(home);
  }

  /** Starts the server (or restarts it on its previous port) and waits until it is ready. */
  public void start() {
    try {
      for (Path drive : drives) {
        Files.createDirectories(drive);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create MinIO's drives under " + home, e);
    }
    process.start();
  }

  /** Stops the server gracefully (SIGTERM, then SIGKILL after a timeout) and waits for exit. */
  public void stop() {
    process.stop();
  }

  /** Kills the server at once (SIGKILL), as a crash would. */
  public void kill() {
    process.kill();
  }

  /** True while the server process is alive. */
  public boolean isRunning() {
    return process.isRunning();
  }

  /** The PID of the running process. */
  public long pid() {
    List<Long> pids = process.pids();
    return pids.get(pids.size() - 1);
  }

  /** The S3 endpoint, {@code http://127.0.0.1:PORT}; fixed after the first start. */
  public URI endpoint() {
    return URI.create("http://127.0.0.1:" + process.port());
  }

  /** The port the server listens on; fixed after the first start. */
  public int port() {
    return process.port();
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
    return process.logFile();
  }

  @Override
  public void close() {
    stop();
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
