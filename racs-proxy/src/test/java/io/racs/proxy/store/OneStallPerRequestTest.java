package io.racs.proxy.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.array.SlotBreaker;
import io.racs.proxy.store.format.Layout;
import io.racs.proxy.testing.TestArray;
import io.racs.repos.RepositoryException;
import io.racs.repos.decorator.FaultyRepository;
import io.racs.repos.decorator.Operation;
import io.racs.testkit.CountingRepository;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Proves that a request waits for a stalled repository once, not once per phase: with m + 1
 * repositories stalled (m suspended, the one more asked by every request), a GET of a key whose
 * last PUT failed on them (its record left behind on the healthy repositories, as a proxy that
 * could not remove it leaves it) reads the shards early beside the listing, reads them again once
 * the version is known, and lists the key again; each phase used to wait its own stall deadline for
 * the repository that is not suspended, so the 503 came after two stall graces or more (the e2e
 * suite's WireFaultsIT met 5 s on a loaded machine). Now the phase that finds it stalled is the
 * only one that waits for it; the next request asks it again. Shipped settings: the stall grace of
 * 1 s and the slow-shard timeout of 30 s, so a request that waited for the absolute timeout would
 * outlast the class timeout.
 */
@Timeout(60)
class OneStallPerRequestTest {
  private static final Set<Integer> FROZEN = Set.of(1, 3, 4);
  private final CountingRepository.Ledger ledger = new CountingRepository.Ledger(6);
  private final TestArray array =
      TestArray.builder("4x2")
          .blockBytes(4096)
          .minPartBytes(4096)
          .gcGrace(Duration.ZERO)
          .faulty()
          .counting(ledger)
          .open();
  private final ErasureStore store = array.store();
  private final FaultyRepository.Gate records =
      new FaultyRepository.Gate(Operation.PUT, key -> key.startsWith("i/")).arm(1_000);

  @AfterEach
  void close() {
    array.faulty().forEach(FaultyRepository::thaw);
    records.open();
    array.close();
  }

  @Test
  void get_whenMPlusOneStallAfterAFailedPut_waitsForTheUnsuspendedOneInOnePhaseOnly() {
    store.createBucket("bkt");
    put("k", StoreFixture.bytes(1, 40_000)); // ten stripes
    get("k"); // served: the next GET reads this version early, beside the listing
    // The PUT's shards land everywhere, its record on the healthy repositories only: the m + 1
    // others stall from its commit on.
    FROZEN.forEach(slot -> array.faulty().get(slot).hold(records));
    List<Integer> healthy = List.of(0, 2, 5);
    // The healthy repositories refuse removals, so the failed PUT's record stays on them, and so do
    // its shards (which a collection could otherwise remove while a GET reads them).
    healthy.forEach(
        slot ->
            array
                .faulty()
                .get(slot)
                .failOperation(Operation.DELETE, RepositoryException.Kind.UNAVAILABLE));
    assertInsufficientShards(() -> put("k", StoreFixture.bytes(2, 40_000)));
    FROZEN.forEach(slot -> array.faulty().get(slot).freeze());
    String keyIndex = Layout.indexKeyPrefix("bkt", store.context().nameKey("bkt", "k"));
    assertThat(array.memories().get(0).list(keyIndex, "", 10).objects())
        .as("the failed PUT's record is left on a healthy repository, beside the committed one")
        .hasSize(2);
    SlotBreaker health = store.context().array.health();
    List<Integer> loose = FROZEN.stream().filter(health::usable).toList();
    assertThat(loose).as("no more than m are suspended").hasSize(1);

    for (int request = 1; request <= 2; request++) {
      ledger.reset();
      assertThatThrownBy(() -> get("k"))
          .isInstanceOfSatisfying(
              StoreException.class,
              e -> {
                assertThat(e.code()).isEqualTo(StoreException.Code.INSUFFICIENT_SHARDS);
                assertThat(e.getMessage()).contains("stalled earlier in this request");
              });
      assertThat(shardReads(loose.get(0)))
          .as("request %d: shard reads asked of the stalled repository not suspended", request)
          .isEqualTo(1);
    }
  }

  private long shardReads(int slot) {
    return ledger.calls().stream()
        .filter(
            c ->
                c.slot() == slot
                    && c.kind() == CountingRepository.Kind.GET
                    && c.key().startsWith(Layout.dataPrefix()))
        .count();
  }

  private void put(String key, byte[] data) {
    store.put(
        "bkt", key, StoreFixture.stream(data), data.length, ObjectStore.PutOptions.defaults());
  }

  private byte[] get(String key) {
    try (ObjectStore.ObjectReader reader = store.get("bkt", key, 0, -1, 0)) {
      return reader.body().readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void assertInsufficientShards(Runnable call) {
    assertThatThrownBy(call::run)
        .isInstanceOfSatisfying(
            StoreException.class,
            e -> assertThat(e.code()).isEqualTo(StoreException.Code.INSUFFICIENT_SHARDS));
  }
}
