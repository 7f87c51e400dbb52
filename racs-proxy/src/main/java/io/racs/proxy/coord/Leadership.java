package io.racs.proxy.coord;

import io.racs.proxy.store.heal.HealCheckpoint;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The leader election and what the leader alone keeps: {@code /leader}, a {@link LeaderLatch} (the
 * leader alone runs the background scrub), and {@code /scrub}, the scrub's checkpoint, so that a
 * new leader resumes where the old one stopped.
 *
 * <p>Thread-safe.
 */
final class Leadership {
  private static final Logger LOG = LoggerFactory.getLogger(Leadership.class);

  private static final String CHECKPOINT = "/scrub";

  private final CuratorFramework client;
  private final LeaderLatch latch;

  Leadership(CuratorFramework client, String proxyId) {
    this.client = client;
    this.latch = new LeaderLatch(client, "/leader", proxyId);
  }

  void start() throws Exception {
    latch.start();
  }

  /** Whether this proxy holds the latch (the caller checks the session is connected). */
  boolean holdsLatch() {
    return latch.hasLeadership();
  }

  /** The leader's id, if one is known (the caller checks the session is connected). */
  Optional<String> leaderId() {
    try {
      String id = latch.getLeader().getId();
      return id.isEmpty() ? Optional.empty() : Optional.of(id);
    } catch (Exception e) {
      return Optional.empty();
    }
  }

  /** See {@link ZooKeeperCoordination#scrubCheckpoint}. */
  HealCheckpoint scrubCheckpoint() {
    return new HealCheckpoint() {
      @Override
      public Optional<String> read() {
        try {
          byte[] data = client.getData().forPath(CHECKPOINT);
          return data == null || data.length == 0
              ? Optional.empty()
              : Optional.of(new String(data, StandardCharsets.UTF_8));
        } catch (KeeperException.NoNodeException e) {
          return Optional.empty();
        } catch (Exception e) {
          LOG.debug("coordination: cannot read the scrub checkpoint: {}", e.toString());
          return Optional.empty();
        }
      }

      @Override
      public void write(String state) {
        try {
          client
              .create()
              .orSetData()
              .creatingParentsIfNeeded()
              .forPath(CHECKPOINT, state.getBytes(StandardCharsets.UTF_8));
        } catch (Exception e) {
          LOG.debug("coordination: cannot write the scrub checkpoint: {}", e.toString());
        }
      }

      @Override
      public void clear() {
        try {
          client.create().orSetData().creatingParentsIfNeeded().forPath(CHECKPOINT, new byte[0]);
        } catch (Exception e) {
          LOG.debug("coordination: cannot clear the scrub checkpoint: {}", e.toString());
        }
      }
    };
  }

  /** Gives up the leadership (only while connected: otherwise it waits for a connection). */
  void close() {
    try {
      latch.close();
    } catch (Exception | LinkageError e) {
      LOG.debug("coordination: closing the leader latch: {}", e.toString());
    }
  }
}
