package io.racs.e2e;

import io.racs.repos.emulator.EmulatorProcess;
import io.racs.repos.minio.ProvisionedTools;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Debian's OpenSSH server ({@code sshd} from the {@code openssh-server} package, which {@code
 * scripts/provision.sh} installs and names as {@code RACS_SSHD}) as a real SFTP server on
 * 127.0.0.1: its own configuration, a fresh ed25519 host key and client key, key authentication
 * only, and {@code internal-sftp} as the SFTP subsystem. The known_hosts file it writes holds the
 * host key under {@code [127.0.0.1]:PORT}, so a client that verifies host keys accepts this server
 * and nothing else.
 *
 * <p>sshd forks a child per connection; {@link EmulatorProcess#pids()} names them too, so a stall
 * (SIGSTOP of every PID) freezes the open sessions as well as the listener.
 */
final class OpenSshServer implements AutoCloseable {
  private static final Duration READY_TIMEOUT = Duration.ofSeconds(20);

  private final Path home;
  private final EmulatorProcess process;

  private OpenSshServer(Path home, Path sshd) {
    this.home = home;
    this.process =
        new EmulatorProcess(
            "sshd",
            home,
            port -> {
              writeConfig(port);
              return List.of(
                  sshd.toString(), "-D", "-e", "-f", home.resolve("sshd_config").toString());
            },
            READY_TIMEOUT);
  }

  /** A server whose state lives under {@code home}, with its keys made; not started. */
  static OpenSshServer create(Path home) throws IOException {
    Files.createDirectories(home);
    keygen(home.resolve("host_ed25519"));
    keygen(home.resolve("client_ed25519"));
    Files.copy(home.resolve("client_ed25519.pub"), home.resolve("authorized_keys"));
    // sshd refuses to start as root without its privilege separation directory, which Debian's
    // service unit creates and a plain process start does not.
    if ("root".equals(System.getProperty("user.name"))) {
      Files.createDirectories(Path.of("/run/sshd"));
    }
    return new OpenSshServer(home, ProvisionedTools.require("RACS_SSHD"));
  }

  private void writeConfig(int port) {
    String config =
        """
        Port %d
        ListenAddress 127.0.0.1
        HostKey %s
        PidFile %s
        AuthorizedKeysFile %s
        AuthenticationMethods publickey
        PasswordAuthentication no
        KbdInteractiveAuthentication no
        UsePAM no
        StrictModes no
        PermitRootLogin prohibit-password
        AllowUsers %s
        Subsystem sftp internal-sftp
        MaxStartups 100
        MaxSessions 100
        LogLevel ERROR
        """
            .formatted(
                port,
                home.resolve("host_ed25519"),
                home.resolve("sshd.pid"),
                home.resolve("authorized_keys"),
                user());
    try {
      Files.writeString(home.resolve("sshd_config"), config);
      String hostKey = Files.readString(home.resolve("host_ed25519.pub")).strip();
      String[] parts = hostKey.split(" ");
      Files.writeString(
          knownHosts(), "[127.0.0.1]:" + port + " " + parts[0] + " " + parts[1] + "\n");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void keygen(Path key) throws IOException {
    try {
      Process p =
          new ProcessBuilder(
                  "ssh-keygen",
                  "-q",
                  "-t",
                  "ed25519",
                  "-N",
                  "",
                  "-C",
                  "racs-test",
                  "-f",
                  key.toString())
              .redirectErrorStream(true)
              .start();
      p.getOutputStream().close();
      String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
        throw new IllegalStateException("ssh-keygen failed for " + key + ": " + output);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** The process: start, stop, kill, its PIDs (sessions included) and log. */
  EmulatorProcess process() {
    return process;
  }

  /** The user clients log in as: the one running the tests. */
  String user() {
    return System.getProperty("user.name");
  }

  /** The client's private key (OpenSSH format, no passphrase). */
  Path clientKey() {
    return home.resolve("client_ed25519");
  }

  /** A known_hosts file naming this server's host key, written at each start. */
  Path knownHosts() {
    return home.resolve("known_hosts");
  }

  @Override
  public void close() {
    process.close();
  }
}
