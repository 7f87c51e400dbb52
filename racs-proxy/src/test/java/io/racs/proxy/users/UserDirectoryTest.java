package io.racs.proxy.users;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.crypto.Keyring;
import io.racs.proxy.crypto.MasterKey;
import io.racs.proxy.runtime.ServerConfig;
import io.racs.proxy.s3.policy.Principal;
import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.api.StoreConfig;
import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.array.RepositoryArray;
import io.racs.proxy.store.format.Layout;
import io.racs.proxy.store.heal.HealOptions;
import io.racs.proxy.store.heal.HealReport;
import io.racs.proxy.store.heal.Healer;
import io.racs.proxy.store.users.UserRecords;
import io.racs.proxy.testing.TestArray;
import io.racs.repos.ObjectInfo;
import io.racs.repos.Repository;
import io.racs.repos.decorator.FaultyRepository;
import io.racs.repos.memory.MemoryRepository;
import io.racs.testkit.Await;
import io.racs.testkit.CountingRepository;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Proves the users stored in the array: a user added through one store is on every repository and
 * is served by a directory over a second store instance of the same repositories (its secret and
 * its policies), a removed one is not; a change that misses the write quorum counts nowhere; the
 * records survive a repository replaced by an empty one once heal has run, with two others then
 * down; a secret sealed with a master key is not in the records and opens only with that key; the
 * configuration's keys are administrators and win over a stored user of the same key; a key given
 * to two users at once stays with the first created; the background re-read serves an addition and
 * a removal made through another store within a second; and bad input is refused in one line with
 * nothing written.
 *
 * <p>And when a directory re-reads without coordination, counting the listings of the user records
 * on every repository: as shipped, the periodic re-read is 10 s (60 s with coordination), not 500
 * ms; a key added elsewhere works within a second of its first request, which is refused and makes
 * the directory re-read (the period, an hour, cannot explain it); a flood of unknown keys costs at
 * most one listing per repository a second; a key of a form no user can have costs none; and a
 * removal is seen at the next periodic re-read.
 */
class UserDirectoryTest {
  private static final String POLICY =
      "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\","
          + "\"Action\":\"s3:GetObject\",\"Resource\":\"arn:aws:s3:::assets/*\"}]}";
  private static final Map<String, String> ADMINS = Map.of("admin", "admin-secret");

  private static final Duration HOUR = Duration.ofHours(1);

  private final List<AutoCloseable> open = new ArrayList<>();
  private final CountingRepository.Ledger ledger = new CountingRepository.Ledger(6);

  @AfterEach
  void close() throws Exception {
    for (AutoCloseable c : open.reversed()) {
      c.close();
    }
  }

  private <T extends AutoCloseable> T opened(T c) {
    open.add(c);
    return c;
  }

  private TestArray array(Keyring keys) {
    return opened(TestArray.builder("4x2").keys(keys).faulty().open());
  }

  private ErasureStore second(TestArray array) {
    return opened(ErasureStore.open(array.config(), array.repositories()));
  }

  private static UserAccounts accounts(ErasureStore store) {
    return new UserAccounts(
        new UserRecords(store), new StoredSecrets(store.config().keys()), ADMINS.keySet());
  }

  private UserDirectory directory(ErasureStore store) {
    return opened(
        UserDirectory.start(
            ADMINS,
            new UserRecords(store),
            new StoredSecrets(store.config().keys()),
            Duration.ZERO));
  }

  /** The user record names on each repository, by slot. */
  private static List<List<String>> userRecords(List<? extends Repository> repositories) {
    List<List<String>> names = new ArrayList<>();
    for (Repository r : repositories) {
      names.add(
          r.list(Layout.USER_RECORDS, "", 1000).objects().stream().map(ObjectInfo::key).toList());
    }
    return names;
  }

  @Test
  void add_throughOneStore_isOnEveryRepositoryAndServedThroughAnother() {
    TestArray array = array(null);
    UserAccounts.Added added = accounts(array.store()).add("alice", null, null);
    accounts(array.store()).attachPolicy("alice", "read-assets", POLICY);
    List<List<String>> names = userRecords(array.memories());
    assertThat(names).allSatisfy(n -> assertThat(n).hasSize(2)).containsOnly(names.get(0));

    UserDirectory other = directory(second(array));
    assertThat(other.secretKey(added.accessKeyId())).contains(added.secretKey());
    Principal alice = other.of(added.accessKeyId()).orElseThrow();
    assertThat(alice.user()).isEqualTo("alice");
    assertThat(alice.administrator()).isFalse();
    assertThat(alice.policies())
        .singleElement()
        .satisfies(p -> assertThat(p.json()).isEqualTo(POLICY));

    assertThat(accounts(array.store()).list().toString())
        .contains("alice")
        .doesNotContain(added.secretKey());
    accounts(array.store()).remove("alice");
    other.refresh();
    assertThat(other.secretKey(added.accessKeyId())).isEmpty();
    assertThat(other.of(added.accessKeyId())).isEmpty();
    assertThat(accounts(array.store()).list()).isEmpty();
  }

