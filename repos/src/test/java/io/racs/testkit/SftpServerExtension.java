package io.racs.testkit;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.sshd.common.config.keys.KeyUtils;
import org.apache.sshd.common.config.keys.PublicKeyEntry;
import org.apache.sshd.common.config.keys.writer.openssh.OpenSSHKeyEncryptionContext;
import org.apache.sshd.common.config.keys.writer.openssh.OpenSSHKeyPairResourceWriter;
import org.apache.sshd.common.file.virtualfs.VirtualFileSystemFactory;
import org.apache.sshd.common.keyprovider.KeyPairProvider;
import org.apache.sshd.server.SshServer;
import org.apache.sshd.server.session.ServerSession;
import org.apache.sshd.sftp.server.FileHandle;
import org.apache.sshd.sftp.server.SftpEventListener;
import org.apache.sshd.sftp.server.SftpSubsystemFactory;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A JUnit 5 extension that runs a real SSH server with the SFTP subsystem (Apache MINA SSHD's, in
 * this JVM) on a free port of 127.0.0.1 for a test class, serving a temporary directory as the file
 * system's root, and stops it after the last test.
 *
 * <pre>{@code
 * @RegisterExtension static final SftpServerExtension SFTP = new SftpServerExtension();
 * }</pre>
 *
 * <p>It generates an ECDSA host key and writes it to a {@code known_hosts} file ({@link
 * #knownHostsFile()}), and an ed25519 client key in OpenSSH format ({@link #clientKeyFile()}, and
 * an encrypted copy, {@link #encryptedClientKeyFile()}); user {@link #USER} logs in with that key
 * or with {@link #PASSWORD}. Tests can stop and restart the server on the same port ({@link
 * #stop()}, {@link #start()}), give it a new host key ({@link #changeHostKey()}), and hold every
 * read request until released ({@link #holdReads()}) to make the server stall.
 */
public final class SftpServerExtension implements BeforeAllCallback, AfterAllCallback {
  /** The one user. */
  public static final String USER = "racs";

  /** The user's password (a test value). */
  public static final String PASSWORD = "racs-test-password";

  /** The passphrase of {@link #encryptedClientKeyFile()} (a test value). */
  public static final String KEY_PASSPHRASE = "racs-test-passphrase";

  private Path dir;
  private Path files;
  private KeyPair hostKey;
  private KeyPair clientKey;
  private int port;
  private SshServer server;
  private volatile CountDownLatch heldReads;

  @Override
  public synchronized void beforeAll(ExtensionContext context) throws Exception {
    if (server != null) {
      return;
    }
    dir = Files.createTempDirectory("racs-sftp-");
    files = Files.createDirectory(dir.resolve("files"));
    hostKey = KeyUtils.generateKeyPair(KeyPairProvider.ECDSA_SHA2_NISTP256, 256);
    clientKey = KeyUtils.generateKeyPair(KeyPairProvider.SSH_ED25519, 256);
    writePrivateKey(clientKeyFile(), null);
    writePrivateKey(encryptedClientKeyFile(), KEY_PASSPHRASE);
    start();
    Files.writeString(knownHostsFile(), knownHostsLine(hostKey));
  }

  @Override
  public synchronized void afterAll(ExtensionContext context) {
    release();
    stop();
    TempDirs.deleteTree(dir);
  }

  /** Starts the server: on a free port the first time, on the same port afterwards. */
  public synchronized void start() throws IOException {
    if (server != null) {
      return;
    }
    SshServer ssh = SshServer.setUpDefaultServer();
    ssh.setHost("127.0.0.1");
    ssh.setPort(port);
    ssh.setKeyPairProvider(KeyPairProvider.wrap(hostKey));
    ssh.setPasswordAuthenticator(
        (user, password, session) -> USER.equals(user) && PASSWORD.equals(password));
    ssh.setPublickeyAuthenticator(
        (user, key, session) ->
            USER.equals(user) && KeyUtils.compareKeys(key, clientKey.getPublic()));
    SftpSubsystemFactory sftp = new SftpSubsystemFactory();
    sftp.addSftpEventListener(
        new SftpEventListener() {
          @Override
          public void reading(
              ServerSession session,
              String remoteHandle,
              FileHandle localHandle,
              long offset,
              byte[] data,
              int dataOffset,
              int dataLen) {
            awaitRelease();
          }
        });
    ssh.setSubsystemFactories(List.of(sftp));
    ssh.setFileSystemFactory(new VirtualFileSystemFactory(files));
    ssh.start();
    port = ssh.getPort();
    server = ssh;
  }

  /** Stops the server at once, dropping every session. */
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

  /** Gives the server a new host key (taking effect at the next {@link #start()}). */
  public synchronized void changeHostKey() throws GeneralSecurityException {
    hostKey = KeyUtils.generateKeyPair(KeyPairProvider.ECDSA_SHA2_NISTP256, 256);
  }

  /** Makes every read request wait until {@link #release()}. */
  public void holdReads() {
    heldReads = new CountDownLatch(1);
  }

  /** Lets held read requests go on, and later ones through. */
  public void release() {
    CountDownLatch held = heldReads;
    heldReads = null;
    if (held != null) {
      held.countDown();
    }
  }

  private void awaitRelease() {
    CountDownLatch held = heldReads;
    if (held != null) {
      try {
        // Bounded, so that a test that forgets to release cannot hang the server's threads.
        held.await(60, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** The port the server listens on. */
  public int port() {
    return port;
  }

  /** The local directory the server serves as its file system's {@code /}. */
  public Path files() {
    return files;
  }

  /** A {@code known_hosts} file that lists the server's host key. */
  public Path knownHostsFile() {
    return dir.resolve("known_hosts");
  }

  /** The client's ed25519 private key, unencrypted, in OpenSSH format. */
  public Path clientKeyFile() {
    return dir.resolve("id_ed25519");
  }

  /** The client's private key, encrypted with {@link #KEY_PASSPHRASE}. */
  public Path encryptedClientKeyFile() {
    return dir.resolve("id_ed25519_encrypted");
  }

  /** The {@code known_hosts} line for the server's current host key. */
  public String knownHostsLine() {
    return knownHostsLine(hostKey);
  }

  private String knownHostsLine(KeyPair key) {
    return "[127.0.0.1]:" + port + " " + PublicKeyEntry.toString(key.getPublic()) + "\n";
  }

  private void writePrivateKey(Path file, String passphrase)
      throws IOException, GeneralSecurityException {
    OpenSSHKeyEncryptionContext encryption = null;
    if (passphrase != null) {
      encryption = new OpenSSHKeyEncryptionContext();
      encryption.setCipherName("AES");
      encryption.setCipherMode("CTR");
      encryption.setCipherType("256");
      encryption.setPassword(passphrase);
    }
    try (OutputStream out = Files.newOutputStream(file)) {
      OpenSSHKeyPairResourceWriter.INSTANCE.writePrivateKey(
          clientKey, "racs-test", encryption, out);
    }
  }

  /** Writes {@code text} to a new file in the extension's directory and returns its path. */
  public Path writeFile(String name, String text) throws IOException {
    return Files.writeString(dir.resolve(name), text, StandardCharsets.UTF_8);
  }
}
