package io.racs.proxy.store.array;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.codec.Geometry;
import io.racs.proxy.coord.ZooKeeperCoordination;
import io.racs.proxy.store.CrossProxyOrderingTest;
import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.SharedArray;
import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.commit.CurrentVersions;
import io.racs.proxy.store.format.Layout;
import io.racs.proxy.store.format.VersionMeta;
import io.racs.proxy.store.heal.HealOptions;
import io.racs.proxy.store.heal.Healer;
import io.racs.proxy.testing.TestArray;
import io.racs.repos.Repository;
import io.racs.repos.RepositoryException;
import io.racs.repos.decorator.FaultyRepository;
import io.racs.repos.decorator.ForwardingRepository;
import io.racs.repos.decorator.Operation;
import io.racs.repos.memory.MemoryRepository;
import io.racs.testkit.Await;
import io.racs.testkit.CountingRepository;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Pattern;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The current-version cache of several proxies coordinated by ZooKeeper ({@link KeyStamps}, {@link
 * CurrentVersions}), on a real in-process ZooKeeper: a GET of a key unchanged since lists nothing
 * and asks only the k shards; any write through another proxy is seen at once, even one still
 * committing; a write that failed keeps the slot listing; with ZooKeeper gone reads list and writes
 * are refused before anything changes.
 */
class KeyStampsTest {
  private static final Geometry GEOMETRY = Geometry.parse("4x2");
  private static final String BUCKET = SharedArray.BUCKET;

  private TestingServer zookeeper;
  private final List<Repository> repositories = new ArrayList<>();
  private final List<AutoCloseable> open = new ArrayList<>();
  private final CountingRepository.Ledger ledger = new CountingRepository.Ledger(6);
  private final FaultyRepository.Gate commits =
      new FaultyRepository.Gate(Operation.PUT, name -> name.startsWith("i/"));
  private final FaultyRepository.Gate listings =
      new FaultyRepository.Gate(Operation.LIST, prefix -> prefix.startsWith("i/"));
  private final List<FaultyRepository> faulty = new ArrayList<>();
  private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
  private ErasureStore reader;
  private ErasureStore writer;
  private ZooKeeperCoordination readerZk;
  private ZooKeeperCoordination writerZk;

  @BeforeEach
  void start() throws Exception {
    zookeeper = new TestingServer(true);
    for (int i = 0; i < GEOMETRY.totalShards(); i++) {
      repositories.add(MemoryRepository.create("mem" + i));
    }
    reader = store(CountingRepository.wrap(unclosed(), ledger));
    List<Repository> seen = new ArrayList<>();
    for (Repository r :
        FaultyRepository.gated(FaultyRepository.gated(unclosed(), commits), listings)) {
      FaultyRepository f = new FaultyRepository(r);
      faulty.add(f);
      seen.add(f);
    }
    writer = store(seen);
    writer.createBucket(BUCKET);
    readerZk = join(reader, "reader");
    writerZk = join(writer, "writer");
    Await.until("both connected", () -> readerZk.connected() && writerZk.connected());
  }

  @AfterEach
  void stop() throws Exception {
    commits.open();
    listings.open();
    executor.shutdownNow();
    for (AutoCloseable c : open.reversed()) {
      c.close();
    }
    for (Repository r : repositories) {
      r.close();
    }
    zookeeper.close();
  }

  @Test
  void get_ofAKeyUnchangedSinceItWasListed_listsNothingAndReadsOnlyKShards() throws Exception {
    for (int size : new int[] {500, 9000}) { // inline, striped
      String key = "steady-" + size;
      CrossProxyOrderingTest.put(writer, key, body("v1", size));
      awaitQuietForReader(key);
      assertThat(value(reader, key)).contains("v1"); // lists: this proxy has not read it
      assertThat(ledger.awaitIdle(Duration.ofSeconds(10))).isTrue();
      ledger.reset();
      long stamped = reader.stats().stampedReads();

      assertThat(value(reader, key)).contains("v1");
      assertThat(reader.head(BUCKET, key).sizeBytes()).isEqualTo(size);

      assertThat(ledger.awaitIdle(Duration.ofSeconds(10))).isTrue();
      assertThat(ledger.total(CountingRepository.Kind.LIST)).as("%d B: LIST", size).isZero();
      assertThat(ledger.total(CountingRepository.Kind.GET))
          .as("%d B: GET (the HEAD asks nothing)", size)
          .isEqualTo(GEOMETRY.dataShards());
      assertThat(reader.stats().stampedReads() - stamped).isEqualTo(2);
    }
  }

