package io.racs.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
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
  private ServerProcess server;
  private int port;

  @Override
  public synchronized void beforeAll(ExtensionContext context) throws Exception {
    if (server != null) {
      return;
    }
    dir = Files.createTempDirectory("racs-openssh-");
    Files.createDirectory(dir.resolve("files"));
    keygen("ed25519", dir.resolve("host_ed25519"));
    keygen("ecdsa", dir.resolve("host_ecdsa"));
    keygen("ed25519", clientKeyFile());
    Files.copy(dir.resolve("id_ed25519.pub"), dir.resolve("authorized_keys"));
    port = ServerProcess.freePort();
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
    server =
        ServerProcess.start(
            "sshd",
            List.of(TestTools.sshd().toString(), "-D", "-e", "-f", config.toString()),
            dir.resolve("sshd.log"));
    server.awaitListening(port, READY_TIMEOUT);
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

  @Override
  public synchronized void afterAll(ExtensionContext context) {
    if (server != null) {
      server.stop();
      server = null;
    }
    ServerProcess.deleteTree(dir);
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
    return server.logTail();
  }
}