  @Test
  void add_belowTheWriteQuorum_failsAndCountsNowhere() {
    TestArray array = array(null);
    List<FaultyRepository> faulty = array.faulty();
    for (int slot = 1; slot <= 3; slot++) {
      faulty.get(slot).outage(true); // 3 of 6 answer: a read quorum, fewer than the write quorum
    }
    assertThatThrownBy(() -> accounts(array.store()).add("bob", "BOBKEY", "bob-secret-1"))
        .isInstanceOf(StoreException.class);
    faulty.forEach(f -> f.outage(false));
    UserDirectory directory = directory(second(array));
    assertThat(directory.secretKey("BOBKEY")).isEmpty();
    assertThat(accounts(array.store()).list()).isEmpty();
  }

  @Test
  void records_whenARepositoryIsReplacedAndHealed_surviveTwoOthersDown() {
    TestArray array = array(null);
    accounts(array.store()).add("carol", "CAROLKEY", "carol-secret-1");
    List<Repository> repositories = new ArrayList<>(array.faulty());
    repositories.set(3, new FaultyRepository(MemoryRepository.create("fresh")));
    ErasureStore healed = opened(ErasureStore.open(array.config(), repositories));
    HealReport report = Healer.heal(healed, HealOptions.defaults());
    assertThat(report.complete()).as(report.lines().toString()).isTrue();
    assertThat(userRecords(repositories).get(3)).hasSize(1);

    ((FaultyRepository) repositories.get(0)).outage(true);
    ((FaultyRepository) repositories.get(5)).outage(true);
    UserDirectory directory = directory(healed);
    assertThat(directory.secretKey("CAROLKEY")).contains("carol-secret-1");
  }

  @Test
  void secret_withAMasterKey_isSealedAndOpensOnlyWithIt() {
    Keyring keys = Keyring.of(MasterKey.generate());
    TestArray array = array(keys);
    accounts(array.store()).add("dave", "DAVEKEY", "dave-secret-1");
    for (MemoryRepository m : array.memories()) {
      for (ObjectInfo o : m.list(Layout.USER_RECORDS, "", 10).objects()) {
        String stored =
            new String(RepositoryArray.getBytes(m, o.key()).orElseThrow(), StandardCharsets.UTF_8);
        assertThat(stored)
            .doesNotContain("dave-secret-1")
            .contains("sealed:v1:" + keys.current().id());
      }
    }
    assertThat(directory(array.store()).secretKey("DAVEKEY")).contains("dave-secret-1");
    // A proxy without the master key (or with another) refuses the user rather than guess.
    ErasureStore keyless =
        opened(
            ErasureStore.open(
                StoreConfig.builder(array.config().geometry()).build(), array.repositories()));
    assertThat(directory(keyless).secretKey("DAVEKEY")).isEmpty();
  }

  @Test
  void configurationKey_winsOverAStoredUserOfTheSameKey() {
    TestArray array = array(null);
    UserRecords records = new UserRecords(array.store());
    records.current();
    records.write(
        new UserRecords.UserRecord("mallory", "admin", "plain:other", Map.of(), 1L, false));
    UserDirectory directory = directory(array.store());
    assertThat(directory.secretKey("admin")).contains("admin-secret");
    Principal admin = directory.of("admin").orElseThrow();
    assertThat(admin.administrator()).isTrue();
    assertThat(admin.user()).isEqualTo("admin");
  }

  @Test
  void oneKeyGivenToTwoUsersAtOnce_staysWithTheFirstCreated() {
    TestArray array = array(null);
    UserRecords records = new UserRecords(array.store());
    records.current();
    records.write(
        new UserRecords.UserRecord("amy", "SHARED", "plain:late-1", Map.of(), 20L, false));
    records.write(
        new UserRecords.UserRecord("zed", "SHARED", "plain:early-1", Map.of(), 10L, false));
    UserDirectory directory = directory(array.store());
    assertThat(directory.secretKey("SHARED")).contains("early-1");
    // Listed second (names sort), created first: the creation time decides, not the order.
    assertThat(directory.of("SHARED").orElseThrow().user()).isEqualTo("zed");
  }