  @Test
  void get_withoutKeyStamps_listsEveryTime() throws Exception {
    reader.coordinateKeys(KeyStamps.NONE);
    CrossProxyOrderingTest.put(writer, "plain", body("v1", 500));
    assertThat(value(reader, "plain")).contains("v1");
    assertThat(ledger.awaitIdle(Duration.ofSeconds(10))).isTrue();
    ledger.reset();

    assertThat(value(reader, "plain")).contains("v1");

    assertThat(ledger.total(CountingRepository.Kind.LIST)).isEqualTo(GEOMETRY.totalShards());
    assertThat(reader.stats().stampedReads()).isZero();
  }

  @Test
  void get_ofKeysWhoseEntriesShareOneName_answersForEachKeyItsOwnVersion() throws Exception {
    // A key too long for entry names is named by a prefix and its hash; another key may be exactly
    // that name (any byte may be in a key). Such a key is named by its hash too, so the two keys'
    // entries never share one prefix, and each key keeps its own cached answer.
    String longKey = "l".repeat(1000);
    String shortKey = reader.context().nameKey(BUCKET, longKey);
    assertThat(reader.context().nameKey(BUCKET, shortKey)).isNotEqualTo(shortKey);

    CrossProxyOrderingTest.put(writer, longKey, body("long", 500));
    assertThat(value(reader, shortKey)).isEmpty();
    assertThat(value(reader, longKey)).contains("long");

    CrossProxyOrderingTest.put(writer, shortKey, body("short", 500));
    assertThat(value(reader, shortKey)).contains("short");
    assertThat(value(reader, longKey)).contains("long");
    assertThat(value(reader, shortKey)).contains("short");
  }

  @Test
  void writesThroughAnotherProxy_areSeenByTheNextRead() throws Exception {
    writer.enableVersioning(BUCKET);
    CrossProxyOrderingTest.put(writer, "k", body("v1", 9000));
    assertThat(value(reader, "k")).contains("v1");
    assertThat(value(reader, "k")).contains("v1"); // from the cache

    CrossProxyOrderingTest.put(writer, "k", body("v2", 500));
    assertThat(value(reader, "k")).contains("v2");
    assertThat(value(reader, "k")).contains("v2");

    VersionMeta v3 = writer.put(BUCKET, "k", stream(body("v3", 9000)), 9000, defaults());
    assertThat(value(reader, "k")).contains("v3");
    writer.removeVersion(BUCKET, "k", v3.versionId());
    assertThat(value(reader, "k")).contains("v2");
    assertThat(value(reader, "k")).contains("v2");

    writer.delete(BUCKET, "k");
    assertThat(value(reader, "k")).isEmpty();
    assertThat(value(reader, "k")).isEmpty();
    assertThatThrownBy(() -> reader.head(BUCKET, "k"))
        .isInstanceOf(StoreException.DeletedKey.class);
  }

  @Test
  void aWriteStillCommitting_makesOtherProxiesListUntilItEnds() throws Exception {
    CrossProxyOrderingTest.put(writer, "k", body("v1", 500));
    assertThat(value(reader, "k")).contains("v1");
    assertThat(value(reader, "k")).contains("v1");
    long stamped = reader.stats().stampedReads();

    commits.arm(GEOMETRY.totalShards());
    Future<?> put = executor.submit(() -> CrossProxyOrderingTest.put(writer, "k", body("v2", 500)));
    commits.awaitHeld(GEOMETRY.totalShards(), Duration.ofSeconds(10));
    ledger.reset();
    // Registered and not yet on any repository: the old version is still the answer, but only a
    // listing may say so, since the write may land at any moment.
    assertThat(value(reader, "k")).contains("v1");
    assertThat(ledger.total(CountingRepository.Kind.LIST)).isEqualTo(GEOMETRY.totalShards());
    assertThat(reader.stats().stampedReads()).isEqualTo(stamped);

    commits.open();
    put.get();
    assertThat(value(reader, "k")).contains("v2");
  }

