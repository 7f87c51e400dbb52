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
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A JUnit 5 extension that runs Debian's OpenSSH server ({@code sshd}, as {@code
 * scripts/provision.sh} installs it) as a process of the current user on a free port of 127.0.0.1
 * for a test class, with its own configuration, host keys and {@code authorized_keys} in a
 * temporary directory, the SFTP subsystem of OpenSSH itself ({@code internal-sftp}), and kills it
 * by PID after the last test.
 *
 * <pre>{@code
 * @RegisterExtension static final OpenSshServerExtension OPENSSH = new OpenSshServerExtension();
 * }</pre>
 *
 * <p>Keys are made with {@code ssh-keygen}: the server gets an ed25519 and an ECDSA host key, of
 * which {@link #knownHostsFile()} lists only the ed25519 one (as a first {@code ssh} login would
 * record it), and the client an ed25519 key ({@link #clientKeyFile()}) that {@link #user()} may log
 * in with. No password logins, no PAM; {@code StrictModes} off, since the files live in a temporary
 * directory.
 */
public final class OpenSshServerExtension implements BeforeAllCallback, AfterAllCallback {
  private static final Duration READY_TIMEOUT = Duration.ofSeconds(30);

  private Path dir;
  private Process process;
  private int port;
  private Thread shutdownHook;

  @Override
  public synchronized void beforeAll(ExtensionContext context) throws Exception {
    if (process != null) {
      return;
    }
    dir = Files.createTempDirectory("racs-openssh-");
    Files.createDirectory(dir.resolve("files"));
    keygen("ed25519", dir.resolve("host_ed25519"));
    keygen("ecdsa", dir.resolve("host_ecdsa"));
    keygen("ed25519", clientKeyFile());
    Files.copy(dir.resolve("id_ed25519.pub"), dir.resolve("authorized_keys"));
    port = freePort();
    Files.writeString(
        knownHostsFile(),
        "[127.0.0.1]:"
            + port
            + " "
            + Files.readString(dir.resolve("host_ed25519.pub")).strip()
            + "\n");
    Path config = dir.resolve("sshd_config");
    Files.writeString(
        config,
        String.join(
            "\n",
            "ListenAddress 127.0.0.1:" + port,
            "HostKey " + dir.resolve("host_ed25519"),
            "HostKey " + dir.resolve("host_ecdsa"),
            "PidFile " + dir.resolve("sshd.pid"),
            "AuthorizedKeysFile " + dir.resolve("authorized_keys"),
            "PubkeyAuthentication yes",
            "PasswordAuthentication no",
            "KbdInteractiveAuthentication no",
            "UsePAM no",
            "StrictModes no",
            "PermitRootLogin prohibit-password",
            "AllowUsers " + user(),
            "Subsystem sftp internal-sftp",
            "LogLevel INFO",
            ""));
    ProcessBuilder pb =
        new ProcessBuilder(
            List.of(TestTools.sshd().toString(), "-D", "-e", "-f", config.toString()));
    pb.redirectErrorStream(true);
    pb.redirectOutput(dir.resolve("sshd.log").toFile());
    process = pb.start();
    shutdownHook = new Thread(this::stop, "openssh-extension-shutdown");
    Runtime.getRuntime().addShutdownHook(shutdownHook);
    awaitListening();
  }

  private void keygen(String type, Path file) throws IOException, InterruptedException {
    Process keygen =
        new ProcessBuilder(
                TestTools.sshKeygen().toString(),
                "-q",
                "-t",
                type,
                "-N",
                "",
                "-C",
                "racs-test",
                "-f",
                file.toString())
            .redirectErrorStream(true)
            .start();
    String output = new String(keygen.getInputStream().readAllBytes());
    if (!keygen.waitFor(30, TimeUnit.SECONDS) || keygen.exitValue() != 0) {
      throw new IllegalStateException("ssh-keygen -t " + type + " failed: " + output);
    }
  }

  private void awaitListening() throws IOException {
    long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            "sshd exited with status " + process.exitValue() + "; log:\n" + log());
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
        throw new IllegalStateException("interrupted while waiting for sshd", e);
      }
    }
    stop();
    throw new IllegalStateException(
        "sshd not listening within " + READY_TIMEOUT + "; log:\n" + log());
  }

  @Override
  public void afterAll(ExtensionContext context) {
    stop();
    if (shutdownHook != null) {
      try {
        Runtime.getRuntime().removeShutdownHook(shutdownHook);
      } catch (IllegalStateException e) {
        // The JVM is already shutting down, and the hook runs anyway.
      }
    }
  }

  private synchronized void stop() {
    if (process == null) {
      return;
    }
    // The listener and the per-connection processes it forked.
    process.toHandle().descendants().forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
    try {
      process.waitFor(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    process = null;
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    } catch (IOException e) {
      // Best effort: a temporary directory left behind is harmless.
    }
  }

  /** The port sshd listens on. */
  public int port() {
    return port;
  }

  /** The user who may log in: the one running the tests (and so sshd). */
  public String user() {
    return System.getProperty("user.name");
  }

  /** A local directory to put repository roots in; sshd serves the real file system. */
  public Path files() {
    return dir.resolve("files");
  }

  /** A {@code known_hosts} file listing the server's ed25519 host key only. */
  public Path knownHostsFile() {
    return dir.resolve("known_hosts");
  }

  /** The client's ed25519 private key, as {@code ssh-keygen} writes it. */
  public Path clientKeyFile() {
    return dir.resolve("id_ed25519");
  }

  /** The last part of sshd's log, for failure messages. */
  public String log() {
    try {
      String text = Files.readString(dir.resolve("sshd.log"));
      return text.length() > 4000 ? text.substring(text.length() - 4000) : text;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("no free port on 127.0.0.1", e);
    }
  }
}
