package io.racs.proxy.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.api.ObjectStore.Versioning;
import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.array.RepositoryArray;
import io.racs.proxy.store.commit.VersionResolver;
import io.racs.proxy.store.format.Layout;
import io.racs.proxy.store.format.VersionId;
import io.racs.proxy.store.format.VersionMeta;
import io.racs.proxy.testing.TestArray;
import io.racs.repos.decorator.FaultyRepository;
import io.racs.repos.decorator.Operation;
import io.racs.repos.memory.MemoryRepository;
import io.racs.testkit.CountingRepository.Call;
import io.racs.testkit.CountingRepository.Kind;
import io.racs.testkit.CountingRepository.Ledger;
import io.racs.testkit.TestSeed;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A plain DELETE (no condition) costs two dependent rounds of repository calls, in any bucket
 * state: the listing of the key's index, which tells whether there is a version to hide and orders
 * the marker, then the marker's record on every repository, with no read of the current version's
 * record in between. Shown by holding every repository's listing of the key and seeing nothing else
 * of the key start meanwhile, then by the order in which the calls started. Which entries count as
 * versions stays the one rule of {@link VersionResolver}: a DELETE still writes nothing for a key
 * in an unversioned bucket whose only entry is below the write quorum, and orders its marker after
 * an entry still committing. A conditional DELETE still reads the current version, whose ETag its
 * condition needs.
 */
class DeleteRoundsTest {
  private static final Duration WAIT = Duration.ofSeconds(20);
  private static final String KEY_PREFIX = Layout.indexKeyPrefix("bkt", "k");

  private final long seed = TestSeed.get();
  private final List<MemoryRepository> memories = new ArrayList<>();
  private final Ledger ledger = new Ledger(6);
  private final FaultyRepository.Gate gate =
      new FaultyRepository.Gate(Operation.LIST, prefix -> prefix.equals(KEY_PREFIX));
  private final List<ErasureStore> stores = new ArrayList<>();
  private ErasureStore writer;

  @BeforeEach
  void openArray() {
    for (int i = 0; i < 6; i++) {
      memories.add(MemoryRepository.create("mem" + i));
    }
    writer = open();
    writer.createBucket("bkt");
  }

  @AfterEach
  void close() {
    gate.open();
    stores.forEach(ErasureStore::close);
  }

  /**
   * A proxy over the array that has read nothing yet. Superseded versions are kept for the default
   * settle time (a minute), longer than any test here runs, so what a test staged stays listed; the
   * long stall grace keeps a held listing from being given up.
   */
  private ErasureStore open() {
    ErasureStore store =
        TestArray.builder("4x2")
            .stallGrace(Duration.ofSeconds(30))
            .over(memories)
            .gated(gate)
            .counting(ledger)
            .open()
            .store();
    stores.add(store);
    return store;
  }

  private VersionMeta put(ErasureStore store, int size) {
    byte[] data = StoreFixture.bytes(seed + size, size);
    return store.put(
        "bkt", "k", new ByteArrayInputStream(data), size, ObjectStore.PutOptions.defaults());
  }

  /** The calls on the key's index since the last reset, in the order they started. */
  private List<Call> keyCalls() {
    return ledger.calls().stream().filter(call -> call.key().startsWith(KEY_PREFIX)).toList();
  }

  private static void assertDeleted(ErasureStore store) {
    assertThatThrownBy(() -> store.head("bkt", "k"))
        .isInstanceOfSatisfying(
            StoreException.class,
            e -> assertThat(e.code()).isEqualTo(StoreException.Code.NO_SUCH_KEY));
  }

  @ParameterizedTest
  @EnumSource(Versioning.class)
  void delete_whenPlainAndCold_writesTheMarkerRightAfterTheListingAndReadsNoRecord(Versioning state)
      throws Exception {
    if (state != Versioning.OFF) {
      writer.setVersioning("bkt", state);
    }
    put(writer, 10_000);
    ErasureStore deleter = open(); // cold: it has never read the key's record
    assertThat(ledger.awaitIdle(WAIT)).isTrue();
    ledger.reset();
    gate.arm(6);
    CompletableFuture<Optional<VersionMeta>> deleting =
        CompletableFuture.supplyAsync(() -> deleter.delete("bkt", "k"));
    try {
      gate.awaitHeld(6, WAIT);
      // Every repository's listing of the key is held, and nothing else of the key has started:
      // the marker waits for the listing, which orders it.
      assertThat(keyCalls()).extracting(Call::kind).containsOnly(Kind.LIST);
    } finally {
      gate.open();
    }
    Optional<VersionMeta> marker = deleting.get(WAIT.toSeconds(), TimeUnit.SECONDS);
    assertThat(ledger.awaitTotal(Kind.PUT, 6, WAIT)).as("marker PUTs started").isTrue();

    List<Kind> expected = new ArrayList<>(Collections.nCopies(6, Kind.LIST));
    expected.addAll(Collections.nCopies(6, Kind.PUT));
    assertThat(keyCalls())
        .as("the key's calls in the order they started: %s", keyCalls())
        .extracting(Call::kind)
        .containsExactlyElementsOf(expected);
    assertThat(marker).get().extracting(VersionMeta::deleteMarker).isEqualTo(true);
    assertThat(marker.get().nullVersion()).isEqualTo(state != Versioning.ENABLED);
    assertDeleted(deleter);
    assertDeleted(writer);
  }

