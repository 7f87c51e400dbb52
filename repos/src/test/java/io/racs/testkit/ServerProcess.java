package io.racs.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * A server process that a test-kit extension runs for a test class (an emulator): started with its
 * output in a log file, waited for until it answers, and killed by PID, children included, after
 * the class or when the JVM exits, whichever comes first. Its failures quote the end of its log.
 */
final class ServerProcess {
  private final String name;
  private final Process process;
  private final Path log;
  private final Thread shutdownHook;

  private ServerProcess(String name, Process process, Path log) {
    this.name = name;
    this.process = process;
    this.log = log;
    this.shutdownHook = new Thread(this::kill, name + "-shutdown");
    Runtime.getRuntime().addShutdownHook(shutdownHook);
  }

  /** Starts {@code command}, called {@code name} in messages, with its output in {@code log}. */
  static ServerProcess start(String name, ProcessBuilder command, Path log) throws IOException {
    command.redirectErrorStream(true);
    command.redirectOutput(log.toFile());
    return new ServerProcess(name, command.start(), log);
  }

  /** A port of 127.0.0.1 that nothing listens on now. */
  static int freeLoopbackPort() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("no free port on 127.0.0.1", e);
    }
  }

  /**
   * Returns once {@code ready} holds, polling it without sleeping: between two polls it waits on
   * the process, which notices an early exit at once. Stops the process and fails, quoting its log,
   * if it exits or is not ready within {@code timeout}.
   */
  void awaitReady(Duration timeout, BooleanSupplier ready) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            name + " exited with status " + process.exitValue() + "; log:\n" + logTail());
      }
      if (ready.getAsBoolean()) {
        return;
      }
      try {
        process.waitFor(50, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for " + name, e);
      }
    }
    String tail = logTail();
    stop();
    throw new IllegalStateException(name + " not ready within " + timeout + "; log:\n" + tail);
  }

  /** Kills the process and its children, and forgets the shutdown hook. Idempotent. */
  void stop() {
    kill();
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException e) {
      // The JVM is already shutting down, and the hook runs anyway.
    }
  }

  private void kill() {
    process.toHandle().descendants().forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
    try {
      process.waitFor(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** The last part of the process's log, for failure messages. */
  String logTail() {
    try {
      String text = Files.readString(log);
      return text.length() > 4000 ? text.substring(text.length() - 4000) : text;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