  @Test
  void aWriteThatOneRepositoryMissed_leavesItsSlotAtOnce() throws Exception {
    // On a write quorum the entry is a version for every reader: a repository that is down must
    // not keep every written key's slot listing for the failed writes' hold.
    faulty.get(0).failKeys(Pattern.compile("i/.*"), RepositoryException.Kind.UNAVAILABLE);
    CrossProxyOrderingTest.put(writer, "k", body("v1", 500));
    int slot = StoreContext.stampSlot(Layout.indexKeyPrefix(BUCKET, "k"));
    assertThat(writerZk.stamp(BUCKET, slot).quiet()).isTrue();
    awaitQuietForReader("k");
    assertThat(value(reader, "k")).contains("v1");
    ledger.reset();

    assertThat(value(reader, "k")).contains("v1");
    assertThat(ledger.total(CountingRepository.Kind.LIST)).isZero();
  }

  @Test
  void aWrite_registersWhileItsOrderingListingIsStillOut() throws Exception {
    // The registration is no round trip of its own: it runs alongside the listing that orders the
    // write, for a PUT (inline and striped) and for a DELETE's marker alike.
    CrossProxyOrderingTest.put(writer, "k", body("v1", 500));
    int slot = StoreContext.stampSlot(Layout.indexKeyPrefix(BUCKET, "k"));
    List<java.util.concurrent.Callable<Object>> writes =
        List.of(
            () -> {
              CrossProxyOrderingTest.put(writer, "k", body("v2", 500));
              return null;
            },
            () -> {
              CrossProxyOrderingTest.put(writer, "k", body("v3", 9000));
              return null;
            },
            () -> writer.delete(BUCKET, "k"));
    for (java.util.concurrent.Callable<Object> write : writes) {
      assertThat(writerZk.stamp(BUCKET, slot).quiet()).isTrue();
      listings.rearm(GEOMETRY.totalShards());
      Future<Object> running = executor.submit(write);
      listings.awaitHeld(GEOMETRY.totalShards(), Duration.ofSeconds(10));
      Await.until(
          "the write registered while its listing is held",
          () -> !writerZk.stamp(BUCKET, slot).quiet());
      listings.open();
      running.get();
    }
    assertThat(value(reader, "k")).isEmpty();
  }

  @Test
  void aWriteRefusedBeforeItsCommit_leavesItsSlot() throws Exception {
    CrossProxyOrderingTest.put(writer, "k", body("v1", 500));
    assertThat(value(reader, "k")).contains("v1");
    ObjectStore.WriteCondition refuse =
        current -> {
          throw new IllegalStateException("refused");
        };
    for (int size : new int[] {500, 9000}) {
      assertThatThrownBy(
              () -> writer.put(BUCKET, "k", stream(body("v2", size)), size, defaults(), refuse))
          .hasMessageContaining("refused");
      awaitQuietForReader("k");
    }
    assertThatThrownBy(() -> writer.delete(BUCKET, "k", refuse)).hasMessageContaining("refused");
    awaitQuietForReader("k");
    assertThat(writer.delete(BUCKET, "none")).isEmpty(); // nothing to hide: no marker
    awaitQuietForReader("none");

    assertThat(value(reader, "k")).contains("v1");
    ledger.reset();
    assertThat(value(reader, "k")).contains("v1");
    assertThat(ledger.total(CountingRepository.Kind.LIST)).as("from the cache again").isZero();
  }

