package io.racs.bench.demo;

import io.racs.repos.emulator.MinaSftpServer;
import io.racs.repos.emulator.OpenSshServer;
import io.racs.repos.minio.ProvisionedTools;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The SFTP server of {@code racs demo --clouds}: OpenSSH's sshd as a process when {@code ./racs
 * provision} has installed it (RACS_SSHD and RACS_SSH_KEYGEN), else Apache MINA SSHD's in this JVM,
 * so the demo needs no sshd. Either serves the repository's directory, {@code racs}, with a key
 * login and a {@code known_hosts} file of its own; {@link #description()} says which it is.
 */
abstract sealed class DemoSftp {
  private static final String ROOT = "racs";

  /** Starts a server under {@code home}: OpenSSH if {@code preferOpenSsh} and it is provisioned. */
  static DemoSftp start(Path home, boolean preferOpenSsh) throws IOException {
    boolean openSsh =
        preferOpenSsh
            && ProvisionedTools.find("RACS_SSHD").isPresent()
            && ProvisionedTools.find("RACS_SSH_KEYGEN").isPresent();
    DemoSftp sftp =
        openSsh ? new OpenSsh(OpenSshServer.create(home)) : new Mina(MinaSftpServer.create(home));
    Files.createDirectories(sftp.files().resolve(ROOT));
    sftp.start();
    return sftp;
  }

  /** Starts the server, on the same port after the first time. */
  abstract void start();

  /** Stops it at once, dropping every session. */
  abstract void stop();

  abstract int port();

  abstract String user();

  /** The local directory the repository's root lies in. */
  abstract Path files();

  /** The repository's {@code path} as the server sees it. */
  abstract String root();

  abstract Path clientKeyFile();

  abstract Path knownHostsFile();

  /** Which server this is, for the demo's output. */
  abstract String description();

  private static final class OpenSsh extends DemoSftp {
    private final OpenSshServer server;

    OpenSsh(OpenSshServer server) {
      this.server = server;
    }

    @Override
    void start() {
      server.process().start();
    }

    @Override
    void stop() {
      server.process().kill();
    }

    @Override
    int port() {
      return server.process().port();
    }

    @Override
    String user() {
      return server.user();
    }

    @Override
    Path files() {
      return server.files();
    }

    @Override
    String root() {
      return files().resolve(ROOT).toAbsolutePath().toString();
    }

    @Override
    Path clientKeyFile() {
      return server.clientKeyFile();
    }

    @Override
    Path knownHostsFile() {
      return server.knownHostsFile();
    }

    @Override
    String description() {
      return "OpenSSH's sshd (provisioned) at 127.0.0.1:" + port() + ", directory " + root();
    }
  }

  private static final class Mina extends DemoSftp {
    private final MinaSftpServer server;

    Mina(MinaSftpServer server) {
      this.server = server;
    }

    @Override
    void start() {
      server.start();
    }

    @Override
    void stop() {
      server.stop();
    }

    @Override
    int port() {
      return server.port();
    }

    @Override
    String user() {
      return MinaSftpServer.USER;
    }

    @Override
    Path files() {
      return server.files();
    }

    @Override
    String root() {
      return "/" + ROOT;
    }

    @Override
    Path clientKeyFile() {
      return server.clientKeyFile();
    }

    @Override
    Path knownHostsFile() {
      return server.knownHostsFile();
    }

    @Override
    String description() {
      return "Apache MINA SSHD in this JVM (OpenSSH's sshd is not provisioned) at 127.0.0.1:"
          + port()
          + ", directory "
          + files().resolve(ROOT).toAbsolutePath();
    }
  }
}
