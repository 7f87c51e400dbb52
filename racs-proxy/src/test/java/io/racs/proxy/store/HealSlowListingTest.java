package io.racs.proxy.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.array.RepositoryArray;
import io.racs.proxy.store.heal.HealOptions;
import io.racs.proxy.store.heal.HealReport;
import io.racs.proxy.store.heal.Healer;
import io.racs.proxy.testing.TestArray;
import io.racs.repos.ListPage;
import io.racs.repos.Repository;
import io.racs.repos.RepositoryException;
import io.racs.repos.RepositoryException.Kind;
import io.racs.repos.decorator.FaultyRepository;
import io.racs.repos.decorator.ForwardingRepository;
import io.racs.repos.decorator.Operation;
import io.racs.repos.memory.MemoryRepository;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Proves that heal judges and repairs an array from every repository's listing, however much slower
 * some list than others: a reader may leave out a listing that lags behind a read quorum, heal may
 * not. On a 4x2 array whose listings on some repositories answer long after the others', heal moves
 * a slot to an empty repository and rebuilds there the inline versions whose shards are the records
 * themselves, so that any two others can then fail; and what a write refused on three repositories
 * (below the write quorum of four) left, which a left-out listing would make count, is collected:
 * never reported unrecoverable, never completed into a version that hides the acknowledged one.
 */
class HealSlowListingTest {
  // Far longer than a read quorum of memory repositories takes to list, and than the hedge a
  // reader gives the others once that quorum answered: a reader leaves these listings out.
  private static final Duration SLOW = Duration.ofMillis(300);

  private final List<TestArray> arrays = new ArrayList<>();

  @AfterEach
  void close() {
    arrays.forEach(TestArray::close);
  }

  @Test
  void heal_whenTwoSlotsListSlowly_movesASlotAndRebuildsItsInlineRecords() {
    TestArray before = open(TestArray.builder("4x2"));
    ErasureStore store = before.store();
    store.createBucket("bkt");
    Map<String, byte[]> objects = new LinkedHashMap<>();
    for (int i = 0; i < 6; i++) {
      // 0 and 1 byte, then small and larger inline versions, then two with shard objects.
      int size = i < 2 ? i : i < 4 ? 1000 * i : (128 << 10) + 1000 * i;
      objects.put("k" + i, StoreFixture.bytes(i, size));
    }
    objects.forEach((key, body) -> put(store, key, body));
    assertThat(Healer.heal(store, HealOptions.defaults()).complete()).isTrue();

    // Slot 5 moves to an empty repository; slots 0 and 1 list slowly while heal runs.
    List<Repository> moved = new ArrayList<>(before.memories());
    moved.set(5, MemoryRepository.create("moved"));
    TestArray after =
        open(
            TestArray.builder("4x2")
                .over(moved)
                .faulty()
                .wrap(rs -> rs.stream().<Repository>map(SlowListing::new).toList()));
    List<SlowListing> slow = after.repositories().stream().map(SlowListing.class::cast).toList();
    slow.get(0).delay = SLOW;
    slow.get(1).delay = SLOW;

    HealReport report = Healer.heal(after.store(), HealOptions.defaults());

    assertThat(report.complete()).as(String.join("\n", report.lines())).isTrue();
    slow.forEach(s -> s.delay = Duration.ZERO);
    after.faulty().get(0).outage(true);
    after.faulty().get(1).outage(true);
    ErasureStore reopened = after.reopen();
    objects.forEach((key, body) -> assertThat(get(reopened, key)).as(key).isEqualTo(body));
  }

  @Test
  void heal_whenAnInlineWriteRefusedOnThreeSlotsMeetsASlowListing_collectsIt() {
    refusedWriteMeetsASlowListing(100, Pattern.compile(".*"));
  }