  @Test
  void aFailedWrite_keepsItsSlotListingForTheHold() throws Exception {
    CrossProxyOrderingTest.put(writer, "k", body("v1", 500));
    assertThat(value(reader, "k")).contains("v1");
    for (int slot = 0; slot < 2 + 1; slot++) { // m + 1: 3 take it, fewer than the write quorum 4
      faulty.get(slot).failKeys(Pattern.compile("i/.*"), RepositoryException.Kind.UNAVAILABLE);
    }
    assertThatThrownBy(() -> CrossProxyOrderingTest.put(writer, "k", body("v2", 500)))
        .isInstanceOfSatisfying(
            StoreException.class,
            e -> assertThat(e.code()).isEqualTo(StoreException.Code.INSUFFICIENT_SHARDS));
    int slot = StoreContext.stampSlot(Layout.indexKeyPrefix(BUCKET, "k"));
    assertThat(writerZk.stamp(BUCKET, slot).quiet())
        .as("the failed write is still registered")
        .isFalse();
    ledger.reset();

    assertThat(value(reader, "k")).contains("v1");
    assertThat(ledger.total(CountingRepository.Kind.LIST)).isEqualTo(GEOMETRY.totalShards());
  }

  @Test
  void heal_thatCopiesAnEntryUpToAWriteQuorum_makesOtherProxiesListAgain() throws Exception {
    // Striped: an inline version on fewer than k = 4 repositories has lost shards, and its records
    // cannot be rebuilt (that needs a write quorum above k).
    writer.enableVersioning(BUCKET);
    CrossProxyOrderingTest.put(writer, "k", body("v1", 9000));
    VersionMeta v2 = writer.put(BUCKET, "k", stream(body("v2", 9000)), 9000, defaults());
    // Three copies of v2's entry lost: on three repositories, fewer than the write quorum (four),
    // it is no version, and v1 is current.
    String entry = Layout.indexEntry(BUCKET, "k", v2.versionId());
    for (int slot = 3; slot < 6; slot++) {
      repositories.get(slot).delete(entry);
    }
    assertThat(value(reader, "k")).contains("v1");
    assertThat(value(reader, "k")).as("from the cache").contains("v1");

    // A heal that cannot list repository 5 counts it as maybe holding v2, takes v2 for a version,
    // and copies it to the others: now on a write quorum, v2 is current for every reader.
    faulty.get(5).failOperation(Operation.LIST, RepositoryException.Kind.UNAVAILABLE);
    Healer.heal(writer, HealOptions.defaults());
    faulty.get(5).clearFaults();

    assertThat(value(reader, "k")).contains("v2");
  }

  @Test
  void heal_whenARemovalCountsOnlyForARepositoryThatDidNotList_deletesNothingACacheStillServes()
      throws Exception {
    writer.enableVersioning(BUCKET);
    CrossProxyOrderingTest.put(writer, "k", body("v1", 9000));
    VersionMeta v2 = writer.put(BUCKET, "k", stream(body("v2", 9000)), 9000, defaults());
    // A removal of v2 that reached three repositories, fewer than the write quorum (four), and was
    // not rolled back there: it does not count, and v2 is current.
    String removal = Layout.removalRecord(Layout.indexEntry(BUCKET, "k", v2.versionId()));
    byte[] record = Layout.encode(v2);
    for (int slot = 0; slot < 3; slot++) {
      repositories.get(slot).put(removal, new java.io.ByteArrayInputStream(record), record.length);
    }
    assertThat(value(reader, "k")).contains("v2");
    assertThat(value(reader, "k")).as("from the cache").contains("v2");

    // A heal that cannot list repository 5 counts it as maybe holding the removal, and cannot read
    // the removal record where it is listed (so it cannot copy it, which would register).
    faulty.get(5).failOperation(Operation.LIST, RepositoryException.Kind.UNAVAILABLE);
    for (int slot = 0; slot < 3; slot++) {
      faulty.get(slot).failKeys(Pattern.compile(".*-gone"), RepositoryException.Kind.UNAVAILABLE);
    }
    Healer.heal(writer, HealOptions.defaults());
    faulty.forEach(FaultyRepository::clearFaults);

    String listed = writer.resolver().newest(BUCKET, "k").orElseThrow().versionId();
    assertThat(reader.head(BUCKET, "k").versionId())
        .as("the other proxy's answer is what a listing says")
        .isEqualTo(listed);
    assertThat(value(reader, "k")).contains("v2");
  }

