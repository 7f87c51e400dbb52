package io.racs.proxy.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.api.StoreConfig;
import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.array.LatencyEstimates;
import io.racs.proxy.store.format.Layout;
import io.racs.proxy.testing.TestArray;
import io.racs.repos.Repository;
import io.racs.repos.memory.MemoryRepository;
import io.racs.testkit.CountingRepository;
import io.racs.testkit.CountingRepository.Call;
import io.racs.testkit.CountingRepository.Kind;
import io.racs.testkit.CountingRepository.Ledger;
import io.racs.testkit.TestSeed;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Pins how many repository calls, by kind, each client operation costs today on a 4x2 array
 * (default settings: 1 MiB blocks, objects up to 128 KiB inline), cold (a proxy that has not read
 * the key before) and warm (the second GET or HEAD of the same key): providers bill per request,
 * and over distant repositories every call that depends on an earlier one's answer is a round trip.
 * The numbers are the table in {@code docs/bench/cost.md}; a change that adds or saves calls fails
 * here and updates both.
 *
 * <p>Calls are counted where they reach the repositories ({@link CountingRepository}); the calls a
 * write finishes after it answered are waited for by count, the others until none is running. The
 * calls on a bucket's records ({@code b/}), which a store repeats only when it has not read the
 * bucket's state in the last second, are counted apart ({@link #bucketChecks}) so that the pinned
 * numbers do not depend on timing.
 */
class RepositoryCallCostTest {
  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final int SMALL = 4 << 10;
  private static final int ONE_STRIPE = 1 << 20;
  private static final int THREE_STRIPES = (3 << 20) - 12_345;

  private final List<Repository> memories = new ArrayList<>();
  private final Ledger ledger = new Ledger(6);
  private final List<ErasureStore> stores = new ArrayList<>();
  private final long seed = TestSeed.get();
  private ErasureStore writer;

  @BeforeEach
  void openArray() {
    for (int i = 0; i < 6; i++) {
      memories.add(MemoryRepository.create("mem" + i));
    }
    writer = open();
    writer.createBucket("bkt");
  }

  /** Another proxy over the same repositories: it has read nothing yet. */
  private ErasureStore open() {
    ErasureStore store =
        // Hedges are timing-driven by design: on a loaded machine a memory repository is now and
        // then milliseconds late, past the default 2 ms floor, and a hedge adds a GET. The counts
        // pinned here are those of reads nothing makes late, so the floor is 5 s: estimates still
        // order the shards, and a hedge would need a real stall.
        TestArray.builder("4x2")
            .hedge(new StoreConfig.Hedge(true, 95, Duration.ofSeconds(5), Duration.ofSeconds(10)))
            .over(memories)
            .counting(ledger)
            .open()
            .store();
    stores.add(store);
    return store;
  }

  @AfterEach
  void close() {
    stores.forEach(ErasureStore::close);
  }

  /** The calls one operation made, bucket-state listings left out; waits for its stragglers. */
  private Map<Kind, Long> cost(Runnable operation) throws InterruptedException {
    assertThat(ledger.awaitIdle(WAIT)).isTrue();
    ledger.reset();
    operation.run();
    assertThat(ledger.awaitIdle(WAIT)).isTrue();
    return objectCalls();
  }

  /**
   * As {@link #cost} for a write, which answers once a write quorum (4 of 6) holds it and finishes
   * the other repositories' calls in the background: waits until {@code puts} calls have started.
   */
  private Map<Kind, Long> writeCost(Runnable operation, long puts) throws InterruptedException {
    assertThat(ledger.awaitIdle(WAIT)).isTrue();
    ledger.reset();
    operation.run();
    assertThat(ledger.awaitTotal(Kind.PUT, puts, WAIT)).as("PUT calls started").isTrue();
    return objectCalls();
  }

  /** The calls since the last reset, for a failure's message. */
  private String callList() {
    StringBuilder out = new StringBuilder("calls:");
    for (Call call : ledger.calls()) {
      out.append("\n  ").append(call);
    }
    return out.toString();
  }

  private Map<Kind, Long> objectCalls() {
    Map<Kind, Long> counts = new EnumMap<>(Kind.class);
    for (Call call : ledger.calls()) {
      if (!bucketCheck(call)) {
        counts.merge(call.kind(), 1L, Long::sum);
      }
    }
    return counts;
  }

  /**
   * The calls on the bucket's records since the last reset: a listing of them (6) when this store
   * has not seen the bucket in the last second, or for a delete that must know whether the bucket
   * is versioned; a read of the newest one (1) when this store has not read it before.
   */
  private long bucketChecks() {
    return ledger.calls().stream().filter(RepositoryCallCostTest::bucketCheck).count();
  }

  private static boolean bucketCheck(Call call) {
    return call.key().startsWith(Layout.bucketPrefix());
  }

  private void put(ErasureStore store, String key, int size) {
    byte[] data = StoreFixture.bytes(seed + size, size);
    store.put("bkt", key, new ByteArrayInputStream(data), size, ObjectStore.PutOptions.defaults());
  }

