package io.racs.testkit;

import io.racs.repos.minio.MinioServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * A JUnit 5 extension that runs N real MinIO server processes on 127.0.0.1 for a test class.
 *
 * <p>Register it on a static field:
 *
 * <pre>{@code
 * @RegisterExtension static final MinioExtension MINIO = MinioExtension.servers(2);
 * }</pre>
 *
 * <p>The servers start before the first test (each on a free port, with its own temporary
 * directories) and are killed by PID after the last. A test may {@link MinioServer#stop() stop},
 * {@link MinioServer#kill() kill} and {@link MinioServer#start() restart} any server; after each
 * test every server is running again, so tests do not depend on each other's faults. Clients from
 * {@link #client(int)} are closed with the extension.
 *
 * <p>A fixture that outlives one test class (servers shared by several classes) calls {@link
 * #start()} and {@link #close()} itself instead of registering the extension.
 */
public final class MinioExtension
    implements BeforeAllCallback,
        BeforeEachCallback,
        AfterEachCallback,
        AfterAllCallback,
        AutoCloseable {
  private final int count;
  private final int drivesPerServer;
  private final List<String[]> environment = new ArrayList<>();
  private final List<MinioServer> servers = new ArrayList<>();
  private final List<S3Client> clients = new ArrayList<>();
  private Path root;
  private Thread shutdownHook;

  private MinioExtension(int count, int drivesPerServer) {
    if (count < 1) {
      throw new IllegalArgumentException("count: " + count + " (expected: >= 1)");
    }
    this.count = count;
    this.drivesPerServer = drivesPerServer;
  }

  /** {@code count} single-drive servers. */
  public static MinioExtension servers(int count) {
    return new MinioExtension(count, 1);
  }

  /** {@code count} servers, each erasure-coding over {@code drives} directories. */
  public static MinioExtension erasureServers(int count, int drives) {
    return new MinioExtension(count, drives);
  }

  /** Adds an environment variable to every server (call before the servers start). */
  public MinioExtension env(String name, String value) {
    environment.add(new String[] {name, value});
    return this;
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    startAll();
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    startAll();
  }

  @Override
  public void afterEach(ExtensionContext context) {
    startEach(servers);
  }

  @Override
  public void afterAll(ExtensionContext context) {
    close();
  }

  /** Starts the servers now, if they are not running yet; {@link #close()} stops them. */
  public void start() {
    startAll();
  }

  private synchronized void startAll() {
    if (!servers.isEmpty()) {
      return;
    }
    try {
      root = Files.createTempDirectory("racs-minio-");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a temporary directory", e);
    }
    shutdownHook = new Thread(this::stopAll, "minio-extension-shutdown");
    Runtime.getRuntime().addShutdownHook(shutdownHook);
    for (int i = 0; i < count; i++) {
      MinioServer.Builder builder =
          MinioServer.builder(root.resolve("minio-" + i)).drives(drivesPerServer);
      for (String[] variable : environment) {
        builder.env(variable[0], variable[1]);
      }
      servers.add(builder.build());
    }
    startEach(servers);
  }

  /**
   * Starts (or restarts) every server that is not running, all at once: a server spends its start
   * mostly waiting to become ready, so six take about as long as one instead of six times as long.
   * Platform threads, because {@link MinioServer#start()} blocks inside {@code synchronized}, which
   * pins a virtual thread to one of the few carriers on JDK 21. Throws the first failure, with the
   * others suppressed; servers that did start are left for {@link #close()}.
   */
  private static void startEach(List<MinioServer> servers) {
    List<Future<?>> starts = new ArrayList<>();
    try (ExecutorService executor =
        Executors.newThreadPerTaskExecutor(Thread.ofPlatform().name("minio-start-", 0).factory())) {
      for (MinioServer server : servers) {
        starts.add(executor.submit(server::start));
      }
    }
    RuntimeException failure = null;
    for (Future<?> start : starts) {
      RuntimeException e = failure(start);
      if (e != null && failure == null) {
        failure = e;
      } else if (e != null) {
        failure.addSuppressed(e);
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  /** What {@code start} (already done) threw, or null. */
  private static RuntimeException failure(Future<?> start) {
    if (start.state() != Future.State.FAILED) {
      return null;
    }
    Throwable cause = start.exceptionNow();
    return cause instanceof RuntimeException e
        ? e
        : new IllegalStateException("cannot start a MinIO server", cause);
  }

  /** The {@code index}-th server (0-based). */
  public MinioServer server(int index) {
    return servers.get(index);
  }

  /** All servers, in index order. */
  public List<MinioServer> servers() {
    return List.copyOf(servers);
  }

  /** A path-style SDK v2 client for the {@code index}-th server, closed with the extension. */
  public synchronized S3Client client(int index) {
    S3Client client = newClient(server(index));
    clients.add(client);
    return client;
  }

  /** A path-style SDK v2 client for {@code server}; the caller closes it. */
  public static S3Client newClient(MinioServer server) {
    return S3Client.builder()
        .endpointOverride(server.endpoint())
        .region(Region.of(server.region()))
        .forcePathStyle(true)
        .credentialsProvider(
            StaticCredentialsProvider.create(
                AwsBasicCredentials.create(server.accessKey(), server.secretKey())))
        .httpClientBuilder(Apache5HttpClient.builder())
        .build();
  }

  /** Closes the clients, kills the servers and deletes their directories. */
  @Override
  public synchronized void close() {
    for (S3Client client : clients) {
      client.close();
    }
    clients.clear();
    stopAll();
    if (shutdownHook != null) {
      try {
        Runtime.getRuntime().removeShutdownHook(shutdownHook);
      } catch (IllegalStateException e) {
        // Already shutting down: the hook is running or has run.
      }
      shutdownHook = null;
    }
    servers.clear();
    if (root != null) {
      deleteTree(root);
      root = null;
    }
  }

  private void stopAll() {
    for (MinioServer server : servers) {
      server.kill();
    }
  }

  private static void deleteTree(Path dir) {
    try {
      Files.walkFileTree(
          dir,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs)
                throws IOException {
              Files.delete(file);
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
              Files.delete(d);
              return FileVisitResult.CONTINUE;
            }
          });
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + dir, e);
    }
  }
}
