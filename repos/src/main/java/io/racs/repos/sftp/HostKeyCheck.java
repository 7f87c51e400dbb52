package io.racs.repos.sftp;

import java.io.IOException;
import java.net.SocketAddress;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.PublicKey;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.WeakHashMap;
import org.apache.sshd.client.config.hosts.KnownHostEntry;
import org.apache.sshd.client.keyverifier.AcceptAllServerKeyVerifier;
import org.apache.sshd.client.keyverifier.KnownHostsServerKeyVerifier;
import org.apache.sshd.client.keyverifier.RejectAllServerKeyVerifier;
import org.apache.sshd.client.session.ClientSession;
import org.apache.sshd.common.NamedFactory;
import org.apache.sshd.common.config.keys.KeyUtils;
import org.apache.sshd.common.signature.Signature;

/**
 * Checks the server's host key against an OpenSSH {@code known_hosts} file (plain or hashed host
 * names, {@code [host]:port} for other ports than 22, {@code @revoked} markers), as {@code ssh}
 * does with {@code StrictHostKeyChecking yes}: an unlisted host is refused unless trust on first
 * use is configured, in which case its key is appended to the file; a listed host that presents
 * another key is refused always, since that is what a man in the middle looks like.
 *
 * <p>A refusal is recorded per session ({@link #refusal}), naming the host and the key's SHA-256
 * fingerprint, so that the repository's error says why the connection failed rather than MINA's
 * "server key did not validate". It is kept here, not as a session attribute: MINA may close the
 * session (clearing its attributes) on its own thread before the caller's wait ends.
 */
final class HostKeyCheck extends KnownHostsServerKeyVerifier {
  /** Why the server's key was refused, by session, until the session's caller takes it. */
  private final Map<ClientSession, String> refusals =
      Collections.synchronizedMap(new WeakHashMap<>());

  private final String host;

  HostKeyCheck(Path knownHostsFile, boolean trustOnFirstUse, String host) {
    super(
        trustOnFirstUse ? AcceptAllServerKeyVerifier.INSTANCE : RejectAllServerKeyVerifier.INSTANCE,
        knownHostsFile);
    this.host = host;
  }

  /** Why the key of {@code session}'s server was refused, if it was; forgets it. */
  Optional<String> refusal(ClientSession session) {
    return Optional.ofNullable(refusals.remove(session));
  }

  /**
   * Puts the host key algorithms of the key types that the file lists for this host first in the
   * session's offer, as OpenSSH's client does: a server with several host keys (ed25519, ECDSA,
   * RSA) would otherwise present the one MINA prefers, which the file may not list, and look like a
   * changed key. Changes nothing when the file lists none (or cannot be read: the check itself then
   * reports that).
   */
  void preferListedKeyTypes(ClientSession session, int port) {
    Set<String> listed = new HashSet<>();
    try {
      for (KnownHostEntry entry : KnownHostEntry.readKnownHostEntries(getPath())) {
        if (entry.getKeyEntry() != null && entry.isHostMatch(host, port)) {
          listed.add(entry.getKeyEntry().getKeyType());
        }
      }
    } catch (NoSuchFileException e) {
      return;
    } catch (IOException | RuntimeException e) {
      return;
    }
    if (listed.isEmpty()) {
      return;
    }
    List<NamedFactory<Signature>> preferred = new ArrayList<>();
    List<NamedFactory<Signature>> others = new ArrayList<>();
    for (NamedFactory<Signature> factory : session.getSignatureFactories()) {
      String type = KeyUtils.getCanonicalKeyType(factory.getName());
      (listed.contains(type) || listed.contains(factory.getName()) ? preferred : others)
          .add(factory);
    }
    preferred.addAll(others);
    session.setSignatureFactories(preferred);
  }

  @Override
  protected boolean acceptUnknownHostKey(
      ClientSession session, SocketAddress remoteAddress, PublicKey serverKey) {
    if (super.acceptUnknownHostKey(session, remoteAddress, serverKey)) {
      return true;
    }
    refusals.put(
        session,
        "host key of "
            + host
            + " ("
            + KeyUtils.getKeyType(serverKey)
            + " "
            + KeyUtils.getFingerPrint(serverKey)
            + ") is not in "
            + getPath()
            + " and trustOnFirstUse is off: add it (ssh-keyscan, or a first ssh login), having"
            + " checked the fingerprint");
    return false;
  }

  @Override
  public boolean acceptModifiedServerKey(
      ClientSession session,
      SocketAddress remoteAddress,
      KnownHostEntry entry,
      PublicKey expected,
      PublicKey actual) {
    refusals.put(
        session,
        "host key of "
            + host
            + " CHANGED: it presented "
            + KeyUtils.getKeyType(actual)
            + " "
            + KeyUtils.getFingerPrint(actual)
            + " but "
            + getPath()
            + " lists "
            + KeyUtils.getKeyType(expected)
            + " "
            + KeyUtils.getFingerPrint(expected)
            + "; refusing to connect (a re-installed server, or a man in the middle): fix the"
            + " entry once the new fingerprint is verified");
    return false;
  }

  @Override
  protected void handleRevokedKey(
      ClientSession session, SocketAddress remoteAddress, PublicKey serverKey) {
    refusals.put(
        session,
        "host key of "
            + host
            + " ("
            + KeyUtils.getFingerPrint(serverKey)
            + ") is marked @revoked in "
            + getPath());
  }
}
