package io.racs.bench.demo;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.apache.zookeeper.server.embedded.ExitHandler;
import org.apache.zookeeper.server.embedded.ZooKeeperServerEmbedded;

/**
 * A single ZooKeeper server inside the demo's JVM, for {@code racs demo --proxies N} when no
 * ensemble is given, and inside the bench's for {@code racs bench object --embedded-zookeeper}:
 * ZooKeeper's own {@link ZooKeeperServerEmbedded} (the server the {@code zookeeper} jar that
 * Curator brings already contains), standalone, bound to 127.0.0.1 on a port the system picks, with
 * its data under the demo's directory. It is a real server, so the proxies coordinate through it
 * exactly as through an ensemble; it is not durable across demo runs and is not meant to be.
 */
public final class EmbeddedZooKeeper implements AutoCloseable {
  /** How long the server may take to accept clients. */
  private static final long START_MILLIS = 30_000;

  private final ZooKeeperServerEmbedded server;
  private final String connectString;
  private Path temporary;

  private EmbeddedZooKeeper(ZooKeeperServerEmbedded server, String connectString) {
    this.server = server;
    this.connectString = connectString;
  }

  /**
   * Starts a server keeping its files in a new temporary directory, which {@link #close()} deletes:
   * for a run that needs coordination only while it lasts.
   */
  public static EmbeddedZooKeeper startTemporary() throws Exception {
    Path dir = Files.createTempDirectory("racs-zookeeper-");
    try {
      EmbeddedZooKeeper zookeeper = start(dir);
      zookeeper.temporary = dir;
      return zookeeper;
    } catch (Exception | Error e) {
      try {
        delete(dir);
      } catch (IOException left) {
        e.addSuppressed(left);
      }
      throw e;
    }
  }

  /** Starts a server keeping its files under {@code dir} and returns once it takes clients. */
  static EmbeddedZooKeeper start(Path dir) throws Exception {
    Path data = Files.createDirectories(dir.resolve("data"));
    Properties config = new Properties();
    config.setProperty("clientPortAddress", "127.0.0.1");
    config.setProperty("clientPort", "0");
    config.setProperty("dataDir", data.toAbsolutePath().toString());
    config.setProperty("tickTime", "500");
    // The sessions' bounds follow tickTime (2 to 20 ticks by default); the proxies ask for 15 s.
    config.setProperty("maxSessionTimeout", "60000");
    // No Jetty admin server (its jars are not on the class path) and no four-letter words.
    config.setProperty("admin.enableServer", "false");
    config.setProperty("4lw.commands.whitelist", "");
    ZooKeeperServerEmbedded server =
        ZooKeeperServerEmbedded.builder()
            .baseDir(dir.toAbsolutePath())
            .configuration(config)
            // A failure inside the server must not end the demo's JVM (its default may exit).
            .exitHandler(ExitHandler.LOG_ONLY)
            .build();
    // ZooKeeper's start waits for the server and, when it does not come up, closes it, and that
    // close can wait forever on the server's accept thread; so the start runs on a daemon thread
    // and the demo gives up on it past the deadline instead of hanging with it.
    CompletableFuture<String> started = new CompletableFuture<>();
    Thread.ofPlatform()
        .daemon()
        .name("embedded-zookeeper-start")
        .start(
            () -> {
              try {
                server.start(START_MILLIS);
                started.complete(server.getConnectionString());
              } catch (Throwable e) {
                started.completeExceptionally(e);
              }
            });
    try {
      return new EmbeddedZooKeeper(
          server, started.get(START_MILLIS + 5_000, TimeUnit.MILLISECONDS));
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException(
          "the embedded ZooKeeper did not start within "
              + START_MILLIS / 1000
              + " s (its log above says why)",
          e);
    }
  }

  /** Where clients connect, {@code 127.0.0.1:PORT}. */
  public String connectString() {
    return connectString;
  }

  @Override
  public void close() throws IOException {
    try {
      server.close();
    } finally {
      if (temporary != null) {
        delete(temporary);
      }
    }
  }

  /** Deletes {@code dir} and everything under it. */
  private static void delete(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
