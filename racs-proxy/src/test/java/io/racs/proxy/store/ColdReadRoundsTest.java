package io.racs.proxy.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.crypto.CustomerKey;
import io.racs.proxy.crypto.Keyring;
import io.racs.proxy.crypto.MasterKey;
import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.api.StoreConfig;
import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.commit.CommitOrder;
import io.racs.proxy.store.format.Layout;
import io.racs.proxy.store.format.Sealing;
import io.racs.proxy.store.format.VersionId;
import io.racs.proxy.store.format.VersionMeta;
import io.racs.proxy.testing.TestArray;
import io.racs.repos.Repository;
import io.racs.repos.decorator.FaultyRepository;
import io.racs.repos.decorator.Operation;
import io.racs.repos.memory.MemoryRepository;
import io.racs.testkit.Await;
import io.racs.testkit.CountingRepository.Call;
import io.racs.testkit.CountingRepository.Kind;
import io.racs.testkit.CountingRepository.Ledger;
import io.racs.testkit.DrivenClock;
import io.racs.testkit.SeededBytes;
import io.racs.testkit.TestSeed;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A cold GET (a store that has not read the key's current version: restarted, or the key written
 * through another proxy) reads the version's shards beside its record, not after it: two round
 * trips over distant repositories (the listing, then record and shards together), not three (issue
 * 20). Shown by holding the record's reads and seeing the shard reads start anyway. The shards are
 * found from the version id's mark ({@link VersionId.Mark}); a guess that turns out wrong (the
 * newest entry listed is a write still committing) is dropped, and the version before it is read.
 */
class ColdReadRoundsTest {
  private static final Duration WAIT = Duration.ofSeconds(20);
  private static final int STRIPED = (1 << 20) + 4321; // not inline
  private static final int SMALL = 4 << 10; // inline

  private final List<Repository> memories = new ArrayList<>();
  private final Ledger ledger = new Ledger(6);
  private final List<ErasureStore> stores = new ArrayList<>();
  private final Random random = new Random(TestSeed.get());
  private final Keyring keys = Keyring.of(MasterKey.generate());
  private FaultyRepository.Gate gate;

  /**
   * The stores' clock, still unless a test moves it. A PUT's version takes its data's id only when
   * it commits within a second of its start ({@link CommitOrder}); on the wall clock a PUT slowed
   * by a loaded machine took a fresh id, and a reader then had no guess to make.
   */
  private final DrivenClock clock = new DrivenClock();

  // Not the common pool: on two cores it has one thread, which one held call would take.
  private final ExecutorService async = Executors.newVirtualThreadPerTaskExecutor();

  @AfterEach
  void close() {
    if (gate != null) {
      gate.open();
    }
    stores.forEach(ErasureStore::close);
    async.shutdownNow();
  }

  /** A store over the array, every call counted and gated by {@code gate}. */
  private ErasureStore open(FaultyRepository.Gate gate) {
    if (memories.isEmpty()) {
      for (int i = 0; i < 6; i++) {
        memories.add(MemoryRepository.create("mem" + i));
      }
    }
    this.gate = gate;
    ErasureStore store =
        TestArray.builder("4x2")
            .keys(keys)
            .clock(clock)
            // A held record read is not hedged around (with no latency history it would be after
            // a quarter of the stall grace), so that the calls counted are the design's.
            .stallGrace(Duration.ofSeconds(30))
            .hedge(new StoreConfig.Hedge(true, 95, Duration.ofSeconds(5), Duration.ofSeconds(10)))
            .over(memories)
            .gated(gate)
            .counting(ledger)
            .open()
            .store();
    stores.add(store);
    return store;
  }

  /**
   * Creates the bucket and writes one object of another key through {@code writer}, so that the
   * PUTs a test asserts on do not run on a cold JVM.
   */
  private void createBucketWarm(ErasureStore writer) {
    writer.createBucket("bkt");
    byte[] warm = data(STRIPED);
    writer.put(
        "bkt",
        "warm",
        new ByteArrayInputStream(warm),
        warm.length,
        ObjectStore.PutOptions.defaults());
  }

  private byte[] data(int size) {
    return SeededBytes.bytes(random.nextLong(), size);
  }