  private static void get(ErasureStore store, String key) {
    try (ObjectStore.ObjectReader reader = store.get("bkt", key, 0, -1, 0);
        InputStream body = reader.body()) {
      body.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private org.assertj.core.api.MapAssert<Kind, Long> assertCalls(Map<Kind, Long> counts) {
    return assertThat(counts).as(this::callList);
  }

  private static Map<Kind, Long> calls(Object... kindsAndCounts) {
    Map<Kind, Long> out = new EnumMap<>(Kind.class);
    for (int i = 0; i < kindsAndCounts.length; i += 2) {
      out.put((Kind) kindsAndCounts[i], ((Number) kindsAndCounts[i + 1]).longValue());
    }
    return out;
  }

  @Test
  void put_whenInline_writesOneRecordPerRepository() throws Exception {
    // The record with its shard, after the listing that orders the write (docs/ordering.md).
    assertCalls(writeCost(() -> put(writer, "small", SMALL), 6))
        .isEqualTo(calls(Kind.LIST, 6, Kind.PUT, 6));
    assertThat(bucketChecks()).isIn(0L, 6L);
  }

  @Test
  void put_whenOneStripe_writesAShardAndARecordPerRepository() throws Exception {
    // The ordering listing runs beside the last shards' flush: still two rounds.
    assertCalls(writeCost(() -> put(writer, "one", ONE_STRIPE), 12))
        .isEqualTo(calls(Kind.LIST, 6, Kind.PUT, 12));
  }

  @Test
  void put_whenThreeStripes_writesOneShardObjectPerRepositoryAsForOne() throws Exception {
    assertCalls(writeCost(() -> put(writer, "three", THREE_STRIPES), 12))
        .isEqualTo(calls(Kind.LIST, 6, Kind.PUT, 12));
  }

  @Test
  void get_whenColdThenWarm_listsThenReadsTheRecordOnlyOnce() throws Exception {
    put(writer, "one", ONE_STRIPE);
    put(writer, "three", THREE_STRIPES);
    ErasureStore reader = open();
    // Cold: the listing names the version, whose id names its data: the record and the k data
    // shards are read together (ColdReadRoundsTest), and the record confirms the shards.
    assertCalls(cost(() -> get(reader, "one"))).isEqualTo(calls(Kind.LIST, 6, Kind.GET, 5));
    // Warm: the record is cached; the listing still decides which version is newest.
    assertCalls(cost(() -> get(reader, "one"))).isEqualTo(calls(Kind.LIST, 6, Kind.GET, 4));
    // Three stripes live in the same k shard objects: no more calls than one stripe.
    assertCalls(cost(() -> get(reader, "three"))).isEqualTo(calls(Kind.LIST, 6, Kind.GET, 5));
    assertCalls(cost(() -> get(reader, "three"))).isEqualTo(calls(Kind.LIST, 6, Kind.GET, 4));
    assertThat(bucketChecks()).isZero();
  }

  @Test
  void get_whenInlineColdThenWarm_readsRecordsForShards() throws Exception {
    put(writer, "small", SMALL);
    ErasureStore reader = open();
    // Cold, the shards are in the records: the id says the version is inline, so k records are
    // read beside the one that decides the version (ColdReadRoundsTest).
    assertCalls(cost(() -> get(reader, "small"))).isEqualTo(calls(Kind.LIST, 6, Kind.GET, 5));
    assertCalls(cost(() -> get(reader, "small"))).isEqualTo(calls(Kind.LIST, 6, Kind.GET, 4));
  }

  @Test
  void get_whenNoRepositoryIsSlow_readsKShardsAndHedgesNothing() throws Exception {
    put(writer, "one", ONE_STRIPE);
    ErasureStore reader = open();
    // Enough reads that every repository this one reads from has a latency estimate, so reads
    // hedge by it (StoreConfig.Hedge, on by default): with none of them late, a warm GET still
    // costs the listing and the k data shards, and nothing is hedged.
    for (int i = 0; i < LatencyEstimates.MIN_SAMPLES + 2; i++) {
      get(reader, "one");
    }
    for (int i = 0; i < 10; i++) {
      assertCalls(cost(() -> get(reader, "one"))).isEqualTo(calls(Kind.LIST, 6, Kind.GET, 4));
    }
    assertThat(reader.stats().hedgedShardReads()).isZero();
    assertThat(reader.stats().hedgedRecordReads()).isZero();
  }

  @Test
  void head_whenColdThenWarm_costsAListingAndOnceTheRecord() throws Exception {
    put(writer, "one", ONE_STRIPE);
    ErasureStore reader = open();
    assertCalls(cost(() -> reader.head("bkt", "one"))).isEqualTo(calls(Kind.LIST, 6, Kind.GET, 1));
    assertCalls(cost(() -> reader.head("bkt", "one"))).isEqualTo(calls(Kind.LIST, 6));
  }

  @Test
  void list_whenOnePageCold_readsTheBucketAndEachUnreadRecord() throws Exception {
    put(writer, "a", SMALL);
    put(writer, "b", ONE_STRIPE);
    put(writer, "c", SMALL);
    ErasureStore reader = open();
    ObjectStore.ListRequest page = new ObjectStore.ListRequest("", null, null, 1000);
    // Cold: the bucket's records (counted apart: a listing and a read), then the index, then the
    // record of each key listed, which this proxy has not read yet.
    assertCalls(cost(() -> assertThat(reader.list("bkt", page).objects()).hasSize(3)))
        .isEqualTo(calls(Kind.LIST, 6, Kind.GET, 3));
    assertThat(bucketChecks()).isEqualTo(7);
    // Warm: the index listing only.
    assertCalls(cost(() -> reader.list("bkt", page))).isEqualTo(calls(Kind.LIST, 6));
  }

  @Test
  void delete_whenKeyExists_listsItsVersionsThenWritesAMarker() throws Exception {
    put(writer, "one", ONE_STRIPE);
    put(writer, "two", ONE_STRIPE);
    ErasureStore deleter = open();
    // Cold: the listing names a version to hide, and the marker is written right after it; the
    // bucket's records are listed and read unless seen within a second. The listing that finds
    // the version also orders the marker (docs/ordering.md): the key's entries are listed once
    // (twice, 12, before they were shared), and the version's record is not read (it was, 1 GET
    // and a round trip, before a plain DELETE stopped needing it: DeleteRoundsTest).
    assertCalls(writeCost(() -> deleter.delete("bkt", "one"), 6))
        .isEqualTo(calls(Kind.LIST, 6, Kind.PUT, 6));
    assertThat(bucketChecks()).isBetween(6L, 13L);
    // Warm: a key this proxy has read.
    get(deleter, "two");
    assertCalls(writeCost(() -> deleter.delete("bkt", "two"), 6))
        .isEqualTo(calls(Kind.LIST, 6, Kind.PUT, 6));
    assertThat(bucketChecks()).isBetween(0L, 13L);
  }

  @Test
  void delete_whenKeyMissingOrBucketVersioned_listsOnceAndWritesAMarkerOnlyWhenOneIsDue()
      throws Exception {
    writer.createBucket("ver");
    writer.setVersioning("ver", ObjectStore.Versioning.ENABLED);
    byte[] data = StoreFixture.bytes(seed, SMALL);
    writer.put(
        "ver", "one", new ByteArrayInputStream(data), SMALL, ObjectStore.PutOptions.defaults());
    ErasureStore deleter = open();
    // Unversioned, a key with no version: the listing says so, and nothing is written.
    assertCalls(cost(() -> assertThat(deleter.delete("bkt", "never")).isEmpty()))
        .isEqualTo(calls(Kind.LIST, 6));
    // Versioned, a marker every time, ordered by its listing: a key with a version or without.
    assertCalls(writeCost(() -> assertThat(deleter.delete("ver", "one")).isPresent(), 6))
        .isEqualTo(calls(Kind.LIST, 6, Kind.PUT, 6));
    assertCalls(writeCost(() -> assertThat(deleter.delete("ver", "never")).isPresent(), 6))
        .isEqualTo(calls(Kind.LIST, 6, Kind.PUT, 6));
  }

  @Test
  void get_whenDeletedThroughThisProxy_listsOnlyBefore404() throws Exception {
    put(writer, "one", ONE_STRIPE);
    ErasureStore proxy = open();
    get(proxy, "one");
    proxy.delete("bkt", "one");
    // The delete dropped the version this proxy had served, so the GET does not start reading
    // its shards beside the listing (it did, and how many of those reads were made before the
    // listing turned them down depended on timing). The marker's record is the one this proxy
    // just committed: not read again (it was, GET 1, a second round before the 404).
    assertThat(
            cost(
                () ->
                    assertThatThrownBy(() -> get(proxy, "one"))
                        .isInstanceOf(StoreException.class)
                        .extracting(e -> ((StoreException) e).code())
                        .isEqualTo(StoreException.Code.NO_SUCH_KEY)))
        .isEqualTo(calls(Kind.LIST, 6));
  }

  /**
   * A key this proxy wrote is warm, as one it read: its record is the one just committed, and its
   * shards are read beside the listing (issue 20: "a key that this proxy wrote or read recently").
   * It was cold: the record read after the listing, and the shards after that, three rounds.
   */
  @Test
  void getAndHead_whenWrittenThroughThisProxy_costOneRound() throws Exception {
    put(writer, "one", ONE_STRIPE);
    assertCalls(cost(() -> get(writer, "one"))).isEqualTo(calls(Kind.LIST, 6, Kind.GET, 4));
    put(writer, "two", ONE_STRIPE);
    assertCalls(cost(() -> writer.head("bkt", "two"))).isEqualTo(calls(Kind.LIST, 6));
    put(writer, "small", SMALL);
    assertCalls(cost(() -> get(writer, "small"))).isEqualTo(calls(Kind.LIST, 6, Kind.GET, 4));
  }
}