  @Test
  void backgroundRefresh_servesAUserAddedElsewhereWithinASecond() throws InterruptedException {
    TestArray array = array(null);
    ErasureStore other = second(array);
    UserDirectory directory =
        opened(
            UserDirectory.start(
                ADMINS, new UserRecords(other), new StoredSecrets(null), Duration.ofMillis(100)));
    accounts(array.store()).add("grace", "GRACEKEY", "grace-secret-1");
    long added = System.nanoTime();
    // Polls the directory's own answer, against the bound the proxy promises.
    while (directory.secretKey("GRACEKEY").isEmpty()
        && System.nanoTime() - added < Duration.ofSeconds(1).toNanos()) {
      Thread.sleep(10);
    }
    assertThat(directory.secretKey("GRACEKEY")).contains("grace-secret-1");
    accounts(array.store()).remove("grace");
    long removed = System.nanoTime();
    while (directory.secretKey("GRACEKEY").isPresent()
        && System.nanoTime() - removed < Duration.ofSeconds(1).toNanos()) {
      Thread.sleep(10);
    }
    assertThat(directory.secretKey("GRACEKEY")).isEmpty();
  }

  @Test
  void directoryOfAnArrayNotOpenYet_servesTheAdministratorsThenTheUsersOnceAttached() {
    TestArray array = array(null);
    accounts(array.store()).add("heidi", "HEIDIKEY", "heidi-secret-1");
    UserDirectory directory = opened(UserDirectory.of(ADMINS));
    assertThat(directory.secretKey("admin")).contains("admin-secret");
    assertThat(directory.secretKey("HEIDIKEY")).isEmpty();
    directory.refresh(); // nothing attached: nothing to read, and no failure
    directory.attach(new UserRecords(array.store()), new StoredSecrets(null), Duration.ZERO);
    assertThat(directory.secretKey("HEIDIKEY")).contains("heidi-secret-1");
  }

  @Test
  void badInput_isRefusedInOneLineAndWritesNothing() {
    TestArray array = array(null);
    UserAccounts accounts = accounts(array.store());
    accounts.add("erin", "ERINKEY", "erin-secret-1");
    List<List<String>> before = userRecords(array.memories());
    record Bad(Runnable change, String message) {}
    List<Bad> bad =
        List.of(
            new Bad(() -> accounts.add("erin", null, null), "user erin already exists"),
            new Bad(() -> accounts.add("frank", "ERINKEY", null), "already in use (by user erin)"),
            new Bad(
                () -> accounts.add("frank", "admin", null),
                "already in use (by the configuration's credentials)"),
            new Bad(() -> accounts.add("no/slash", null, null), "user name: no/slash"),
            new Bad(() -> accounts.add("frank", null, "short"), "secret key: 5 characters"),
            new Bad(() -> accounts.remove("nobody"), "no such user: nobody"),
            new Bad(() -> accounts.attachPolicy("nobody", "p", POLICY), "no such user: nobody"),
            new Bad(() -> accounts.detachPolicy("erin", "p"), "user erin has no policy p"),
            new Bad(
                () ->
                    accounts.attachPolicy(
                        "erin",
                        "p",
                        "{\"Statement\":[{\"Effect\":\"Allow\","
                            + "\"Action\":\"s3:Fly\",\"Resource\":\"*\"}]}"),
                "MalformedPolicy: "),
            new Bad(
                () ->
                    accounts.attachPolicy(
                        "erin",
                        "p",
                        "{\"Statement\":[]," + "\"Id\":\"" + "x".repeat(21 * 1024) + "\"}"),
                "MalformedPolicy: Policies must be no more than 20480 bytes"));
    for (Bad b : bad) {
      assertThatThrownBy(b.change()::run)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining(b.message())
          .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }
    assertThat(userRecords(array.memories())).isEqualTo(before);
    assertThat(accounts.list()).singleElement().satisfies(u -> assertThat(u.policies()).isEmpty());
    assertThat(Set.of(accounts.list().get(0).accessKeyId())).containsExactly("ERINKEY");
  }

  /** An array whose repositories count their calls into {@link #ledger}. */
  private TestArray countedArray() {
    return opened(TestArray.builder("4x2").counting(ledger).open());
  }

  /** A directory over a second store of the same repositories, as another proxy's. */
  private UserDirectory directory(TestArray array, Duration refresh) {
    return opened(
        UserDirectory.start(
            ADMINS, new UserRecords(second(array)), new StoredSecrets(null), refresh));
  }

  /** A directory re-read every hour, its first read done and no longer counted. */
  private UserDirectory quietDirectory(TestArray array) throws InterruptedException {
    UserDirectory directory = directory(array, HOUR);
    assertThat(ledger.awaitIdle(Duration.ofSeconds(5))).isTrue();
    ledger.reset();
    return directory;
  }

  /** The listings of the user records that reached repository {@code slot}. */
  private long userListings(int slot) {
    return ledger.calls().stream()
        .filter(c -> c.slot() == slot)
        .filter(c -> c.kind() == CountingRepository.Kind.LIST)
        .filter(c -> c.key().startsWith(Layout.USER_RECORDS))
        .count();
  }

