package io.racs.proxy.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.array.RepositoryArray;
import io.racs.proxy.store.format.Layout;
import io.racs.proxy.store.format.PartMeta;
import io.racs.proxy.store.format.VersionId;
import io.racs.proxy.store.format.VersionMeta;
import io.racs.proxy.store.heal.HealOptions;
import io.racs.proxy.store.heal.HealReport;
import io.racs.proxy.store.heal.Healer;
import io.racs.proxy.testing.TestArray;
import java.io.IOException;
import java.util.Optional;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Proves that a bucket with versioning turned on keeps every version: the collector after each
 * commit and heal leave superseded versions and delete markers in place (heal repairs them as it
 * repairs current ones), a delete always writes a marker, the bucket is not empty while any version
 * is left, and the state is a bucket record that survives a restart. An unversioned bucket next to
 * it still collects as before.
 */
class BucketVersioningTest {
  private static final int BLOCK = 4 * 1024;
  private final StoreFixture f = new StoreFixture("4x2", BLOCK);

  @AfterEach
  void close() {
    f.close();
  }

  @Test
  void versioned_whenNeverTurnedOn_falseAndOnceTurnedOnTrueAfterRestart() {
    f.store.createBucket("bkt");
    assertThat(f.store.versioned("bkt")).isFalse();
    f.store.enableVersioning("bkt");
    f.store.enableVersioning("bkt"); // again: no change
    assertThat(f.store.versioned("bkt")).isTrue();
    ErasureStore reopened = f.reopen(); // a second proxy, or this one restarted
    assertThat(reopened.versioned("bkt")).isTrue();
    assertThat(reopened.listBuckets()).extracting(ObjectStore.BucketInfo::name).contains("bkt");
  }

  @Test
  void enableVersioning_whenBucketMissing_noSuchBucket() {
    assertThatThrownBy(() -> f.store.enableVersioning("missing"))
        .isInstanceOfSatisfying(
            StoreException.class,
            e -> assertThat(e.code()).isEqualTo(StoreException.Code.NO_SUCH_BUCKET));
    assertThatThrownBy(() -> f.store.versioned("missing"))
        .isInstanceOfSatisfying(
            StoreException.class,
            e -> assertThat(e.code()).isEqualTo(StoreException.Code.NO_SUCH_BUCKET));
  }

  @Test
  void put_whenVersioned_keepsEverySupersededVersionAndUnversionedBucketCollects() {
    f.store.createBucket("bkt");
    f.store.createBucket("plain");
    f.store.enableVersioning("bkt");
    for (int i = 0; i < 3; i++) {
      f.put("bkt", "k", StoreFixture.bytes(i, 5 * BLOCK + i));
      f.put("plain", "k", StoreFixture.bytes(i, 5 * BLOCK + i));
    }
    for (int slot = 0; slot < 6; slot++) {
      assertThat(f.names(slot, Layout.indexPrefix("bkt"))).as("slot %d", slot).hasSize(3);
      assertThat(f.names(slot, Layout.indexPrefix("plain"))).as("slot %d", slot).hasSize(1);
      assertThat(f.names(slot, "v/")).as("slot %d", slot).hasSize(4);
    }
    assertThat(f.get("bkt", "k")).isEqualTo(StoreFixture.bytes(2, 5 * BLOCK + 2));
  }

  @Test
  void delete_whenVersioned_writesMarkerEvenForMissingKeyAndKeepsTheVersions() {
    f.store.createBucket("bkt");
    f.store.createBucket("plain");
    assertThat(f.store.delete("plain", "never")).isEmpty();
    f.store.enableVersioning("bkt");
    VersionMeta kept = f.put("bkt", "k", StoreFixture.bytes(1, 5 * BLOCK));
    Optional<VersionMeta> marker = f.store.delete("bkt", "k");
    assertThat(marker).hasValueSatisfying(m -> assertThat(m.deleteMarker()).isTrue());
    assertThat(VersionId.newer(marker.get().versionId(), kept.versionId())).isTrue();
    assertThat(f.store.delete("bkt", "never"))
        .hasValueSatisfying(m -> assertThat(m.deleteMarker()).isTrue());
    f.store.awaitCollections();
    for (int slot = 0; slot < 6; slot++) {
      assertThat(f.names(slot, Layout.indexPrefix("bkt"))).as("slot %d", slot).hasSize(3);
    }
    assertThatThrownBy(() -> f.store.head("bkt", "k"))
        .isInstanceOfSatisfying(
            StoreException.class,
            e -> assertThat(e.code()).isEqualTo(StoreException.Code.NO_SUCH_KEY));
  }

  @Test
  void deleteBucket_whenVersionedAndOnlyOldVersionsAndMarkersLeft_bucketNotEmpty() {
    f.store.createBucket("bkt");
    f.store.enableVersioning("bkt");
    f.put("bkt", "k", StoreFixture.bytes(1, 100));
    f.store.delete("bkt", "k");
    assertThat(f.store.list("bkt", new ObjectStore.ListRequest("", null, "", 10)).objects())
        .isEmpty();
    assertThatThrownBy(() -> f.store.deleteBucket("bkt"))
        .isInstanceOfSatisfying(
            StoreException.class,
            e -> assertThat(e.code()).isEqualTo(StoreException.Code.BUCKET_NOT_EMPTY));
    assertThat(f.store.bucketExists("bkt")).isTrue();
  }

