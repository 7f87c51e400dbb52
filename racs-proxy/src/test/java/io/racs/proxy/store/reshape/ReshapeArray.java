package io.racs.proxy.store.reshape;

import io.racs.proxy.codec.Geometry;
import io.racs.proxy.crypto.Keyring;
import io.racs.proxy.crypto.MasterKey;
import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.api.StoreConfig;
import io.racs.proxy.store.array.RepositoryArray;
import io.racs.proxy.store.format.ArrayRecord;
import io.racs.proxy.store.format.Layout;
import io.racs.proxy.store.format.PartMeta;
import io.racs.proxy.store.format.Sealing;
import io.racs.proxy.store.format.VersionMeta;
import io.racs.proxy.testing.ReshapeRecords;
import io.racs.proxy.testing.TestArray;
import io.racs.repos.ObjectInfo;
import io.racs.repos.memory.MemoryRepository;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A 4x2 array over six memory repositories holding versions of every kind a reshape moves, and what
 * a test compares before and after a move: every version listed (id, ETag, order, latest), its
 * bytes, its tags and its part table.
 */
final class ReshapeArray implements AutoCloseable {
  static final int BLOCK = 4 * 1024;
  static final long SEED = 38;

  final TestArray array;
  final ErasureStore store;
  final OffsetClock clock = new OffsetClock();
  private final Random random = new Random(SEED);

  ReshapeArray(Duration settleTime) {
    array =
        TestArray.builder("4x2")
            .blockBytes(BLOCK)
            .minPartBytes(BLOCK)
            .inlineBytes(512)
            .slowShardTimeout(Duration.ofSeconds(5))
            .gcGrace(Duration.ZERO)
            .settleTime(settleTime)
            .clock(clock)
            .keys(Keyring.of(MasterKey.generate()))
            .faulty()
            .open();
    store = array.store();
  }

  /** Versions of every kind: several versions, a delete marker, tags, multipart, inline, sealed. */
  ReshapeArray fill() {
    store.createBucket("bkt");
    store.enableVersioning("bkt");
    put("bkt", "striped", 5 * BLOCK + 3);
    put("bkt", "striped", 3 * BLOCK + 7);
    put("bkt", "small", 100);
    store.delete("bkt", "small");
    put("bkt", "small", 200);
    put("bkt", "empty", 0);
    VersionMeta tagged =
        store.put(
            "bkt",
            "tagged",
            new ByteArrayInputStream(data(2 * BLOCK)),
            2 * BLOCK,
            new ObjectStore.PutOptions(
                "text/plain", Map.of("m", "1"), Map::of, Map.of(), Map.of("at", "put")));
    store.putObjectTagging(tagged, Map.of("set", "later"));
    store.put(
        "bkt",
        "sealed",
        new ByteArrayInputStream(data(2 * BLOCK + 5)),
        2 * BLOCK + 5,
        ObjectStore.PutOptions.defaults().withSealing(Sealing.S3_MANAGED));
    String upload = store.createMultipartUpload("bkt", "mp", ObjectStore.PutOptions.defaults());
    List<ObjectStore.CompletedPart> parts = new ArrayList<>();
    for (int number = 1; number <= 2; number++) {
      byte[] part = data(number == 1 ? BLOCK + 1 : 300);
      ObjectStore.PartInfo info =
          store.uploadPart(
              "bkt", "mp", upload, number, new ByteArrayInputStream(part), part.length, Map::of);
      parts.add(new ObjectStore.CompletedPart(number, info.etag()));
    }
    store.completeMultipartUpload("bkt", "mp", upload, parts, chosen -> Map.of());
    store.createBucket("plain");
    for (int i = 0; i < 4; i++) {
      put("plain", "p" + i, i % 2 == 0 ? 300 : 2 * BLOCK + i);
    }
    store.awaitCollections();
    return this;
  }

  VersionMeta put(String bucket, String key, int size) {
    return store.put(
        bucket, key, new ByteArrayInputStream(data(size)), size, ObjectStore.PutOptions.defaults());
  }

  /** Writes {@code data} as a new version of {@code key} through {@code on}. */
  static VersionMeta put(ErasureStore on, String bucket, String key, byte[] data) {
    return on.put(
        bucket,
        key,
        new ByteArrayInputStream(data),
        data.length,
        ObjectStore.PutOptions.defaults());
  }

  byte[] data(int size) {
    byte[] bytes = new byte[size];
    random.nextBytes(bytes);
    return bytes;
  }

  /** Records the reshape 4x2 -> 3x3 over the same six repositories, as {@code start} does. */
  void recordReshape() {
    ReshapeRecords.record4x2To3x3(store);
  }

  ArrayRecord.State state() {
    return new ArrayRecords(store).current().orElseThrow().state();
  }