  @Test
  void defaults_asShipped_rereadEveryTenSecondsAndAMinuteWithCoordination() {
    ServerConfig shipped = ServerConfig.defaults();
    assertThat(shipped.usersRefresh(false)).isEqualTo(Duration.ofSeconds(10));
    assertThat(shipped.usersRefresh(true)).isEqualTo(Duration.ofSeconds(60));
    // Configured, it is what it says, with or without coordination.
    ServerConfig configured = shipped.withUsersRefresh(Duration.ofMillis(250));
    assertThat(configured.usersRefresh(true)).isEqualTo(Duration.ofMillis(250));
    assertThat(configured.usersRefresh(false)).isEqualTo(Duration.ofMillis(250));
  }

  @Test
  void unknownKey_withTheShippedPeriod_makesTheDirectoryRereadAndWorksWithinASecond()
      throws InterruptedException {
    TestArray array = countedArray();
    UserDirectory directory = directory(array, ServerConfig.defaults().usersRefresh(false));
    accounts(array.store()).add("grace", "GRACEKEY", "grace-secret-1");

    // The first request is refused (the directory read before the add), and asks for a re-read.
    assertThat(directory.secretKey("GRACEKEY")).isEmpty();
    long missed = System.nanoTime();
    Await.until("the new key works", Duration.ofSeconds(1), () -> directory.storedUsers() == 1);
    System.out.printf(
        "new key works %d ms after its first request%n", (System.nanoTime() - missed) / 1_000_000);
    assertThat(directory.secretKey("GRACEKEY")).contains("grace-secret-1");
  }

  @Test
  void unknownKey_withAnHourPeriod_stillWorksWithinASecond() throws InterruptedException {
    TestArray array = countedArray();
    UserDirectory directory = directory(array, HOUR);
    accounts(array.store()).add("ivan", "IVANKEY", "ivan-secret-1");
    assertThat(directory.secretKey("IVANKEY")).isEmpty();
    Await.until("the new key works", Duration.ofSeconds(1), () -> directory.storedUsers() == 1);
    assertThat(directory.secretKey("IVANKEY")).contains("ivan-secret-1");
    assertThat(directory.of("IVANKEY").orElseThrow().user()).isEqualTo("ivan");
  }

  @Test
  void floodOfUnknownKeys_costsAtMostOneListingPerRepositoryASecond() throws Exception {
    TestArray array = countedArray();
    UserDirectory directory = quietDirectory(array);

    long began = System.nanoTime();
    long misses = 0;
    Duration flood = Duration.ofMillis(2_500);
    while (System.nanoTime() - began < flood.toNanos()) {
      if (directory.secretKey("BAD" + misses++).isPresent()) {
        throw new AssertionError("an unknown key was served");
      }
    }
    long elapsedNanos = System.nanoTime() - began;
    directory.close(); // what was scheduled and not started yet never runs
    assertThat(ledger.awaitIdle(Duration.ofSeconds(5))).isTrue();

    // One at the first miss, then at most one a second.
    long bound = elapsedNanos / UserDirectory.MISS_REREAD_INTERVAL.toNanos() + 1;
    System.out.printf(
        "%d unknown keys in %d ms: %d listings on slot 0 (bound %d)%n",
        misses, elapsedNanos / 1_000_000, userListings(0), bound);
    for (int slot = 0; slot < 6; slot++) {
      assertThat(userListings(slot)).as("slot %d", slot).isBetween(1L, bound);
    }
  }

  @Test
  void keyOfAFormNoUserHas_costsNoListing() throws Exception {
    TestArray array = countedArray();
    UserDirectory directory = quietDirectory(array);
    assertThat(directory.secretKey("no/slash")).isEmpty();
    assertThat(directory.secretKey("ab")).isEmpty();
    directory.close();
    assertThat(ledger.awaitIdle(Duration.ofSeconds(5))).isTrue();
    assertThat(userListings(0)).isZero();
  }

  @Test
  void removal_isSeenAtTheNextPeriodicReread() throws InterruptedException {
    TestArray array = countedArray();
    Duration period = Duration.ofMillis(200);
    UserDirectory directory = directory(array, period);
    accounts(array.store()).add("judy", "JUDYKEY", "judy-secret-1");
    Await.until("judy served", Duration.ofSeconds(2), () -> directory.storedUsers() == 1);

    accounts(array.store()).remove("judy");
    // A known key asks for no re-read: only the period can drop it.
    Await.until(
        "judy removed", period.plus(Duration.ofSeconds(1)), () -> directory.storedUsers() == 0);
    assertThat(directory.secretKey("JUDYKEY")).isEmpty();
  }
}
