package io.racs.proxy.coord;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.users.UserRecords;
import io.racs.proxy.users.StoredSecrets;
import io.racs.proxy.users.UserAccounts;
import io.racs.proxy.users.UserDirectory;
import io.racs.testkit.Await;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Proves the announcements of user changes on a real in-process ZooKeeper, between two proxies
 * (stores over the same fs repositories, each with its own {@link ZooKeeperCoordination} and a
 * {@link UserDirectory} that re-reads only every hour): a user added, given a policy, and removed
 * through one proxy is served, changed and refused by the other at once, which only the
 * announcement can explain (the other never asks for the key, so no miss re-reads either); so is a
 * change announced by a command that joins no proxy ({@link UserAnnouncements#announceOnce}); and
 * with ZooKeeper unreachable the change is still written and the announcement only says it failed.
 */
class UserAnnouncementsTest extends ProxiesOverZooKeeper {
  private static final Map<String, String> ADMINS = Map.of("admin", "admin-secret");
  private static final Duration HOUR = Duration.ofHours(1);
  private static final Duration AT_ONCE = Duration.ofSeconds(5);
  private static final String POLICY =
      "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\","
          + "\"Action\":\"s3:GetObject\",\"Resource\":\"arn:aws:s3:::assets/*\"}]}";

  private ZooKeeperCoordination join(ErasureStore store, String id) throws InterruptedException {
    ZooKeeperCoordination c = join(store, id, zookeeper.getConnectString());
    Await.until(id + " connected", c::connected);
    return c;
  }

  /** A proxy's directory, re-read every hour and whenever {@code coordination} hears a change. */
  private UserDirectory directory(ErasureStore store, ZooKeeperCoordination coordination) {
    UserDirectory directory =
        UserDirectory.start(ADMINS, new UserRecords(store), new StoredSecrets(null), HOUR);
    open.add(directory);
    coordination.listen(directory::changed);
    return directory;
  }

  @Test
  void changeThroughOneProxy_isServedByAnotherAtOnce() throws Exception {
    ErasureStore a = store();
    ErasureStore b = store();
    ZooKeeperCoordination ca = join(a, "a");
    ZooKeeperCoordination cb = join(b, "b");
    UserDirectory other = directory(b, cb);
    UserAccounts accounts =
        new UserAccounts(new UserRecords(a), new StoredSecrets(null), ADMINS.keySet(), ca);

    long began = System.nanoTime();
    accounts.add("alice", "ALICEKEY", "alice-secret-1");
    // Polls storedUsers, which asks for no re-read (secretKey of an unknown key would).
    Await.until("b serves alice", AT_ONCE, () -> other.storedUsers() == 1);
    System.out.printf(
        "b served the new user %d ms after the add began%n",
        (System.nanoTime() - began) / 1_000_000);
    assertThat(other.secretKey("ALICEKEY")).contains("alice-secret-1");

    accounts.attachPolicy("alice", "read-assets", POLICY);
    Await.until(
        "b has alice's policy",
        AT_ONCE,
        () -> other.of("ALICEKEY").orElseThrow().policies().size() == 1);

    accounts.remove("alice");
    Await.until("b refuses alice", AT_ONCE, () -> other.storedUsers() == 0);
    assertThat(other.secretKey("ALICEKEY")).isEmpty();
  }

  @Test
  void announceOnce_byACommandThatJoinsNoProxy_isHeardByEveryProxy() throws Exception {
    ErasureStore b = store();
    ZooKeeperCoordination cb = join(b, "b");
    UserDirectory other = directory(b, cb);
    ErasureStore command = store();
    new UserAccounts(new UserRecords(command), new StoredSecrets(null), ADMINS.keySet())
        .add("bob", "BOBKEY", "bob-secret-1"); // written, not announced
    assertThat(
            UserAnnouncements.announceOnce(
                zookeeper.getConnectString(),
                "racs",
                Duration.ofSeconds(10),
                Duration.ofSeconds(5)))
        .isTrue();
    Await.until("b serves bob", AT_ONCE, () -> other.storedUsers() == 1);
    // The command was no member: nothing waits for it, and it leads nothing.
    assertThat(cb.members()).extracting(ZooKeeperCoordination.Member::id).containsExactly("b");
  }

  @Test
  void announce_whenZooKeeperIsUnreachable_failsQuietlyAndTheChangeIsWritten() throws Exception {
    ErasureStore a = store();
    ZooKeeperCoordination ca = join(a, "a");
    zookeeper.stop();
    Await.until("a not connected", () -> !ca.connected());
    UserAccounts accounts =
        new UserAccounts(new UserRecords(a), new StoredSecrets(null), ADMINS.keySet(), ca);
    accounts.add("carol", "CAROLKEY", "carol-secret-1");
    assertThat(accounts.list()).extracting(UserRecords.UserRecord::name).containsExactly("carol");
    assertThat(
            UserAnnouncements.announceOnce(
                zookeeper.getConnectString(),
                "racs",
                Duration.ofSeconds(10),
                Duration.ofMillis(500)))
        .isFalse();
  }
}
