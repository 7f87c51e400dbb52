package io.racs.repos.emulator;

import io.racs.repos.minio.ProvisionedTools;
import io.racs.repos.process.ServerProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Debian's OpenSSH server ({@code sshd} of the {@code openssh-server} package, which {@code
 * scripts/provision.sh} installs and names as {@code RACS_SSHD}) as a real SFTP server on
 * 127.0.0.1, run as a process of the current user with its own configuration: an ed25519 and an
 * ECDSA host key, of which {@link #knownHostsFile()} lists only the ed25519 one (as a first {@code
 * ssh} login would record it), an ed25519 client key that {@link #user()} may log in with, key
 * authentication only, no PAM, {@code StrictModes} off (the files live in a temporary directory),
 * and OpenSSH's own {@code internal-sftp} as the SFTP subsystem. It serves the real file system;
 * {@link #files()} is a directory for repository roots.
 *
 * <p>sshd forks a child per connection; {@link ServerProcess#pids()} names them too, so a stall
 * (SIGSTOP of every PID) freezes the open sessions as well as the listener.
 */
public final class OpenSshServer implements AutoCloseable {
  private static final Duration READY_TIMEOUT = Duration.ofSeconds(30);

  private final Path home;
  private final ServerProcess process;

  private OpenSshServer(Path home, Path sshd) {
    this.home = home;
    this.process =
        new ServerProcess(
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
  public static OpenSshServer create(Path home) throws IOException {
    Path sshd = ProvisionedTools.require("RACS_SSHD");
    Path keygen = ProvisionedTools.require("RACS_SSH_KEYGEN");
    Files.createDirectories(home.resolve("files"));
    keygen(keygen, "ed25519", home.resolve("host_ed25519"));
    keygen(keygen, "ecdsa", home.resolve("host_ecdsa"));
    keygen(keygen, "ed25519", home.resolve("id_ed25519"));
    Files.copy(home.resolve("id_ed25519.pub"), home.resolve("authorized_keys"));
    // sshd run by root refuses to start without its privilege separation directory, which Debian's
    // service unit creates and a plain process start does not.
    if ("root".equals(System.getProperty("user.name"))) {
      Files.createDirectories(Path.of("/run/sshd"));
    }
    return new OpenSshServer(home, sshd);
  }

  private void writeConfig(int port) {
    String config =
        String.join(
            "\n",
            "ListenAddress 127.0.0.1:" + port,
            "HostKey " + home.resolve("host_ed25519"),
            "HostKey " + home.resolve("host_ecdsa"),
            "PidFile " + home.resolve("sshd.pid"),
            "AuthorizedKeysFile " + home.resolve("authorized_keys"),
            "PubkeyAuthentication yes",
            "PasswordAuthentication no",
            "KbdInteractiveAuthentication no",
            "UsePAM no",
            "StrictModes no",
            "PermitRootLogin prohibit-password",
            "AllowUsers " + user(),
            "Subsystem sftp internal-sftp",
            "MaxStartups 100",
            "MaxSessions 100",
            "LogLevel INFO",
            "");
    try {
      Files.writeString(home.resolve("sshd_config"), config);
      Files.writeString(
          knownHostsFile(),
          "[127.0.0.1]:"
              + port
              + " "
              + Files.readString(home.resolve("host_ed25519.pub")).strip()
              + "\n");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void keygen(Path keygen, String type, Path file) throws IOException {
    Process p =
        new ProcessBuilder(
                keygen.toString(),
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
    p.getOutputStream().close();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    try {
      if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
        throw new IllegalStateException("ssh-keygen -t " + type + " failed: " + output);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while making keys", e);
    }
  }

  /** The process: start, stop, kill, its PIDs (sessions included) and log. */
  public ServerProcess process() {
    return process;
  }

  /** The user who may log in: the one running sshd. */
  public String user() {
    return System.getProperty("user.name");
  }

  /** A local directory to put repository roots in. */
  public Path files() {
    return home.resolve("files");
  }

  /** A {@code known_hosts} file listing the server's ed25519 host key only, written at start. */
  public Path knownHostsFile() {
    return home.resolve("known_hosts");
  }

  /** The client's ed25519 private key (OpenSSH format, no passphrase). */
  public Path clientKeyFile() {
    return home.resolve("id_ed25519");
  }

  @Override
  public void close() {
    process.close();
  }
}