  @Test
  void heal_whenVersioned_keepsOldVersionsAndRebuildsTheirShards() throws IOException {
    f.store.createBucket("bkt");
    f.store.enableVersioning("bkt");
    VersionMeta old = f.put("bkt", "k", StoreFixture.bytes(1, 5 * BLOCK + 3));
    f.put("bkt", "k", StoreFixture.bytes(2, 5 * BLOCK + 3));
    f.store.delete("bkt", "k");
    PartMeta part = old.parts().getFirst();
    String shard = Layout.shard(part.dataId(), 2);
    int slot = part.slots().get(2);
    byte[] original;
    try (var in = f.memories.get(slot).get(shard)) {
      original = in.readAllBytes();
    }
    f.memories.get(slot).delete(shard);

    HealReport report = Healer.heal(f.store, HealOptions.defaults());
    assertThat(report.unrecoverable()).isEmpty();
    assertThat(report.shardsRebuilt()).isEqualTo(1);
    try (var in = f.memories.get(slot).get(shard)) {
      assertThat(in.readAllBytes()).isEqualTo(original);
    }
    for (int s = 0; s < 6; s++) {
      assertThat(f.names(s, Layout.indexPrefix("bkt"))).as("slot %d", s).hasSize(3);
    }
    assertThat(f.names(0, "v/")).hasSize(2);
  }

  /** A fixture whose superseded versions wait the shipped settle time, and no GC grace. */
  private static StoreFixture settling() {
    return new StoreFixture(
        TestArray.builder("4x2")
            .blockBytes(BLOCK)
            .minPartBytes(BLOCK)
            .slowShardTimeout(java.time.Duration.ofSeconds(5))
            .gcGrace(java.time.Duration.ZERO)
            .settleTime(java.time.Duration.ofMinutes(1)));
  }

  @Test
  void heal_whenNewestVersionNotSettled_rebuildsTheKeptOldVersionAndDeletesNoDataOfIt()
      throws IOException {
    try (StoreFixture s = settling()) {
      s.store.createBucket("bkt");
      s.store.enableVersioning("bkt");
      byte[] one = StoreFixture.bytes(1, 5 * BLOCK + 3);
      VersionMeta old = s.put("bkt", "k", one);
      s.put("bkt", "k", StoreFixture.bytes(2, 5 * BLOCK + 3)); // settles in a minute
      PartMeta part = old.parts().getFirst();
      s.memories.get(part.slots().get(1)).delete(Layout.shard(part.dataId(), 1));

      HealReport report = Healer.heal(s.store, HealOptions.defaults());

      assertThat(report.shardsRebuilt()).isEqualTo(1);
      try (ObjectStore.ObjectReader reader = s.store.read(old, 0, -1)) {
        assertThat(reader.body().readAllBytes()).isEqualTo(one);
      }
      for (int slot = 0; slot < 6; slot++) {
        assertThat(s.names(slot, "v/")).as("slot %d", slot).hasSize(2);
      }
    }
  }

  @Test
  void heal_whenUnversionedNewestNotSettled_leavesTheSupersededVersionsData() throws IOException {
    try (StoreFixture s = settling()) {
      s.store.createBucket("plain");
      byte[] one = StoreFixture.bytes(1, 5 * BLOCK + 3);
      VersionMeta old = s.put("plain", "k", one);
      s.put("plain", "k", StoreFixture.bytes(2, 5 * BLOCK + 3)); // collects it in a minute

      Healer.heal(s.store, HealOptions.defaults());

      // A reader that resolved the old version before the overwrite may still read it.
      try (ObjectStore.ObjectReader reader = s.store.read(old, 0, -1)) {
        assertThat(reader.body().readAllBytes()).isEqualTo(one);
      }
    }
  }

  @Test
  void heal_whenUnversioned_stillCollectsSupersededEntries() {
    f.store.createBucket("plain");
    VersionMeta first = f.put("plain", "k", StoreFixture.bytes(1, 5 * BLOCK));
    VersionMeta newest = f.put("plain", "k", StoreFixture.bytes(2, 5 * BLOCK));
    // The entry of the superseded version, as a collection that crashed would have left it.
    String stale = f.store.context().indexEntry("plain", "k", first.versionId());
    for (int slot = 0; slot < 6; slot++) {
      assertThat(f.names(slot, Layout.indexPrefix("plain"))).hasSize(1);
      RepositoryArray.putBytes(f.memories.get(slot), stale, Layout.encode(first));
    }
    HealReport report = Healer.heal(f.store, HealOptions.defaults());
    assertThat(report.unrecoverable()).isEmpty();
    for (int slot = 0; slot < 6; slot++) {
      assertThat(f.names(slot, Layout.indexPrefix("plain")))
          .as("slot %d", slot)
          .singleElement()
          .asString()
          .endsWith(newest.versionId());
    }
  }

