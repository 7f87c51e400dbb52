package io.racs.proxy.users;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.runtime.ServerConfig;
import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.format.Layout;
import io.racs.proxy.store.users.UserRecords;
import io.racs.proxy.testing.TestArray;
import io.racs.testkit.Await;
import io.racs.testkit.CountingRepository;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Proves when a directory re-reads the stored users without coordination, counting the listings of
 * the user records on every repository: as shipped, the periodic re-read is 10 s (60 s with
 * coordination), not 500 ms; a key added elsewhere works within a second of its first request,
 * which is refused and makes the directory re-read (the period, an hour here, cannot explain it); a
 * flood of unknown keys costs at most one listing per repository a second; a key of a form no user
 * can have costs none; and a removal is seen at the next periodic re-read.
 */
class UserDirectoryRereadTest {
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

  private TestArray array() {
    return opened(TestArray.builder("4x2").counting(ledger).open());
  }

  private static UserAccounts accounts(ErasureStore store) {
    return new UserAccounts(new UserRecords(store), new StoredSecrets(null), ADMINS.keySet());
  }

  /** A directory over a second store of the same repositories, as another proxy's. */
  private UserDirectory directory(TestArray array, Duration refresh) {
    ErasureStore other = opened(ErasureStore.open(array.config(), array.repositories()));
    return opened(
        UserDirectory.start(ADMINS, new UserRecords(other), new StoredSecrets(null), refresh));
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
    TestArray array = array();
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
    TestArray array = array();
    UserDirectory directory = directory(array, HOUR);
    accounts(array.store()).add("ivan", "IVANKEY", "ivan-secret-1");
    assertThat(directory.secretKey("IVANKEY")).isEmpty();
    Await.until("the new key works", Duration.ofSeconds(1), () -> directory.storedUsers() == 1);
    assertThat(directory.secretKey("IVANKEY")).contains("ivan-secret-1");
    assertThat(directory.of("IVANKEY").orElseThrow().user()).isEqualTo("ivan");
  }

  @Test
  void floodOfUnknownKeys_costsAtMostOneListingPerRepositoryASecond() throws Exception {
    TestArray array = array();
    UserDirectory directory = directory(array, HOUR);
    assertThat(ledger.awaitIdle(Duration.ofSeconds(5))).isTrue();
    ledger.reset();

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
    TestArray array = array();
    UserDirectory directory = directory(array, HOUR);
    assertThat(ledger.awaitIdle(Duration.ofSeconds(5))).isTrue();
    ledger.reset();
    assertThat(directory.secretKey("no/slash")).isEmpty();
    assertThat(directory.secretKey("ab")).isEmpty();
    directory.close();
    assertThat(ledger.awaitIdle(Duration.ofSeconds(5))).isTrue();
    assertThat(userListings(0)).isZero();
  }

  @Test
  void removal_isSeenAtTheNextPeriodicReread() throws InterruptedException {
    TestArray array = array();
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