  @Test
  void withZooKeeperGone_readsListAndWritesAreRefusedBeforeChangingAnything() throws Exception {
    CrossProxyOrderingTest.put(writer, "k", body("v1", 500));
    assertThat(value(reader, "k")).contains("v1");
    zookeeper.stop();
    Await.until("both disconnected", () -> !readerZk.connected() && !writerZk.connected());
    ledger.reset();

    assertThat(value(reader, "k")).contains("v1");
    assertThat(ledger.total(CountingRepository.Kind.LIST)).isEqualTo(GEOMETRY.totalShards());
    assertThatThrownBy(() -> CrossProxyOrderingTest.put(writer, "k", body("v2", 500)))
        .isInstanceOfSatisfying(
            StoreException.class,
            e -> assertThat(e.code()).isEqualTo(StoreException.Code.COORDINATION_UNAVAILABLE));
    assertThat(value(reader, "k")).contains("v1");

    zookeeper.restart();
    Await.until("both connected again", () -> readerZk.connected() && writerZk.connected());
    CrossProxyOrderingTest.put(writer, "k", body("v3", 500));
    assertThat(value(reader, "k")).contains("v3");
  }

  @Test
  void aZooKeeperThatLostItsData_isNotTakenForOneWhereNoWriteRegistered() throws Exception {
    assertThat(value(reader, "fresh")).isEmpty(); // listed; no write ever registered in its slot
    assertThat(value(reader, "fresh")).as("from the cache").isEmpty();
    CrossProxyOrderingTest.put(writer, "fresh", body("v1", 500));

    // ZooKeeper starts again without its data (a new server on the same port): its ids start over,
    // and the slot is as it was before any write.
    int port = zookeeper.getPort();
    zookeeper.close();
    zookeeper = new TestingServer(port, true);
    Await.until("both connected again", () -> readerZk.connected() && writerZk.connected());

    assertThat(value(reader, "fresh")).contains("v1");
  }

  private ErasureStore store(List<Repository> seen) {
    ErasureStore store =
        TestArray.builder(GEOMETRY)
            .blockBytes(4096)
            .inlineBytes(1024)
            .minPartBytes(1)
            .stallGrace(Duration.ofSeconds(5))
            .over(seen)
            .open()
            .store();
    open.add(store);
    return store;
  }

  private ZooKeeperCoordination join(ErasureStore store, String id) {
    ZooKeeperCoordination c =
        ZooKeeperCoordination.start(
            new ZooKeeperCoordination.Settings(
                zookeeper.getConnectString(), "racs", id, id, Duration.ofSeconds(10)),
            store::bucketChanged,
            store::bucketsChanged);
    store.coordinate(c);
    store.coordinateKeys(c);
    open.add(c);
    return c;
  }

  /**
   * Waits until the reading proxy sees no write registered in the slot of {@code key}: a write does
   * not wait for its departure, so another proxy may see it registered a moment after it was
   * answered (and list once more), and a test that counts the reader's listings waits first.
   */
  private void awaitQuietForReader(String key) throws InterruptedException {
    int slot = StoreContext.stampSlot(Layout.indexKeyPrefix(BUCKET, key));
    Await.until(
        "the reader sees the slot of " + key + " quiet",
        () -> {
          KeyStamps.Stamp stamp = readerZk.stamp(BUCKET, slot);
          return stamp != null && stamp.quiet();
        });
  }

  /** The repositories, each in a wrapper whose close is left to this test. */
  private List<Repository> unclosed() {
    List<Repository> all = new ArrayList<>();
    for (Repository r : repositories) {
      all.add(
          new ForwardingRepository(r) {
            @Override
            public void close() {}
          });
    }
    return all;
  }

  /** The value written in a key's body (before the '|'), empty when the key has none. */
  private static Optional<String> value(ObjectStore store, String key) {
    return CrossProxyOrderingTest.read(store, key)
        .map(b -> new String(b, StandardCharsets.UTF_8))
        .map(text -> text.substring(0, text.indexOf('|')));
  }

  private static byte[] body(String value, int size) {
    byte[] head = (value + "|").getBytes(StandardCharsets.UTF_8);
    byte[] body = Arrays.copyOf(head, size);
    Arrays.fill(body, head.length, size, (byte) 'x');
    return body;
  }

  private static java.io.InputStream stream(byte[] data) {
    return new java.io.ByteArrayInputStream(data);
  }

  private static ObjectStore.PutOptions defaults() {
    return ObjectStore.PutOptions.defaults();
  }
}
