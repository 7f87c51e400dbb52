package io.racs.proxy.coord;

import io.racs.proxy.users.UserChanges;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.apache.curator.framework.CuratorFramework;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Changes of the stored users across proxies: {@code /users}, one node written after each change of
 * a user record (by a proxy or by {@code racs users}), watched by every proxy ({@link
 * AnnouncedNode}), whose listeners re-read the users and then acknowledge the change in the proxy's
 * member node ({@link Membership.Topic#USERS}). The one who made the change returns once every live
 * proxy has acknowledged it, or after {@link #ACK_WAIT}, as a bucket change does ({@link
 * BucketChanges}): so after a removal returns, no live proxy that acknowledged still knows the key.
 * A proxy that has not acknowledged by then serves the users it read last until its next re-read
 * (its periodic one at the latest), as it would without coordination.
 *
 * <p>Thread-safe.
 */
public final class UserAnnouncements implements UserChanges {
  private static final Logger LOG = LoggerFactory.getLogger(UserAnnouncements.class);

  static final String USERS = "/users";

  /**
   * How long a change of the users waits for every live proxy to have re-read them: a re-read is
   * one listing of the user records, so a proxy that has not done it by then is not answering (it
   * is the one that serves what it read last until its next re-read).
   */
  public static final Duration ACK_WAIT = Duration.ofSeconds(5);

  private final AnnouncedNode node;

  UserAnnouncements(CuratorFramework client, BooleanSupplier connected, Membership membership) {
    this.node = new AnnouncedNode(client, USERS, Membership.Topic.USERS, membership, connected);
  }

  /** Starts the watch of the node. */
  void start() {
    node.start();
  }

  /** Tells the listeners that announcements may have been missed (the session was interrupted). */
  void missed() {
    node.missed();
  }

  /**
   * Announces the change, then waits at most {@link #ACK_WAIT} for every live proxy's re-read; when
   * the announcement could not be made, nobody heard, and nothing is waited for.
   */
  @Override
  public void announce() {
    AnnouncedNode.Acknowledgements acks = node.announce();
    if (acks.made() && !acks.await(ACK_WAIT) && !Thread.currentThread().isInterrupted()) {
      LOG.debug("coordination: not every proxy acknowledged the change of the users");
    }
  }

  @Override
  public void listen(Consumer<Runnable> changed) {
    node.listen(changed);
  }

  void close() {
    node.close();
  }

  /**
   * Announces a change of the stored users through a session of its own, for a command that changes
   * them without being a proxy ({@code racs users}): it joins nothing (no member node, no leader
   * latch), waits at most {@code connectWait} for the session, writes the node, waits at most
   * {@link #ACK_WAIT} for every live proxy to have re-read the users, and ends the session.
   *
   * @return whether the announcement was made; when not, the proxies see the change at their next
   *     periodic re-read
   */
  public static boolean announceOnce(
      String connectString, String namespace, Duration sessionTimeout, Duration connectWait) {
    return AnnouncedNode.announceOnce(
        connectString,
        namespace,
        sessionTimeout,
        connectWait,
        USERS,
        Membership.Topic.USERS,
        ACK_WAIT);
  }
}
