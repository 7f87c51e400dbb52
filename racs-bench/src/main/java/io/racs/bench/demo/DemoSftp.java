package io.racs.bench.demo;

import io.racs.repos.emulator.MinaSftpServer;
import io.racs.repos.emulator.OpenSshServer;
import io.racs.repos.minio.ProvisionedTools;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.IntSupplier;

/**
 * The SFTP server of {@code racs demo --clouds}: OpenSSH's sshd as a process when {@code ./racs
 * provision} has installed it (RACS_SSHD and RACS_SSH_KEYGEN), else Apache MINA SSHD's in this JVM,
 * so the demo needs no sshd. Either serves the repository's directory, {@code racs} under {@code
 * files}, with a key login and a {@code known_hosts} file of its own.
 *
 * @param start starts the server, on the same port after the first time
 * @param stop stops it at once, dropping every session
 * @param port the port it listens on, once started
 * @param user the login user
 * @param root the repository's {@code path} as the server sees it
 * @param clientKeyFile the client's private key
 * @param knownHostsFile a {@code known_hosts} file listing the server's host key
 * @param kind which server this is, for the demo's output
 * @param directory the local directory the repository's files are in
 */
record DemoSftp(
    Runnable start,
    Runnable stop,
    IntSupplier port,
    String user,
    String root,
    Path clientKeyFile,
    Path knownHostsFile,
    String kind,
    Path directory) {
  private static final String ROOT = "racs";

  /** Starts a server under {@code home}: OpenSSH if {@code preferOpenSsh} and it is provisioned. */
  static DemoSftp start(Path home, boolean preferOpenSsh) throws IOException {
    boolean openSsh =
        preferOpenSsh
            && ProvisionedTools.find("RACS_SSHD").isPresent()
            && ProvisionedTools.find("RACS_SSH_KEYGEN").isPresent();
    DemoSftp sftp;
    if (openSsh) {
      OpenSshServer server = OpenSshServer.create(home);
      Path directory = server.files().resolve(ROOT).toAbsolutePath();
      sftp =
          new DemoSftp(
              server.process()::start,
              server.process()::kill,
              server.process()::port,
              server.user(),
              directory.toString(),
              server.clientKeyFile(),
              server.knownHostsFile(),
              "OpenSSH's sshd (provisioned)",
              directory);
    } else {
      MinaSftpServer server = MinaSftpServer.create(home);
      sftp =
          new DemoSftp(
              server::start,
              server::stop,
              server::port,
              MinaSftpServer.USER,
              "/" + ROOT,
              server.clientKeyFile(),
              server.knownHostsFile(),
              "Apache MINA SSHD in this JVM"
                  + (preferOpenSsh ? " (OpenSSH's sshd is not provisioned)" : ""),
              server.files().resolve(ROOT).toAbsolutePath());
    }
    Files.createDirectories(sftp.directory());
    sftp.start().run();
    return sftp;
  }

  /** Which server this is, where, and the directory it keeps the repository in. */
  String description() {
    return kind + " at 127.0.0.1:" + port.getAsInt() + ", directory " + directory;
  }
}
