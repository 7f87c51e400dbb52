package io.racs.repos.process;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.function.IntPredicate;

/**
 * One server process on 127.0.0.1 (MinIO, an emulator, the fault proxy): started from a command
 * that takes its port, ready once the port accepts connections (or a check of its own holds), with
 * its combined output in a log file under its home directory.
 *
 * <p>{@link #start()} picks a free port the first time and keeps it for every restart, so clients
 * built against the server's endpoint keep working across {@link #stop()} / {@link #start()} and
 * {@link #kill()} / {@link #start()}, as a provider coming back would. {@link #stop()} and {@link
 * #kill()} end the process and its children (npm's launcher runs Azurite as a child). Thread-safe:
 * each method is synchronized, so a test's fault thread and its clean-up do not race.
 */
public final class ServerProcess implements AutoCloseable {
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(15);
  private static final int START_ATTEMPTS = 3;
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();

  private final String name;
  private final Path home;
  private final IntFunction<List<String>> command;
  private final Duration readyTimeout;
  private final IntPredicate ready;
  private final Map<String, String> environment;
  private int port;
  private Process process;

  /**
   * A server called {@code name} (in messages), living under {@code home}, run as {@code
   * command.apply(port)}, ready within {@code readyTimeout} of its start.
   */
  public ServerProcess(
      String name, Path home, IntFunction<List<String>> command, Duration readyTimeout) {
    this(name, home, command, readyTimeout, ServerProcess::listening);
  }

  /**
   * As above, ready once {@code ready.test(port)} holds (polled; it must not block for long), for a
   * server that listens before it can answer.
   */
  public ServerProcess(
      String name,
      Path home,
      IntFunction<List<String>> command,
      Duration readyTimeout,
      IntPredicate ready) {
    this(name, home, command, readyTimeout, ready, Map.of());
  }

  /** As above, with {@code environment} added to the process's inherited environment. */
  public ServerProcess(
      String name,
      Path home,
      IntFunction<List<String>> command,
      Duration readyTimeout,
      IntPredicate ready,
      Map<String, String> environment) {
    this.environment = Map.copyOf(environment);
    this.name = Objects.requireNonNull(name, "name");
    this.home = Objects.requireNonNull(home, "home");
    this.command = Objects.requireNonNull(command, "command");
    this.readyTimeout = Objects.requireNonNull(readyTimeout, "readyTimeout");
    this.ready = Objects.requireNonNull(ready, "ready");
  }

  /** Whether something accepts connections on {@code port} of 127.0.0.1. */
  public static boolean listening(int port) {
    try {
      new Socket(InetAddress.getLoopbackAddress(), port).close();
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * Whether a GET of {@code url} answers 200 within two seconds: the readiness check of a server
   * that listens before it can answer (a refused or failed connection is "not yet").
   */
  public static boolean answersOk(URI url) {
    HttpRequest get = HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(2)).build();
    try {
      return HTTP.send(get, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
    } catch (IOException e) {
      return false; // Not listening yet.
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for " + url, e);
    }
  }

  /** Starts the process (or restarts it on its previous port) and waits until it listens. */
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
        // Another process can take a port between our probe and the server's bind.
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
      Files.createDirectories(home);
      ProcessBuilder pb = new ProcessBuilder(command.apply(port));
      pb.directory(home.toFile());
      pb.redirectErrorStream(true);
      pb.redirectOutput(ProcessBuilder.Redirect.appendTo(logFile().toFile()));
      pb.environment().putAll(environment);
      process = pb.start();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + name, e);
    }
    awaitListening();
  }

  private void awaitListening() {
    long deadline = System.nanoTime() + readyTimeout.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        int status = process.exitValue();
        process = null;
        throw new IllegalStateException(
            name + " exited with status " + status + " before listening; log:\n" + logTail());
      }
      if (ready.test(port)) {
        return;
      }
      try {
        // Waiting on the process doubles as the poll interval and notices an early exit at once.
        process.waitFor(50, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        destroy(true);
        throw new IllegalStateException("interrupted while waiting for " + name, e);
      }
    }
    destroy(true);
    throw new IllegalStateException(
        name
            + " not listening within "
            + readyTimeout
            + " on port "
            + port
            + "; log:\n"
            + logTail());
  }

  /** Stops the process gracefully (SIGTERM, then SIGKILL after a timeout) and waits for exit. */
  public synchronized void stop() {
    destroy(false);
  }

  /** Kills the process and its children at once (SIGKILL), as a crash would. */
  public synchronized void kill() {
    destroy(true);
  }

  private void destroy(boolean force) {
    if (process == null) {
      return;
    }
    process.toHandle().descendants().forEach(ProcessHandle::destroyForcibly);
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

  /** True while the process is alive. */
  public synchronized boolean isRunning() {
    return process != null && process.isAlive();
  }

  /**
   * The PIDs of the running process and its children, the children first: what a stall (SIGSTOP)
   * must stop so that nothing of the server answers.
   */
  public synchronized List<Long> pids() {
    if (process == null) {
      throw new IllegalStateException(name + " is not running");
    }
    List<Long> pids = new java.util.ArrayList<>();
    process.toHandle().descendants().forEach(child -> pids.add(child.pid()));
    pids.add(process.pid());
    return List.copyOf(pids);
  }

  /** The port the process listens on; fixed after the first start. */
  public synchronized int port() {
    if (port == 0) {
      throw new IllegalStateException(name + " has not been started");
    }
    return port;
  }

  /** The directory the process runs in and keeps its data and log under. */
  public Path home() {
    return home;
  }

  /** The process's combined stdout and stderr. */
  public Path logFile() {
    return home.resolve(name + ".log");
  }

  /** The last part of the log, for failure messages. */
  public String logTail() {
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
}
