package io.racs.proxy.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.format.Layout;
import io.racs.proxy.store.format.VersionMeta;
import io.racs.proxy.testing.TestArray;
import io.racs.repos.Repository;
import io.racs.repos.decorator.FaultyRepository;
import io.racs.repos.decorator.Operation;
import io.racs.testkit.SeededBytes;
import io.racs.testkit.TestSeed;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Proves multipart uploads (parts stored as they arrive, completion writing no data again, S3's
 * ETag and part rules, abort), that concurrent writers, deleters and readers of one key see only
 * what the order of their operations allows (never a mix, never a stale or a vanished version), and
 * the identity markers that keep repositories in their slots.
 */
class MultipartAndConcurrencyTest {
  private static final int BLOCK = 4096;
  private final StoreFixture f = new StoreFixture("4x2", BLOCK);

  @AfterEach
  void close() {
    f.close();
  }

  @Test
  void multipart_uploadListCompleteAndRead() throws Exception {
    f.store.createBucket("bkt");
    String upload = f.store.createMultipartUpload("bkt", "big", ObjectStore.PutOptions.defaults());
    assertThat(f.store.listMultipartUploads("bkt", ""))
        .extracting(ObjectStore.UploadInfo::uploadId)
        .containsExactly(upload);
    byte[][] parts = {
      StoreFixture.bytes(1, BLOCK + 10),
      StoreFixture.bytes(2, 2 * BLOCK),
      StoreFixture.bytes(3, 100)
    };
    List<ObjectStore.CompletedPart> completed = new ArrayList<>();
    MessageDigest md5s = MessageDigest.getInstance("MD5");
    for (int i = 0; i < parts.length; i++) {
      ObjectStore.PartInfo info =
          f.store.uploadPart(
              "bkt",
              "big",
              upload,
              i + 1,
              StoreFixture.stream(parts[i]),
              parts[i].length,
              java.util.Map::of);
      completed.add(new ObjectStore.CompletedPart(i + 1, "\"" + info.etag() + "\""));
      md5s.update(MessageDigest.getInstance("MD5").digest(parts[i]));
    }
    // Re-uploading part 2 replaces it, and its old shards go.
    int dataBefore = f.names(0, "v/").size();
    ObjectStore.PartInfo again =
        f.store.uploadPart(
            "bkt",
            "big",
            upload,
            2,
            StoreFixture.stream(parts[1]),
            parts[1].length,
            java.util.Map::of);
    assertThat(f.names(0, "v/")).hasSize(dataBefore);
    completed.set(1, new ObjectStore.CompletedPart(2, again.etag()));
    assertThat(f.store.listParts("bkt", "big", upload))
        .extracting(ObjectStore.PartInfo::partNumber)
        .containsExactly(1, 2, 3);

    int shardObjects = f.names(0, "v/").size();
    VersionMeta meta =
        f.store.completeMultipartUpload(
            "bkt", "big", upload, completed, chosen -> java.util.Map.of());
    assertThat(f.names(0, "v/")).as("completion writes no data").hasSize(shardObjects);
    assertThat(meta.etag()).isEqualTo(HexFormat.of().formatHex(md5s.digest()) + "-3");
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      all.write(p);
    }
    byte[] expected = all.toByteArray();
    assertThat(f.get("bkt", "big")).isEqualTo(expected);
    assertThat(f.get("bkt", "big", BLOCK, 2 * BLOCK + 50))
        .isEqualTo(java.util.Arrays.copyOfRange(expected, BLOCK, 3 * BLOCK + 50));
    try (ObjectStore.ObjectReader part2 = f.store.get("bkt", "big", 0, -1, 2)) {
      assertThat(part2.body().readAllBytes()).isEqualTo(parts[1]);
      assertThat(part2.rangeLength()).isEqualTo(parts[1].length);
      assertThat(part2.meta().partRange(2).orElseThrow())
          .containsExactly(parts[0].length, parts[1].length);
    }
    assertThat(f.store.listMultipartUploads("bkt", "")).isEmpty();
    assertThatThrownBy(() -> f.store.listParts("bkt", "big", upload))
        .extracting(e -> ((StoreException) e).code())
        .isEqualTo(StoreException.Code.NO_SUCH_UPLOAD);
  }

  @Test
  void multipart_rulesAndAbort() {
    f.store.createBucket("bkt");
    String upload = f.store.createMultipartUpload("bkt", "k", ObjectStore.PutOptions.defaults());
    ObjectStore.PartInfo small =
        f.store.uploadPart(
            "bkt", "k", upload, 1, StoreFixture.stream(new byte[10]), 10, java.util.Map::of);
    ObjectStore.PartInfo last =
        f.store.uploadPart(
            "bkt", "k", upload, 2, StoreFixture.stream(new byte[10]), 10, java.util.Map::of);
    assertThatThrownBy(
            () ->
                f.store.completeMultipartUpload(
                    "bkt",
                    "k",
                    upload,
                    List.of(
                        new ObjectStore.CompletedPart(1, small.etag()),
                        new ObjectStore.CompletedPart(2, last.etag())),
                    chosen -> java.util.Map.of()))
        .extracting(e -> ((StoreException) e).code())
        .isEqualTo(StoreException.Code.ENTITY_TOO_SMALL);
    assertThatThrownBy(
            () ->
                f.store.completeMultipartUpload(
                    "bkt",
                    "k",
                    upload,
                    List.of(
                        new ObjectStore.CompletedPart(2, last.etag()),
                        new ObjectStore.CompletedPart(1, small.etag())),
                    chosen -> java.util.Map.of()))
        .extracting(e -> ((StoreException) e).code())
        .isEqualTo(StoreException.Code.INVALID_PART_ORDER);
    assertThatThrownBy(
            () ->
                f.store.completeMultipartUpload(
                    "bkt",
                    "k",
                    upload,
                    List.of(new ObjectStore.CompletedPart(1, "0123")),
                    chosen -> java.util.Map.of()))
        .extracting(e -> ((StoreException) e).code())
        .isEqualTo(StoreException.Code.INVALID_PART);
    assertThatThrownBy(
            () ->
                f.store.uploadPart(
                    "bkt",
                    "k",
                    upload,
                    10_001,
                    StoreFixture.stream(new byte[1]),
                    1,
                    java.util.Map::of))
        .extracting(e -> ((StoreException) e).code())
        .isEqualTo(StoreException.Code.INVALID_ARGUMENT);
    f.store.abortMultipartUpload("bkt", "k", upload);
    for (int slot = 0; slot < 6; slot++) {
      // The upload record goes; the abort's mark and the parts stay until they are collected past
      // the GC grace (AbortedUploadTest, AbandonedUploadsTest).
      assertThat(f.names(slot, "u/"))
          .noneMatch(name -> !Layout.isPartRecord(name) && !Layout.isRemovalRecord(name))
          .anyMatch(Layout::isRemovalRecord);
    }
    assertThat(f.store.listMultipartUploads("bkt", "")).isEmpty();
    assertThatThrownBy(() -> f.store.abortMultipartUpload("bkt", "k", upload))
        .extracting(e -> ((StoreException) e).code())
        .isEqualTo(StoreException.Code.NO_SUCH_UPLOAD);
  }

  /**
   * Writers, a deleter and readers of one key run at once, through one store or two over the same
   * repositories (two proxies over one array), and every answer is checked against the order the
   * operations' own timings allow (see {@link History}): a read returns a body that was written in
   * full and not yet overwritten by a write acknowledged before the read began, or NoSuchKey only
   * when a delete could be the newest write, and never any other error while every repository is
   * healthy. Each round starts from an acknowledged body; every other round has no deleter, so
   * NoSuchKey is then never right. Bodies differ in every round and span inline and striped sizes.
   *
   * <p>Before the store resolved a key again when the version it was reading had been collected
   * (issue 16, item 3), most runs with either store count had reads end in INSUFFICIENT_SHARDS:
   * their version's records or shard objects were collected by an overwrite while they read; the
   * test below forces that order.
   */
  @ParameterizedTest(name = "{0} store(s)")
  @ValueSource(ints = {1, 2})
  void putDeleteGet_whenConcurrentOnOneKey_everyReadIsOneTheOrderAllows(int storeCount)
      throws Exception {
    long seed = TestSeed.get();
    Random random = new Random(seed);
    // Superseded versions are collected a second after they settle, not at once as in the other
    // tests: a read whose listings straddle a commit needs the version it replaced on a write
    // quorum until then (docs/quorum.md, "Why superseded versions wait"). With no settle time that
    // read may find neither version and answer NoSuchKey, which this test rightly calls a
    // violation (seen once in many runs). Collections still race the reads of later rounds.
    TestArray.Builder settling =
        TestArray.builder(f.config.geometry())
            .blockBytes(BLOCK)
            .minPartBytes(BLOCK)
            .slowShardTimeout(Duration.ofSeconds(5))
            .gcGrace(Duration.ZERO)
            .settleTime(Duration.ofSeconds(1));
    StoreFixture g = new StoreFixture(settling);
    g.store.createBucket("bkt");
    List<ErasureStore> stores = new ArrayList<>(List.of(g.store));
    for (int i = 1; i < storeCount; i++) {
      stores.add(ErasureStore.open(g.config, List.<Repository>copyOf(g.faulty)));
    }
    int writers = 4;
    int putsPerWriter = 3;
    int readers = 2;
    try {
      for (int round = 0; round < 6; round++) {
        boolean deleting = round % 2 == 0;
        History history = new History();
        byte[] initial = body(random);
        history.put(stores.get(0), "initial", initial);
        CountDownLatch start = new CountDownLatch(1);
        AtomicBoolean writing = new AtomicBoolean(true);
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
          List<Future<?>> mutators = new ArrayList<>();
          for (int w = 0; w < writers; w++) {
            ErasureStore store = stores.get(w % stores.size());
            List<byte[]> bodies = new ArrayList<>();
            for (int i = 0; i < putsPerWriter; i++) {
              bodies.add(body(random));
            }
            String writer = "w" + w;
            mutators.add(
                pool.submit(
                    () -> {
                      start.await();
                      for (int i = 0; i < bodies.size(); i++) {
                        history.put(store, writer + "." + i, bodies.get(i));
                      }
                      return null;
                    }));
          }
          if (deleting) {
            ErasureStore store = stores.get(stores.size() - 1);
            mutators.add(
                pool.submit(
                    () -> {
                      start.await();
                      for (int i = 0; i < putsPerWriter; i++) {
                        history.delete(store, "d." + i);
                      }
                      return null;
                    }));
          }
          List<Future<?>> readerTasks = new ArrayList<>();
          for (int r = 0; r < readers; r++) {
            // With two stores the readers read through different ones, so reads cross proxies.
            ErasureStore store = stores.get((r + 1) % stores.size());
            String reader = "r" + r;
            readerTasks.add(
                pool.submit(
                    () -> {
                      start.await();
                      int reads = 0;
                      // At least a few reads each, and then as many as the writes leave room for.
                      while (writing.get() || reads < 3) {
                        history.get(store, reader + "." + reads++);
                      }
                      return null;
                    }));
          }
          start.countDown();
          for (Future<?> mutator : mutators) {
            mutator.get();
          }
          writing.set(false);
          for (Future<?> reader : readerTasks) {
            reader.get();
          }
        }
        // Once everything is acknowledged, a read sees one of the writes no other write followed.
        history.get(stores.get(0), "after");
        history.get(stores.get(stores.size() - 1), "after.last-store");
        assertThat(history.violations())
            .as(
                "seed %d, round %d (%s), %d store(s); history:%n%s",
                seed, round, deleting ? "puts and deletes" : "puts only", storeCount, history)
            .isEmpty();
      }
    } finally {
      for (ErasureStore store : stores.subList(1, stores.size())) {
        store.close();
      }
      g.close();
    }
  }

  /**
   * The race the history test above meets by chance, forced into one order: a GET resolves the
   * current version, then the key is overwritten and the old version collected before the GET reads
   * its shards (for a striped object, shard objects; for an inline one, the version records that
   * hold them). The overwrite ran while the GET did, so the old body and the new one are both right
   * answers; an error, or NoSuchKey for a key that always had a body, is not.
   *
   * <p>Before the fix of issue 16, item 3, the GET answered NO_SUCH_KEY (a 404) for the inline
   * object and INSUFFICIENT_SHARDS (a 503) for the striped one, because the collector deleted what
   * it had resolved; now the store resolves the key again and reads the version that replaced it.
   */
  @ParameterizedTest(name = "{0} bytes")
  @ValueSource(ints = {100, 3 * BLOCK + 5})
  void get_whenItsVersionIsCollectedBeforeItsShardsAreRead_returnsTheOldOrTheNewBody(int size)
      throws Exception {
    boolean inline = size <= BLOCK;
    // The first read of the version's data: its first shard object, or its record on some slot.
    FaultyRepository.Gate gate =
        new FaultyRepository.Gate(Operation.GET, name -> name.startsWith(inline ? "i/bkt/" : "v/"));
    try (ErasureStore store = ErasureStore.open(f.config, FaultyRepository.gated(f.faulty, gate))) {
      store.createBucket("bkt");
      byte[] old = StoreFixture.bytes(size, size);
      byte[] newer = StoreFixture.bytes(size + 1, size);
      VersionMeta first =
          store.put("bkt", "k", StoreFixture.stream(old), size, ObjectStore.PutOptions.defaults());
      assertThat(first.parts().getFirst().inline()).isEqualTo(inline);
      store.awaitCollections();
      gate.arm(1);
      try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
        Future<byte[]> read =
            pool.submit(
                () -> {
                  try (ObjectStore.ObjectReader reader = store.get("bkt", "k", 0, -1, 0)) {
                    return reader.body().readAllBytes();
                  }
                });
        try {
          // The hold lasts one in-memory PUT and its collection, well inside the fixture's 5 s
          // slow-shard timeout, so the held read is not given up as slow.
          gate.awaitHeld(1, Duration.ofSeconds(5));
          store.put(
              "bkt", "k", StoreFixture.stream(newer), size, ObjectStore.PutOptions.defaults());
          store.awaitCollections();
          String collected = inline ? first.versionId() : first.parts().getFirst().dataId();
          assertThat(f.names(0, inline ? "i/" : "v/"))
              .as("the old version is collected while the GET waits")
              .noneMatch(name -> name.contains(collected));
        } finally {
          // A failed check must not leave the GET held forever.
          gate.open();
        }
        byte[] got;
        try {
          got = read.get();
        } catch (ExecutionException e) {
          String code = e.getCause() instanceof StoreException se ? se.code() + ": " : "";
          throw new AssertionError(
              "the GET failed although every repository is healthy: " + code + e.getCause(), e);
        }
        assertThat(got)
            .satisfiesAnyOf(
                body -> assertThat(body).isEqualTo(old), body -> assertThat(body).isEqualTo(newer));
      }
    }
  }

  /** A body of a random size: some inline (up to one block), most striped over several. */
  private static byte[] body(Random random) {
    int size = 1 + random.nextInt(4 * BLOCK);
    return SeededBytes.bytes(random.nextLong(), size);
  }

  /**
   * The timed history of one round on one key, and the check of its reads against the order of a
   * register that each operation updates or reads at one instant between its call and its return
   * (linearizability). Times come from {@link System#nanoTime()}, taken just before each call and
   * just after it returns (after the whole body, for a read), so each instant lies inside its
   * interval whatever the scheduling. Two necessary conditions are checked:
   *
   * <ul>
   *   <li>A read returns the value of a write that began before the read returned and that was not
   *       followed by another write entirely between the first's return and the read's call.
   *   <li>A read that began after another read returned does not return a write that returned
   *       before every write the earlier read could have seen began (no new-then-old).
   * </ul>
   *
   * A delete writes the value "absent". Puts carry distinct bodies, so a body names its put.
   */
  static final class History {
    private static final String ABSENT = "absent";

    private record Write(String label, long called, long returned, String value) {}

    private record Read(String label, long called, long returned, String value) {}

    private final long origin = System.nanoTime();
    private final List<Write> writes = new CopyOnWriteArrayList<>();
    private final List<Read> reads = new CopyOnWriteArrayList<>();

    void put(ErasureStore store, String label, byte[] body) {
      long called = System.nanoTime();
      store.put(
          "bkt", "k", StoreFixture.stream(body), body.length, ObjectStore.PutOptions.defaults());
      writes.add(new Write(label, called, System.nanoTime(), digest(body)));
    }

    void delete(ErasureStore store, String label) {
      long called = System.nanoTime();
      store.delete("bkt", "k");
      writes.add(new Write(label, called, System.nanoTime(), ABSENT));
    }

    void get(ErasureStore store, String label) {
      long called = System.nanoTime();
      String value;
      try (ObjectStore.ObjectReader reader = store.get("bkt", "k", 0, -1, 0)) {
        value = digest(reader.body().readAllBytes());
      } catch (StoreException e) {
        value =
            e.code() == StoreException.Code.NO_SUCH_KEY ? ABSENT : "error " + e.code() + ": " + e;
      } catch (IOException | RuntimeException e) {
        value = "error " + e;
      }
      reads.add(new Read(label, called, System.nanoTime(), value));
    }

    /** Every read that no order of the operations explains, each with why. */
    List<String> violations() {
      List<String> violations = new ArrayList<>();
      for (Read read : reads) {
        if (sources(read).isEmpty()) {
          String written =
              writes.stream()
                  .filter(w -> w.value.equals(read.value))
                  .map(Write::label)
                  .toList()
                  .toString();
          violations.add(
              read.label
                  + " returned "
                  + shown(read.value)
                  + ", which no write still current during the read wrote (writes of it: "
                  + written
                  + ")");
        }
      }
      for (Read earlier : reads) {
        for (Read later : reads) {
          if (earlier.returned < later.called) {
            List<Write> seen = sources(earlier);
            List<Write> seenLater = sources(later);
            if (!seen.isEmpty()
                && !seenLater.isEmpty()
                && seenLater.stream()
                    .allMatch(w -> seen.stream().allMatch(x -> w.returned < x.called))) {
              violations.add(
                  later.label
                      + " returned "
                      + shown(later.value)
                      + " after "
                      + earlier.label
                      + " had returned the newer "
                      + shown(earlier.value));
            }
          }
        }
      }
      return violations;
    }

    /** The writes whose value {@code read} may have returned. */
    private List<Write> sources(Read read) {
      return writes.stream()
          .filter(w -> w.value.equals(read.value) && w.called < read.returned)
          .filter(
              w ->
                  writes.stream().noneMatch(y -> w.returned < y.called && y.returned < read.called))
          .toList();
    }

    private String shown(String value) {
      return writes.stream()
          .filter(w -> w.value.equals(value) && !value.equals(ABSENT))
          .map(w -> "the body of " + w.label)
          .findFirst()
          .orElse(value.startsWith("error") || value.equals(ABSENT) ? value : "an unknown body");
    }

    private static String digest(byte[] bytes) {
      try {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
      } catch (java.security.NoSuchAlgorithmException e) {
        throw new IllegalStateException(e);
      }
    }

    /** Every operation with its interval in microseconds from the round's start, by call time. */
    @Override
    public String toString() {
      List<String[]> lines = new ArrayList<>();
      for (Write w : writes) {
        lines.add(line(w.called, w.returned, w.label, w.value.equals(ABSENT) ? "delete" : "put"));
      }
      for (Read r : reads) {
        lines.add(line(r.called, r.returned, r.label, "get -> " + shown(r.value)));
      }
      lines.sort(java.util.Comparator.comparingLong(l -> Long.parseLong(l[0])));
      StringBuilder b = new StringBuilder();
      for (String[] l : lines) {
        b.append(String.format("  %8s..%8s us  %-18s %s%n", l[0], l[1], l[2], l[3]));
      }
      return b.toString();
    }

    private String[] line(long called, long returned, String label, String what) {
      return new String[] {
        Long.toString((called - origin) / 1000),
        Long.toString((returned - origin) / 1000),
        label,
        what
      };
    }
  }

  @Test
  void identity_whenRepositoriesSwappedOrForeign_refusesToOpen_andAdoptsAnEmptyOne() {
    f.store.createBucket("bkt");
    f.put("bkt", "k", new byte[] {1, 2, 3});
    List<Repository> swapped = new ArrayList<>(f.faulty);
    java.util.Collections.swap(swapped, 0, 1);
    assertThatThrownBy(() -> ErasureStore.open(f.config, swapped))
        .isInstanceOf(StoreException.class)
        .hasMessageContaining("configured in slot 0")
        .extracting(e -> ((StoreException) e).code())
        .isEqualTo(StoreException.Code.INCONSISTENT);

    StoreFixture other = new StoreFixture("4x2", BLOCK);
    List<Repository> mixed = new ArrayList<>(f.faulty);
    mixed.set(2, other.faulty.get(2));
    assertThatThrownBy(() -> ErasureStore.open(f.config, mixed))
        .hasMessageContaining("different arrays");
    other.close();

    List<Repository> replaced = new ArrayList<>(f.faulty);
    replaced.set(3, io.racs.repos.memory.MemoryRepository.create("fresh"));
    ErasureStore adopted = ErasureStore.open(f.config, replaced);
    assertThat(adopted.arrayId()).isEqualTo(f.store.arrayId());
  }
}