  /** The mover's fence (docs/reshape.md §6): none unless a test sets one. */
  Duration fence = Duration.ZERO;

  /** Runs the mover, stopped before the key after {@code keys} keys (-1: never). */
  Mover.Report move(int keys, List<String> progress) {
    AtomicInteger asked = new AtomicInteger();
    return Mover.run(
        store,
        Mover.Options.defaults()
            .withRate(0)
            .withFence(fence)
            .withPause(Duration.ofMillis(20))
            .withProgress(progress::add)
            .withStop(() -> keys >= 0 && asked.incrementAndGet() > keys));
  }

  /** Everything a client can see of the buckets, one line per listed thing, in listing order. */
  static List<String> seen(ErasureStore on) {
    List<String> lines = new ArrayList<>();
    for (String bucket : List.of("bkt", "plain")) {
      for (ObjectStore.ListedVersion v :
          on.listVersions(bucket, new ObjectStore.VersionListRequest("", null, null, null, 1000))
              .versions()) {
        VersionMeta m = v.meta();
        lines.add(
            bucket
                + "/"
                + m.key()
                + " "
                + m.versionId()
                + (v.latest() ? " latest" : "")
                + (m.deleteMarker() ? " marker" : " etag=" + m.etag() + " size=" + m.sizeBytes())
                + " at="
                + m.lastModifiedMillis()
                + " checksums="
                + m.checksums()
                + " type="
                + m.contentType()
                + " meta="
                + m.userMetadata()
                + " tags="
                + ObjectStore.ObjectTagging.of(m, on.objectTaggings(bucket, m.key()))
                + " parts="
                + partTable(m)
                + (m.deleteMarker() ? "" : " bytes=" + java.util.Arrays.hashCode(read(on, m))));
      }
      for (VersionMeta m :
          on.list(bucket, new ObjectStore.ListRequest("", null, null, 1000)).objects()) {
        lines.add("list " + bucket + "/" + m.key() + " " + m.versionId());
      }
    }
    return lines;
  }

  private static String partTable(VersionMeta m) {
    if (!m.multipart()) {
      return "-";
    }
    List<String> parts = new ArrayList<>();
    for (PartMeta p : m.parts()) {
      parts.add(p.partNumber() + ":" + p.sizeBytes() + ":" + p.etag() + ":" + p.checksums());
    }
    return parts.toString();
  }

  static byte[] read(ErasureStore on, VersionMeta m) {
    try (ObjectStore.ObjectReader r = on.read(m, 0, -1)) {
      return r.body().readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The geometry of every version listed. */
  static List<String> geometries(ErasureStore on) {
    List<String> geometries = new ArrayList<>();
    for (String bucket : List.of("bkt", "plain")) {
      for (ObjectStore.ListedVersion v :
          on.listVersions(bucket, new ObjectStore.VersionListRequest("", null, null, null, 1000))
              .versions()) {
        geometries.add(v.meta().geometry());
      }
    }
    return geometries;
  }

  /** Names under {@code prefix} on any repository, each with the repositories holding it. */
  Map<String, Integer> stored(String prefix) {
    Map<String, Integer> names = new LinkedHashMap<>();
    for (MemoryRepository memory : array.memories()) {
      for (ObjectInfo info : RepositoryArray.listAll(memory, prefix)) {
        names.merge(info.key(), 1, Integer::sum);
      }
    }
    return names;
  }

  /** A store opened 3x3 over the same repositories (the new configuration file). */
  ErasureStore reopen3x3() {
    StoreConfig c = store.config();
    return array.reopen(
        StoreConfig.builder(Geometry.of(3, 3))
            .blockBytes(BLOCK)
            .minPartBytes(BLOCK)
            .inlineBytes(512)
            .slowShardTimeout(Duration.ofSeconds(5))
            .gcGrace(c.gcGrace())
            .settleTime(c.settleTime())
            .clock(clock)
            .keys(c.keys())
            .build());
  }

  /** Deletes the shards of {@code part} on {@code count} of its slots. */
  void loseShards(PartMeta part, int count) {
    for (int i = 0; i < count; i++) {
      array.memories().get(part.slots().get(i)).delete(Layout.shard(part.dataId(), i));
    }
  }

  @Override
  public void close() {
    array.close();
    if (array.store() != store) {
      store.close(); // the store the array was written with, before a reopen
    }
  }

  /** The system clock moved on by what a test asks, so that settle times can pass. */
  static final class OffsetClock extends Clock {
    private final AtomicLong offsetMillis = new AtomicLong();

    void advance(Duration by) {
      offsetMillis.addAndGet(by.toMillis());
    }

    @Override
    public ZoneOffset getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return Instant.ofEpochMilli(millis());
    }

    @Override
    public long millis() {
      return System.currentTimeMillis() + offsetMillis.get();
    }
  }
}
