package io.racs.repos.sftp;

import io.racs.repos.RepositoryException;
import io.racs.repos.RepositoryException.Kind;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.sshd.client.SshClient;
import org.apache.sshd.client.session.ClientSession;
import org.apache.sshd.common.NamedResource;
import org.apache.sshd.common.config.keys.FilePasswordProvider;
import org.apache.sshd.common.session.Session;
import org.apache.sshd.common.session.SessionListener;
import org.apache.sshd.common.util.security.SecurityUtils;
import org.apache.sshd.core.CoreModuleProperties;
import org.apache.sshd.sftp.SftpModuleProperties;
import org.apache.sshd.sftp.client.SftpClient;
import org.apache.sshd.sftp.client.extensions.openssh.OpenSSHFsyncExtension;
import org.apache.sshd.sftp.client.extensions.openssh.OpenSSHPosixRenameExtension;

/**
 * The SSH sessions and SFTP channels of one {@link SftpRepository}: {@code channels} SFTP channels
 * spread over {@code sessions} SSH sessions, opened on first use and opened again, transparently,
 * when the one a call picks has been closed (the server restarted, the network dropped, the session
 * idled out). See "Connections" in {@link SftpRepository}.
 *
 * <p>Calls share channels: an SFTP channel carries many requests at once, each answered under its
 * own id, so a call takes the next channel in turn and never waits for another call to finish.
 * Several channels let a server that serves each channel with one process ({@code sftp-server})
 * work on several requests in parallel; several sessions spread the encryption over several TCP
 * connections.
 */
final class SftpConnections implements AutoCloseable {
  /** What the server offers beyond SFTP version 3, learnt from the first channel opened. */
  record Capabilities(boolean posixRename, boolean fsync) {}

  private final String name;
  private final SftpOptions options;
  private final ReentrantLock clientLock = new ReentrantLock();
  private final ReentrantLock[] sessionLocks;
  private final ReentrantLock[] channelLocks;
  private final ClientSession[] sessions;
  private final AtomicReferenceArray<SftpClient> channels;
  private final AtomicInteger next = new AtomicInteger();
  private final AtomicInteger sessionsConnected = new AtomicInteger();
  private final AtomicInteger sessionsClosed = new AtomicInteger();
  private SshClient client;
  private HostKeyCheck hostKeys;
  private List<KeyPair> keyPairs;
  private volatile Capabilities capabilities;
  private volatile boolean closed;

  SftpConnections(String name, SftpOptions options) {
    this.name = name;
    this.options = options;
    this.sessions = new ClientSession[options.sessions()];
    this.channels = new AtomicReferenceArray<>(options.channels());
    this.sessionLocks = locks(options.sessions());
    this.channelLocks = locks(options.channels());
  }

  private static ReentrantLock[] locks(int count) {
    ReentrantLock[] locks = new ReentrantLock[count];
    for (int i = 0; i < count; i++) {
      locks[i] = new ReentrantLock();
    }
    return locks;
  }

  /** How many SSH sessions have been connected so far, reconnections included. For tests. */
  int sessionsConnected() {
    return sessionsConnected.get();
  }

  /** How many SSH sessions have closed so far, for whatever reason. For tests. */
  int sessionsClosed() {
    return sessionsClosed.get();
  }

  /** What the server offers, once a channel has been opened; empty before. */
  Optional<Capabilities> capabilities() {
    return Optional.ofNullable(capabilities);
  }

  /**
   * An open SFTP channel, the next in turn, (re)connected if it was closed.
   *
   * @throws RepositoryException when connecting fails: {@code UNAVAILABLE} (refused, unreachable),
   *     {@code TIMEOUT}, {@code ACCESS_DENIED} (host key refused, authentication failed)
   * @throws IllegalStateException after {@link #close()}
   */
  SftpClient channel() {
    checkOpen();
    int i = Math.floorMod(next.getAndIncrement(), channels.length());
    SftpClient channel = channels.get(i);
    if (isUsable(channel)) {
      return channel;
    }
    channelLocks[i].lock();
    try {
      channel = channels.get(i);
      if (isUsable(channel)) {
        return channel;
      }
      closeQuietly(channel);
      channel = openChannel(session(i % sessions.length));
      channels.set(i, channel);
      return channel;
    } finally {
      channelLocks[i].unlock();
    }
  }

  private static boolean isUsable(SftpClient channel) {
    return channel != null
        && channel.isOpen()
        && !channel.isClosing()
        && channel.getClientSession().isOpen();
  }

  private SftpClient openChannel(ClientSession session) {
    try {
      SftpClient channel = SftpChannel.open(session);
      if (capabilities == null) {
        capabilities =
            new Capabilities(
                channel.getExtension(OpenSSHPosixRenameExtension.class).isSupported(),
                channel.getExtension(OpenSSHFsyncExtension.class).isSupported());
      }
      checkOpen(channel);
      return channel;
    } catch (IllegalStateException e) {
      throw e; // closed meanwhile
    } catch (IOException | RuntimeException e) {
      throw SftpErrors.connectFailure(name, options.location(), Optional.empty(), e);
    }
  }

  private ClientSession session(int i) {
    sessionLocks[i].lock();
    try {
      ClientSession session = sessions[i];
      if (session != null && session.isOpen() && !session.isClosing()) {
        return session;
      }
      closeQuietly(session);
      session = connect();
      sessions[i] = session;
      return session;
    } finally {
      sessionLocks[i].unlock();
    }
  }