  private static VersionMeta put(ErasureStore store, byte[] data, Sealing sealing) {
    return store.put(
        "bkt",
        "k",
        new ByteArrayInputStream(data),
        data.length,
        ObjectStore.PutOptions.defaults().withSealing(sealing));
  }

  private static byte[] read(ErasureStore store, CustomerKey customer) {
    try (ObjectStore.ObjectReader reader = store.get("bkt", "k", 0, -1, 0, customer);
        InputStream body = reader.body()) {
      return body.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static CustomerKey customerKey() throws Exception {
    byte[] raw = new byte[32];
    raw[0] = 9;
    return CustomerKey.of(
        "AES256",
        Base64.getEncoder().encodeToString(raw),
        Base64.getEncoder().encodeToString(MessageDigest.getInstance("MD5").digest(raw)));
  }

  /** Index entries (version records) of the key. */
  private static Predicate<String> records() {
    return name -> name.startsWith("i/bkt/k");
  }

  /** How many calls of {@code kind} on names that {@code names} accepts have started. */
  private long started(Kind kind, Predicate<String> names) {
    return ledger.calls().stream()
        .filter(c -> c.kind() == kind && names.test(c.key()))
        .map(Call::key)
        .count();
  }

  /** Waits until {@code calls} such calls have started (fails the test if they do not). */
  private void awaitStarted(String what, Kind kind, Predicate<String> names, long calls)
      throws InterruptedException {
    Await.until(what, WAIT, () -> started(kind, names) >= calls);
  }

  /** Calls on anything but the bucket's records (which a store reads once a second at most). */
  private long objectCalls(Kind kind) {
    return started(kind, name -> !name.startsWith(Layout.bucketPrefix()));
  }

  @ParameterizedTest
  @ValueSource(strings = {"none", "SSE-S3", "SSE-C"})
  void coldGet_whenTheRecordReadIsHeld_readsTheShardsMeanwhile(String sse) throws Exception {
    FaultyRepository.Gate held = new FaultyRepository.Gate(Operation.GET, records());
    ErasureStore writer = open(held);
    createBucketWarm(writer);
    CustomerKey customer = sse.equals("SSE-C") ? customerKey() : null;
    Sealing sealing =
        switch (sse) {
          case "SSE-S3" -> Sealing.S3_MANAGED;
          case "SSE-C" -> new Sealing.Customer(customer);
          default -> Sealing.NONE;
        };
    byte[] data = data(STRIPED);
    VersionMeta written = put(writer, data, sealing);
    assertThat(VersionId.Mark.of(written.versionId())).isEqualTo(VersionId.Mark.DATA);

    ErasureStore reader = open(held); // another proxy: it has read nothing
    assertThat(ledger.awaitIdle(WAIT)).isTrue();
    ledger.reset();
    held.arm(6);
    CompletableFuture<byte[]> get =
        CompletableFuture.supplyAsync(() -> read(reader, customer), async);
    try {
      held.awaitHeld(1, WAIT);
      // The record's read is held; the k data shards are asked for all the same.
      awaitStarted(
          "shard reads started while the record's read was held",
          Kind.GET,
          name -> name.startsWith(Layout.dataPrefix()),
          4);
    } finally {
      held.open();
    }
    assertThat(get.get()).isEqualTo(data);
    assertThat(ledger.awaitIdle(WAIT)).isTrue();
    // No more calls than the three-round read made: the listing, the record, k shards.
    assertThat(objectCalls(Kind.GET)).isEqualTo(5);
    assertThat(objectCalls(Kind.LIST)).isEqualTo(6);

    // Cold or not, the key is checked before a byte is handed out.
    ErasureStore third = open(held);
    StoreException.Code expected =
        sse.equals("SSE-C")
            ? StoreException.Code.CUSTOMER_KEY_REQUIRED
            : StoreException.Code.ENCRYPTION_MISMATCH;
    CustomerKey wrong = sse.equals("SSE-C") ? null : customerKey();
    assertThatThrownBy(() -> read(third, wrong))
        .isInstanceOfSatisfying(
            StoreException.class, e -> assertThat(e.code()).isEqualTo(expected));
    assertThat(read(third, customer)).isEqualTo(data);
  }

  @Test
  void coldGet_whenInline_readsKRecordsBesideTheOneThatDecides() throws Exception {
    FaultyRepository.Gate held = new FaultyRepository.Gate(Operation.GET, records());
    ErasureStore writer = open(held);
    createBucketWarm(writer);
    byte[] data = data(SMALL);
    VersionMeta written = put(writer, data, Sealing.NONE);
    assertThat(VersionId.Mark.of(written.versionId())).isEqualTo(VersionId.Mark.INLINE);

    ErasureStore reader = open(held);
    assertThat(ledger.awaitIdle(WAIT)).isTrue();
    ledger.reset();
    held.arm(5);
    CompletableFuture<byte[]> get = CompletableFuture.supplyAsync(() -> read(reader, null), async);
    try {
      // The record that decides the version and the k that hold its shards are all out at once:
      // none of them waited for another's answer (before, the k waited for the first).
      held.awaitHeld(5, WAIT);
    } finally {
      held.open();
    }
    assertThat(get.get()).isEqualTo(data);
    assertThat(ledger.awaitIdle(WAIT)).isTrue();
    assertThat(objectCalls(Kind.GET)).isEqualTo(5);
  }

  @Test
  void get_whenAnotherProxyOverwroteTheKey_readsTheNewShardsBesideTheRecord() throws Exception {
    FaultyRepository.Gate held = new FaultyRepository.Gate(Operation.GET, records());
    ErasureStore writer = open(held);
    createBucketWarm(writer);
    ErasureStore reader = open(held);
    put(writer, data(STRIPED), Sealing.NONE);
    read(reader, null); // the reader has served the key: its hint is this version
    byte[] second = data(STRIPED);
    VersionMeta overwritten = put(writer, second, Sealing.NONE);

    assertThat(ledger.awaitIdle(WAIT)).isTrue();
    ledger.reset();
    held.arm(6);
    CompletableFuture<byte[]> get = CompletableFuture.supplyAsync(() -> read(reader, null), async);
    try {
      held.awaitHeld(1, WAIT);
      String newShards = Layout.shard(overwritten.versionId(), 0);
      String newData = newShards.substring(0, newShards.length() - 1);
      awaitStarted(
          "the new version's shards asked for while its record's read was held",
          Kind.GET,
          name -> name.startsWith(newData),
          4);
    } finally {
      held.open();
    }
    assertThat(get.get()).isEqualTo(second);
  }

  @Test
  void coldGet_whenTheNewestEntryIsStillCommitting_dropsTheGuessAndReadsTheVersionBefore()
      throws Exception {
    // Holds three of the six index entry writes of the second PUT: its entry is on three
    // repositories and its commit waits for a fourth, so it is no version yet.
    FaultyRepository.Gate commit = new FaultyRepository.Gate(Operation.PUT, records());
    ErasureStore writer = open(commit);
    createBucketWarm(writer);
    byte[] first = data(STRIPED);
    put(writer, first, Sealing.NONE);
    commit.arm(3);
    byte[] second = data(STRIPED);
    CompletableFuture<VersionMeta> committing =
        CompletableFuture.supplyAsync(() -> put(writer, second, Sealing.NONE), async);
    commit.awaitHeld(3, WAIT);
    commit.awaitCompleted(3, WAIT);

    ErasureStore reader = open(commit);
    ledger.reset();
    // The listing's newest entry is the second PUT's, marked as naming its data: the reader reads
    // its shards on that guess, and the record says it is no version. The first one is served.
    assertThat(read(reader, null)).isEqualTo(first);
    assertThat(committing).isNotDone();
    String guessed = Layout.dataPrefix();
    assertThat(ledger.calls().stream().filter(c -> c.key().startsWith(guessed)).count())
        .as("shard reads: k guessed for the second version, k for the first")
        .isEqualTo(8);

    commit.open();
    VersionMeta second1 = committing.get();
    assertThat(read(reader, null)).isEqualTo(second);
    assertThat(second1.versionId()).isEqualTo(second1.parts().get(0).dataId());
  }
}
