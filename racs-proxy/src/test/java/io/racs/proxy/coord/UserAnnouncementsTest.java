package io.racs.proxy.coord;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.users.UserRecords;
import io.racs.proxy.users.StoredSecrets;
import io.racs.proxy.users.UserAccounts;
import io.racs.proxy.users.UserDirectory;
import io.racs.testkit.Await;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Proves the announcements of user changes on a real in-process ZooKeeper, between two proxies
 * (stores over the same fs repositories, each with its own {@link ZooKeeperCoordination} and a
 * {@link UserDirectory} that re-reads only every hour): a user added, given a policy, and removed
 * through one proxy is served, changed and refused by the other at once, which only the
 * announcement can explain (the other never asks for the key, so no miss re-reads either); a change
 * returns only once every live proxy has re-read the users (acknowledged in its member node), so
 * right after a removal returns, through a proxy or through a command that joins none ({@link
 * UserAnnouncements#announceOnce}), no proxy's directory knows the key, with nothing awaited; and
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
  void remove_whenItReturns_noLiveProxyKnowsTheKey() throws Exception {
    ErasureStore a = store();
    ErasureStore b = store();
    ErasureStore c = store();
    ZooKeeperCoordination ca = join(a, "a");
    ZooKeeperCoordination cb = join(b, "b");
    ZooKeeperCoordination cc = join(c, "c");
    UserDirectory own = directory(a, ca);
    UserDirectory second = directory(b, cb);
    UserDirectory third = directory(c, cc);
    Await.until("a sees three members", () -> ca.members().size() == 3);
    UserAccounts accounts =
        new UserAccounts(new UserRecords(a), new StoredSecrets(null), ADMINS.keySet(), ca);

    long began = System.nanoTime();
    accounts.add("dave", "DAVEKEY", "dave-secret-1");
    System.out.printf(
        "the add returned %d ms after it began%n", (System.nanoTime() - began) / 1_000_000);
    // Returned: every member has re-read (no await here: storedUsers asks for no re-read).
    assertThat(List.of(own, second, third)).allMatch(d -> d.storedUsers() == 1);

    began = System.nanoTime();
    accounts.remove("dave");
    System.out.printf(
        "the removal returned %d ms after it began%n", (System.nanoTime() - began) / 1_000_000);

    assertThat(List.of(own, second, third)).allMatch(d -> d.storedUsers() == 0);
    assertThat(second.of("DAVEKEY")).isEmpty();
    assertThat(third.of("DAVEKEY")).isEmpty();
  }

  @Test
  void announceOnce_whenItReturns_everyLiveProxyHasReReadTheUsers() throws Exception {
    ErasureStore b = store();
    ZooKeeperCoordination cb = join(b, "b");
    UserDirectory other = directory(b, cb);
    Await.until("b is a member", () -> cb.members().size() == 1);
    ErasureStore command = store();
    new UserAccounts(new UserRecords(command), new StoredSecrets(null), ADMINS.keySet())
        .add("erin", "ERINKEY", "erin-secret-1"); // written, not announced

    assertThat(
            UserAnnouncements.announceOnce(
                zookeeper.getConnectString(),
                "racs",
                Duration.ofSeconds(10),
                Duration.ofSeconds(5)))
        .isTrue();

    assertThat(other.storedUsers()).isEqualTo(1);
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