  private ClientSession connect() {
    SshClient ssh = client();
    List<KeyPair> keys = keyPairs();
    ClientSession session = null;
    try {
      session =
          ssh.connect(options.user(), options.host(), options.port())
              .verify(options.connectTimeout())
              .getSession();
      options.password().ifPresent(session::addPasswordIdentity);
      for (KeyPair key : keys) {
        session.addPublicKeyIdentity(key);
      }
      session.auth().verify(options.connectTimeout());
      sessionsConnected.incrementAndGet();
      checkOpen(session);
      return session;
    } catch (IllegalStateException e) {
      throw e; // closed meanwhile
    } catch (IOException | RuntimeException e) {
      Optional<String> refusal = session == null ? Optional.empty() : hostKeys.refusal(session);
      closeQuietly(session);
      throw SftpErrors.connectFailure(name, options.location(), refusal, e);
    }
  }

  /** The SSH client, started on first use (starting it opens no connection). */
  private SshClient client() {
    clientLock.lock();
    try {
      checkOpen();
      if (client == null) {
        SshClient ssh = SshClient.setUpDefaultClient();
        hostKeys =
            new HostKeyCheck(options.knownHostsFile(), options.trustOnFirstUse(), options.host());
        ssh.setServerKeyVerifier(hostKeys);
        // Before the key exchange starts, so that the algorithms it offers are in place.
        ssh.addSessionListener(
            new SessionListener() {
              @Override
              public void sessionCreated(Session session) {
                if (session instanceof ClientSession clientSession) {
                  hostKeys.preferListedKeyTypes(clientSession, options.port());
                }
              }

              @Override
              public void sessionClosed(Session session) {
                sessionsClosed.incrementAndGet();
              }
            });
        // MINA waits this long for the answer to any one SFTP request (and closes a session idle
        // for as long); the heartbeat keeps an unused session from idling out.
        Duration request = options.requestTimeout();
        CoreModuleProperties.IDLE_TIMEOUT.set(ssh, request);
        CoreModuleProperties.HEARTBEAT_INTERVAL.set(ssh, request.dividedBy(3));
        CoreModuleProperties.HEARTBEAT_REQUEST.set(ssh, "keepalive@openssh.com");
        CoreModuleProperties.HEARTBEAT_NO_REPLY_MAX.set(ssh, 3);
        CoreModuleProperties.AUTH_TIMEOUT.set(ssh, options.connectTimeout());
        CoreModuleProperties.CHANNEL_OPEN_TIMEOUT.set(ssh, options.connectTimeout());
        SftpModuleProperties.SFTP_CHANNEL_OPEN_TIMEOUT.set(ssh, options.connectTimeout());
        ssh.start();
        client = ssh;
      }
      return client;
    } finally {
      clientLock.unlock();
    }
  }

  /** The private key's pairs, read on first use; none without a key file. */
  private List<KeyPair> keyPairs() {
    clientLock.lock();
    try {
      if (keyPairs == null) {
        keyPairs = options.privateKeyFile().isEmpty() ? List.of() : readKeyPairs();
      }
      return keyPairs;
    } finally {
      clientLock.unlock();
    }
  }

  private List<KeyPair> readKeyPairs() {
    var file = options.privateKeyFile().orElseThrow();
    FilePasswordProvider passphrase =
        options
            .privateKeyPassphrase()
            .map(FilePasswordProvider::of)
            .orElse(FilePasswordProvider.EMPTY);
    List<KeyPair> pairs = new ArrayList<>();
    try (InputStream in = Files.newInputStream(file)) {
      Iterable<KeyPair> loaded =
          SecurityUtils.loadKeyPairIdentities(
              null, NamedResource.ofName(file.toString()), in, passphrase);
      if (loaded != null) {
        loaded.forEach(pairs::add);
      }
    } catch (NoSuchFileException e) {
      throw keyProblem(file + " does not exist", e);
    } catch (IOException | GeneralSecurityException | RuntimeException e) {
      throw keyProblem(
          "cannot read "
              + file
              + (options.privateKeyPassphrase().isPresent()
                  ? " (wrong passphrase, or an unsupported key type): "
                  : " (encrypted without a passphrase configured, or an unsupported key type): ")
              + e.getMessage(),
          e);
    }
    if (pairs.isEmpty()) {
      throw keyProblem(file + " holds no private key", null);
    }
    return List.copyOf(pairs);
  }

  private RepositoryException keyProblem(String problem, Throwable cause) {
    return new RepositoryException(Kind.ACCESS_DENIED, name + ": private key " + problem, cause);
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException(name + ": closed");
    }
  }

  /** Closes {@code resource} and fails when the repository was closed while it was being opened. */
  private void checkOpen(AutoCloseable resource) {
    if (closed) {
      closeQuietly(resource);
      throw new IllegalStateException(name + ": closed");
    }
  }

  /** Closes every channel and session and stops the client. Idempotent. */
  @Override
  public void close() {
    clientLock.lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
    } finally {
      clientLock.unlock();
    }
    for (int i = 0; i < channels.length(); i++) {
      closeQuietly(channels.get(i));
    }
    for (int i = 0; i < sessions.length; i++) {
      closeQuietly(sessions[i]);
    }
    SshClient ssh;
    clientLock.lock();
    try {
      ssh = client;
    } finally {
      clientLock.unlock();
    }
    if (ssh != null) {
      ssh.stop();
    }
  }

  private static void closeQuietly(AutoCloseable resource) {
    if (resource == null) {
      return;
    }
    try {
      resource.close();
    } catch (Exception e) {
      // Closing a connection that already failed: nothing more to release.
    }
  }
}
