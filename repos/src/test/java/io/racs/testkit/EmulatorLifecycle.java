package io.racs.testkit;

import io.racs.repos.process.ServerProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Function;

/**
 * The life of one emulator for a test class, as the test kit's emulator extensions share it:
 * created in a temporary directory of its own and started before the first test; killed after the
 * last (or by a shutdown hook, should the JVM end first) and its directory deleted. Thread-safe.
 *
 * @param <S> the emulator's server class, e.g. {@code FakeGcsServer}
 */
final class EmulatorLifecycle<S> {
  private final String name;
  private final Function<Path, S> create;
  private final Function<S, ServerProcess> process;
  private S server;
  private Path root;
  private Thread shutdownHook;

  /**
   * An emulator called {@code name} (its directory's prefix and its hook's name), made in its
   * directory by {@code create}, run as {@code process} says.
   */
  EmulatorLifecycle(String name, Function<Path, S> create, Function<S, ServerProcess> process) {
    this.name = name;
    this.create = create;
    this.process = process;
  }

  /** Creates and starts the emulator, unless it runs already. */
  synchronized void start() throws IOException {
    if (server != null) {
      return;
    }
    root = Files.createTempDirectory("racs-" + name + "-");
    server = create.apply(root);
    shutdownHook = new Thread(this::kill, name + "-extension-shutdown");
    Runtime.getRuntime().addShutdownHook(shutdownHook);
    process.apply(server).start();
  }

  /** Kills the emulator, deletes its directory and removes the shutdown hook. */
  void stop() {
    kill();
    Thread hook;
    synchronized (this) {
      hook = shutdownHook;
      shutdownHook = null;
    }
    if (hook != null) {
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException e) {
        // The JVM is already shutting down, and the hook runs anyway.
      }
    }
  }

  private synchronized void kill() {
    if (server == null) {
      return;
    }
    process.apply(server).kill();
    server = null;
    TempDirs.deleteTree(root);
  }

  /** The running emulator. */
  synchronized S server() {
    if (server == null) {
      throw new IllegalStateException(name + " is not running");
    }
    return server;
  }
}