  @Test
  void delete_whenUnversionedKeyHasNoVersion_listsAndWritesNothing() throws Exception {
    ErasureStore deleter = open();
    assertThat(ledger.awaitIdle(WAIT)).isTrue();
    ledger.reset();
    assertThat(deleter.delete("bkt", "k")).isEmpty();
    assertThat(ledger.awaitIdle(WAIT)).isTrue();
    assertThat(keyCalls()).extracting(Call::kind).containsOnly(Kind.LIST);
    for (MemoryRepository memory : memories) {
      assertThat(memory.list(KEY_PREFIX, "", 10).objects()).isEmpty();
    }
  }

  @Test
  void delete_whenUnversionedKeyIsDeletedAlready_writesAMarkerOnlyWhenTheOldOneIsUnread()
      throws Exception {
    put(writer, 10_000);
    VersionMeta first = writer.delete("bkt", "k").orElseThrow();
    ErasureStore deleter = open();
    // Cold, whether the newest version is a marker would take its record: another marker is
    // written rather than a round trip spent on reading it, and the key stays deleted.
    VersionMeta second = deleter.delete("bkt", "k").orElseThrow();
    assertThat(VersionId.newer(second.versionId(), first.versionId())).isTrue();
    assertDeleted(deleter); // reads the second marker's record
    assertThat(ledger.awaitIdle(WAIT)).isTrue();
    ledger.reset();
    // Known to be a marker: nothing to hide, nothing written, as a read would have found.
    assertThat(deleter.delete("bkt", "k")).isEmpty();
    assertThat(ledger.awaitIdle(WAIT)).isTrue();
    assertThat(keyCalls()).extracting(Call::kind).containsOnly(Kind.LIST);
    assertDeleted(writer);
  }

  @Test
  void delete_whenUnversionedKeysOnlyEntryIsBelowTheWriteQuorum_writesNoMarker() {
    VersionMeta partial = put(writer, 10_000);
    // What a write still committing (or one refused, whose removal missed some repositories)
    // leaves: its entry on fewer repositories than the write quorum (3 of 6; 4 are needed).
    String entry = Layout.indexEntry("bkt", "k", partial.versionId());
    for (int slot = 0; slot < 3; slot++) {
      memories.get(slot).delete(entry);
    }
    ErasureStore deleter = open();
    assertThat(deleter.delete("bkt", "k")).isEmpty();
    for (int slot = 0; slot < 6; slot++) {
      assertThat(memories.get(slot).list(KEY_PREFIX, "", 10).objects())
          .as("slot %d", slot)
          .hasSize(slot < 3 ? 0 : 1);
    }
  }

  @Test
  void delete_whenNewestEntryIsBelowTheWriteQuorum_hidesTheVersionBeforeItAndOrdersAfterIt() {
    put(writer, 10_000);
    VersionMeta committing = put(writer, 20_000);
    String entry = Layout.indexEntry("bkt", "k", committing.versionId());
    byte[][] records = new byte[6][];
    for (int slot = 0; slot < 3; slot++) {
      records[slot] = RepositoryArray.getBytes(memories.get(slot), entry).orElseThrow();
      memories.get(slot).delete(entry);
    }
    ErasureStore deleter = open();
    VersionMeta marker = deleter.delete("bkt", "k").orElseThrow();
    assertThat(VersionId.newer(marker.versionId(), committing.versionId())).isTrue();
    assertDeleted(deleter);
    // The committing write reaches every repository after all: the marker still hides it.
    for (int slot = 0; slot < 3; slot++) {
      RepositoryArray.putBytes(memories.get(slot), entry, records[slot]);
    }
    assertDeleted(open());
  }

  @Test
  void delete_whenConditional_readsTheCurrentVersionForTheCondition() throws Exception {
    VersionMeta current = put(writer, 10_000);
    ErasureStore deleter = open();
    assertThat(ledger.awaitIdle(WAIT)).isTrue();
    ledger.reset();
    AtomicReference<Optional<VersionMeta>> seen = new AtomicReference<>();
    assertThat(deleter.delete("bkt", "k", seen::set)).isPresent();
    assertThat(seen.get()).get().extracting(VersionMeta::etag).isEqualTo(current.etag());
    assertThat(ledger.awaitTotal(Kind.PUT, 6, WAIT)).isTrue();
    assertThat(keyCalls()).extracting(Call::kind).contains(Kind.GET);
    assertDeleted(deleter);
  }

  @Test
  void delete_whenNewestRecordUnreadableEverywhere_hidesItAnywayWithoutACondition() {
    put(writer, 10_000);
    VersionMeta damaged = put(writer, 20_000);
    String entry = Layout.indexEntry("bkt", "k", damaged.versionId());
    for (MemoryRepository memory : memories) {
      RepositoryArray.putBytes(memory, entry, "damaged".getBytes(StandardCharsets.UTF_8));
    }
    ErasureStore deleter = open();
    // A condition needs the record: no answer but 503 (VersionResolverTest). A plain DELETE needs
    // only an order after it, and its marker hides whatever that record held.
    assertThatThrownBy(() -> deleter.delete("bkt", "k", current -> {}))
        .isInstanceOfSatisfying(
            StoreException.class,
            e -> assertThat(e.code()).isEqualTo(StoreException.Code.INSUFFICIENT_SHARDS));
    VersionMeta marker = deleter.delete("bkt", "k").orElseThrow();
    assertThat(VersionId.newer(marker.versionId(), damaged.versionId())).isTrue();
    assertDeleted(deleter);
  }
}