  private byte[] read(VersionMeta meta) throws IOException {
    try (ObjectStore.ObjectReader reader = f.store.read(meta, 0, -1)) {
      return reader.body().readAllBytes();
    }
  }

  private static void assertCode(ThrowingCallable call, StoreException.Code code) {
    assertThatThrownBy(call)
        .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.code()).isEqualTo(code));
  }

  @Test
  void version_whenVersioned_findsEachExactVersionAndMarker() throws IOException {
    f.store.createBucket("bkt");
    f.store.enableVersioning("bkt");
    byte[] one = StoreFixture.bytes(1, 5 * BLOCK + 1);
    byte[] two = StoreFixture.bytes(2, 100); // inline
    VersionMeta first = f.put("bkt", "k", one);
    VersionMeta second = f.put("bkt", "k", two);
    VersionMeta marker = f.store.delete("bkt", "k").orElseThrow();
    assertThat(read(f.store.version("bkt", "k", first.versionId()))).isEqualTo(one);
    assertThat(read(f.store.version("bkt", "k", second.versionId()))).isEqualTo(two);
    assertThat(f.store.version("bkt", "k", marker.versionId()).deleteMarker()).isTrue();
    assertCode(
        () -> f.store.version("bkt", "other", first.versionId()),
        StoreException.Code.NO_SUCH_VERSION);
    assertCode(
        () -> f.store.version("bkt", "k", new VersionId(java.time.Clock.systemUTC()).next()),
        StoreException.Code.NO_SUCH_VERSION);
    assertCode(() -> f.store.version("bkt", "k", "not-an-id"), StoreException.Code.NO_SUCH_VERSION);
    assertCode(
        () -> f.store.version("missing", "k", first.versionId()),
        StoreException.Code.NO_SUCH_BUCKET);
  }

  @Test
  void version_whenItsEntryIsOnFewerThanAWriteQuorum_noSuchVersion() {
    f.store.createBucket("bkt");
    f.store.enableVersioning("bkt");
    VersionMeta kept = f.put("bkt", "k", StoreFixture.bytes(1, 100));
    VersionMeta failed = f.put("bkt", "k", StoreFixture.bytes(2, 100));
    // What a write refused for want of a quorum leaves behind where its removal did not reach.
    String entry = f.store.context().indexEntry("bkt", "k", failed.versionId());
    int removeFrom = 6 - f.config.writeQuorum() + 1;
    for (int slot = 0; slot < removeFrom; slot++) {
      f.memories.get(slot).delete(entry);
    }
    assertCode(
        () -> f.store.version("bkt", "k", failed.versionId()), StoreException.Code.NO_SUCH_VERSION);
    assertThat(f.store.version("bkt", "k", kept.versionId()).versionId())
        .isEqualTo(kept.versionId());
  }

  @Test
  void version_whenFewerThanAReadQuorumAnswer_insufficientShardsFoundOrNot() {
    f.store.createBucket("bkt");
    f.store.enableVersioning("bkt");
    VersionMeta kept = f.put("bkt", "k", StoreFixture.bytes(1, 100));
    for (int slot = 0; slot < 4; slot++) {
      f.faulty.get(slot).outage(true);
    }
    assertCode(
        () -> f.store.version("bkt", "k", kept.versionId()),
        StoreException.Code.INSUFFICIENT_SHARDS);
    assertCode(
        () -> f.store.version("bkt", "k", new VersionId(java.time.Clock.systemUTC()).next()),
        StoreException.Code.INSUFFICIENT_SHARDS);
  }

  @Test
  void copy_ofAnExactVersion_copiesThoseBytesAndMetadataNotTheCurrentOnes() {
    f.store.createBucket("bkt");
    f.store.enableVersioning("bkt");
    byte[] one = StoreFixture.bytes(1, 5 * BLOCK + 7);
    VersionMeta first =
        f.store.put(
            "bkt",
            "k",
            StoreFixture.stream(one),
            one.length,
            new ObjectStore.PutOptions("text/first", java.util.Map.of("m", "1"), null, null));
    VersionMeta empty =
        f.store.put(
            "bkt", "e", StoreFixture.stream(new byte[0]), 0, ObjectStore.PutOptions.defaults());
    f.put("bkt", "k", StoreFixture.bytes(2, 10));
    VersionMeta copied = f.store.copy(first, "bkt", "copy", null, ObjectStore.WriteCondition.NONE);
    assertThat(f.get("bkt", "copy")).isEqualTo(one);
    assertThat(copied.contentType()).isEqualTo("text/first");
    assertThat(copied.userMetadata()).containsEntry("m", "1");
    f.store.copy(empty, "bkt", "copy-empty", null, ObjectStore.WriteCondition.NONE);
    assertThat(f.get("bkt", "copy-empty")).isEmpty();
  }
}
