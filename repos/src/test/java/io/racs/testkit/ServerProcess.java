package io.racs.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A server that a test-kit extension runs as a child process (Azurite, OpenSSH's sshd): started
 * with its output in a log file, awaited until it listens on its port (its log shown if it exits or
 * never listens), and killed by PID with every process it forked, also when the JVM exits first.
 */
public final class ServerProcess {
  private final String what;
  private final Process process;
  private final Path log;
  private final Thread shutdownHook;
  private boolean stopped;

  private ServerProcess(String what, Process process, Path log) {
    this.what = what;
    this.process = process;
    this.log = log;
    this.shutdownHook = new Thread(this::kill, what + "-shutdown");
    Runtime.getRuntime().addShutdownHook(shutdownHook);
  }

  /** Starts {@code command}, called {@code what} in messages, writing its output to {@code log}. */
  public static ServerProcess start(String what, List<String> command, Path log)
      throws IOException {
    ProcessBuilder pb = new ProcessBuilder(command);
    pb.redirectErrorStream(true);
    pb.redirectOutput(log.toFile());
    return new ServerProcess(what, pb.start(), log);
  }

  /**
   * Waits until the server accepts connections on {@code port} of 127.0.0.1; stops it and fails,
   * with its log, if it exits or is not listening within {@code timeout}.
   */
  public void awaitListening(int port, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            what + " exited with status " + process.exitValue() + "; log:\n" + logTail());
      }
      try {
        new Socket(InetAddress.getLoopbackAddress(), port).close();
        return;
      } catch (IOException e) {
        // Not listening yet.
      }
      try {
        // Waiting on the process doubles as the poll interval and notices an early exit at once.
        process.waitFor(50, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for " + what, e);
      }
    }
    stop();
    throw new IllegalStateException(
        what + " not listening within " + timeout + "; log:\n" + logTail());
  }

  /** Kills the server and what it forked, and waits for it. Idempotent. */
  public synchronized void stop() {
    kill();
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException e) {
      // The JVM is already shutting down, and the hook runs anyway.
    }
  }

  private synchronized void kill() {
    if (stopped) {
      return;
    }
    stopped = true;
    process.toHandle().descendants().forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
    try {
      process.waitFor(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** The last part of the server's log, for failure messages. */
  public String logTail() {
    try {
      String text = Files.readString(log);
      return text.length() > 4000 ? text.substring(text.length() - 4000) : text;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A port of 127.0.0.1 that was free a moment ago. */
  public static int freePort() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("no free port on 127.0.0.1", e);
    }
  }

  /** Deletes {@code dir} and everything in it, as far as it can: a leftover is harmless. */
  public static void deleteTree(Path dir) {
    if (dir == null) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    } catch (IOException e) {
      // Best effort: a temporary directory left behind is harmless.
    }
  }
}
