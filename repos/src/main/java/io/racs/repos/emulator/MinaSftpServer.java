package io.racs.repos.emulator;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.util.List;
import org.apache.sshd.common.config.keys.KeyUtils;
import org.apache.sshd.common.config.keys.PublicKeyEntry;
import org.apache.sshd.common.config.keys.writer.openssh.OpenSSHKeyPairResourceWriter;
import org.apache.sshd.common.file.virtualfs.VirtualFileSystemFactory;
import org.apache.sshd.common.keyprovider.KeyPairProvider;
import org.apache.sshd.server.SshServer;
import org.apache.sshd.sftp.server.SftpSubsystemFactory;

/**
 * An SSH server with the SFTP subsystem, Apache MINA SSHD's, running in this JVM on 127.0.0.1: what
 * {@code racs demo --clouds} uses for its {@code sftp} repository when OpenSSH's sshd ({@link
 * OpenSshServer}) is not provisioned. It serves {@link #files()} as its file system's {@code /}, so
 * a repository's {@code path} is virtual ({@code /racs} is {@code files()/racs}).
 *
 * <p>One ECDSA host key, listed in {@link #knownHostsFile()}, and one ed25519 client key ({@link
 * #clientKeyFile()}, OpenSSH format, no passphrase) with which {@link #USER} logs in; no password
 * login. Both keys are made once, in {@link #create}, so a {@link #stop()} and {@link #start()} (on
 * the same port) bring back the same server, as a provider coming back would. Thread-safe.
 */
public final class MinaSftpServer implements AutoCloseable {
  /** The one user. */
  public static final String USER = "racs";

  private final Path home;
  private final KeyPair hostKey;
  private final KeyPair clientKey;
  private int port;
  private SshServer server;

  private MinaSftpServer(Path home, KeyPair hostKey, KeyPair clientKey) {
    this.home = home;
    this.hostKey = hostKey;
    this.clientKey = clientKey;
  }

  /** A server whose keys and files live under {@code home}; not started. */
  public static MinaSftpServer create(Path home) throws IOException {
    Files.createDirectories(home.resolve("files"));
    try {
      MinaSftpServer server =
          new MinaSftpServer(
              home,
              KeyUtils.generateKeyPair(KeyPairProvider.ECDSA_SHA2_NISTP256, 256),
              KeyUtils.generateKeyPair(KeyPairProvider.SSH_ED25519, 256));
      try (OutputStream out = Files.newOutputStream(server.clientKeyFile())) {
        OpenSSHKeyPairResourceWriter.INSTANCE.writePrivateKey(
            server.clientKey, "racs-demo", null, out);
      }
      return server;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot make SSH keys: " + e.getMessage(), e);
    }
  }

  /** Starts the server: on a free port the first time, on the same port afterwards. */
  public synchronized void start() {
    if (server != null) {
      return;
    }
    SshServer ssh = SshServer.setUpDefaultServer();
    ssh.setHost("127.0.0.1");
    ssh.setPort(port);
    ssh.setKeyPairProvider(KeyPairProvider.wrap(hostKey));
    ssh.setPublickeyAuthenticator(
        (user, key, session) ->
            USER.equals(user) && KeyUtils.compareKeys(key, clientKey.getPublic()));
    ssh.setSubsystemFactories(List.of(new SftpSubsystemFactory()));
    ssh.setFileSystemFactory(new VirtualFileSystemFactory(files()));
    try {
      ssh.start();
      port = ssh.getPort();
      Files.writeString(
          knownHostsFile(),
          "[127.0.0.1]:" + port + " " + PublicKeyEntry.toString(hostKey.getPublic()) + "\n");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start the SFTP server on 127.0.0.1:" + port, e);
    }
    server = ssh;
  }

  /** Stops the server at once, dropping every session, as a crash of the host would. */
  public synchronized void stop() {
    if (server == null) {
      return;
    }
    try {
      server.stop(true);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      server = null;
    }
  }

  /** True while the server listens. */
  public synchronized boolean isRunning() {
    return server != null;
  }

  /** The port the server listens on; fixed after the first start. */
  public synchronized int port() {
    if (port == 0) {
      throw new IllegalStateException("the SFTP server has not been started");
    }
    return port;
  }

  /** The local directory served as the file system's {@code /}. */
  public Path files() {
    return home.resolve("files");
  }

  /** A {@code known_hosts} file listing the server's host key, written at start. */
  public Path knownHostsFile() {
    return home.resolve("known_hosts");
  }

  /** The client's ed25519 private key (OpenSSH format, no passphrase). */
  public Path clientKeyFile() {
    return home.resolve("id_ed25519");
  }

  @Override
  public void close() {
    stop();
  }
}