  @Test
  void heal_whenAStripedWriteRefusedOnThreeSlotsMeetsASlowListing_collectsIt() {
    // Its data reaches every slot and its entry three: completed, it would be a version.
    refusedWriteMeetsASlowListing((128 << 10) + 1000, Pattern.compile("i/.*"));
  }

  /**
   * Writes a version of {@code size} bytes on every slot, then another that slots 3 to 5 refuse for
   * the names {@code refused} matches and whose rollback cannot delete anything, so that its entry
   * stays on slots 0 to 2, one fewer than the write quorum of four; then heals with slot 3 listing
   * slowly. That entry is no version, and heal collects it with its data: completed, it would hide
   * the acknowledged version under one whose write was refused.
   */
  private void refusedWriteMeetsASlowListing(int size, Pattern refused) {
    TestArray array =
        open(
            TestArray.builder("4x2")
                .settled() // no GC grace: heal collects a failed write's entry at once
                .faulty()
                .wrap(rs -> rs.stream().<Repository>map(SlowListing::new).toList()));
    ErasureStore store = array.store();
    store.createBucket("bkt");
    byte[] acknowledged = StoreFixture.bytes(1, size);
    put(store, "k", acknowledged);
    List<FaultyRepository> faulty = array.faulty();
    for (int slot = 0; slot < 6; slot++) {
      if (slot >= 3) {
        faulty.get(slot).failKeys(refused, Kind.UNAVAILABLE);
      }
      faulty.get(slot).failOperation(Operation.DELETE, Kind.UNAVAILABLE);
    }
    assertThatThrownBy(() -> put(store, "k", StoreFixture.bytes(2, size)))
        .isInstanceOf(StoreException.class)
        .extracting(e -> ((StoreException) e).code())
        .isEqualTo(StoreException.Code.INSUFFICIENT_SHARDS);
    faulty.forEach(FaultyRepository::clearFaults);
    ErasureStore healing = array.reopen(); // as `racs heal` opens the array
    assertThat(get(healing, "k")).isEqualTo(acknowledged);
    assertThat(RepositoryArray.listAll(array.memories().get(0), "i/bkt/")).hasSize(2);

    SlowListing slow = (SlowListing) array.repositories().get(3);
    slow.delay = SLOW;
    HealReport report = Healer.heal(healing, HealOptions.defaults());
    slow.delay = Duration.ZERO;

    assertThat(report.complete()).as(String.join("\n", report.lines())).isTrue();
    for (MemoryRepository memory : array.memories()) {
      assertThat(RepositoryArray.listAll(memory, "i/bkt/"))
          .as("%s: the acknowledged version's entry alone", memory.name())
          .hasSize(1);
      assertThat(RepositoryArray.listAll(memory, "v/"))
          .as("%s: the acknowledged version's data alone", memory.name())
          .hasSize(size > (128 << 10) ? 1 : 0);
    }
    assertThat(get(array.reopen(), "k")).isEqualTo(acknowledged);
  }

  private TestArray open(TestArray.Builder builder) {
    TestArray array = builder.open();
    arrays.add(array);
    return array;
  }

  private static void put(ErasureStore store, String key, byte[] body) {
    store.put(
        "bkt", key, StoreFixture.stream(body), body.length, ObjectStore.PutOptions.defaults());
    store.awaitCollections();
  }

  private static byte[] get(ErasureStore store, String key) {
    try (ObjectStore.ObjectReader reader = store.get("bkt", key, 0, -1, 0)) {
      return reader.body().readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A repository whose listings answer {@link #delay} late (a provider slow to list). */
  private static final class SlowListing extends ForwardingRepository {
    volatile Duration delay = Duration.ZERO;

    SlowListing(Repository delegate) {
      super(delegate);
    }

    @Override
    public ListPage list(String prefix, String startAfter, int maxKeys) {
      try {
        Thread.sleep(delay);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new RepositoryException(Kind.TIMEOUT, name() + ": listing given up");
      }
      return super.list(prefix, startAfter, maxKeys);
    }
  }
}
