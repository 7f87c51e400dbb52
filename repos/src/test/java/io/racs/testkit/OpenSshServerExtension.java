package io.racs.testkit;

import io.racs.repos.emulator.OpenSshServer;
import io.racs.repos.process.ServerProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A JUnit 5 extension that runs Debian's OpenSSH server ({@link OpenSshServer}) on a free port of
 * 127.0.0.1 for a test class, in a temporary directory, and kills it after the last test.
 *
 * <pre>{@code
 * @RegisterExtension static final OpenSshServerExtension OPENSSH = new OpenSshServerExtension();
 * }</pre>
 */
public final class OpenSshServerExtension implements BeforeAllCallback, AfterAllCallback {
  private Path dir;
  private OpenSshServer server;

  @Override
  public synchronized void beforeAll(ExtensionContext context) throws Exception {
    if (server != null) {
      return;
    }
    dir = Files.createTempDirectory("racs-openssh-");
    server = OpenSshServer.create(dir);
    server.process().start();
  }

  @Override
  public synchronized void afterAll(ExtensionContext context) {
    if (server != null) {
      server.process().kill();
      server = null;
    }
    TempDirs.deleteTree(dir);
  }

  /** The running server's process: to kill, stop, restart or stall it. */
  public synchronized ServerProcess process() {
    return server.process();
  }

  /** The port sshd listens on. */
  public int port() {
    return server.process().port();
  }

  /** The user who may log in: the one running the tests (and so sshd). */
  public String user() {
    return server.user();
  }

  /** A local directory to put repository roots in; sshd serves the real file system. */
  public Path files() {
    return server.files();
  }

  /** A {@code known_hosts} file listing the server's ed25519 host key only. */
  public Path knownHostsFile() {
    return server.knownHostsFile();
  }

  /** The client's ed25519 private key, as {@code ssh-keygen} writes it. */
  public Path clientKeyFile() {
    return server.clientKeyFile();
  }

  /** The last part of sshd's log, for failure messages. */
  public String log() {
    return server.process().logTail();
  }
}
