package io.racs.proxy.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.codec.Geometry;
import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.api.StoreConfig;
import io.racs.proxy.store.array.Identity;
import io.racs.proxy.store.format.Layout;
import io.racs.proxy.store.format.PartMeta;
import io.racs.proxy.store.format.VersionMeta;
import io.racs.proxy.store.heal.HealOptions;
import io.racs.proxy.store.heal.HealReport;
import io.racs.proxy.store.heal.Healer;
import io.racs.proxy.testing.TestArray;
import io.racs.repos.memory.MemoryRepository;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Proves that each version is read, listed and healed in the geometry its own record names, never
 * in the one the store writes new versions in (docs/reshape.md): versions written 4x2 over six
 * repositories (striped, inline, multipart, the older versions of a versioned bucket, and an upload
 * begun 4x2) are read byte-exact, listed once each, completed and healed by a store opened 3x3 over
 * the same six repositories, beside the versions that store writes 3x3. The identity markers are
 * stamped 3x3 by hand before the 3x3 store opens, standing in for a reshape's commit: today a
 * marker of another geometry refuses the store (docs/reshape.md, "Identity").
 */
class RecordedGeometryTest {
  private static final int BLOCK = 4 * 1024;

  private TestArray array;
  private ErasureStore old;
  private ErasureStore store;
  private final byte[] striped = StoreFixture.bytes(1, 5 * BLOCK + 3);
  private final byte[] small = StoreFixture.bytes(2, 100);
  private final byte[] first = StoreFixture.bytes(3, 2 * BLOCK);
  private final byte[] second = StoreFixture.bytes(4, 3 * BLOCK + 7);
  private final byte[] part1 = StoreFixture.bytes(5, BLOCK + 1);
  private final byte[] part2 = StoreFixture.bytes(6, 300);
  private VersionMeta stripedMeta;
  private VersionMeta firstMeta;
  private String upload;

  @BeforeEach
  void writeUnder4x2ThenOpen3x3() {
    array =
        TestArray.builder("4x2")
            .blockBytes(BLOCK)
            .minPartBytes(BLOCK)
            .inlineBytes(512)
            .slowShardTimeout(Duration.ofSeconds(5))
            .settled()
            .open();
    old = array.store();
    old.createBucket("bkt");
    old.enableVersioning("bkt");
    stripedMeta = put(old, "striped", striped);
    put(old, "small", small);
    firstMeta = put(old, "kept", first);
    put(old, "kept", second);
    String done = old.createMultipartUpload("bkt", "mp", ObjectStore.PutOptions.defaults());
    List<ObjectStore.CompletedPart> parts = new ArrayList<>();
    parts.add(uploadPart(old, "mp", done, 1, part1));
    parts.add(uploadPart(old, "mp", done, 2, part2));
    old.completeMultipartUpload("bkt", "mp", done, parts, chosen -> Map.of());
    upload = old.createMultipartUpload("bkt", "open", ObjectStore.PutOptions.defaults());
    uploadPart(old, "open", upload, 1, part1);
    old.awaitCollections();

    stampMarkers(Geometry.of(3, 3));
    StoreConfig threeByThree =
        StoreConfig.builder(Geometry.of(3, 3))
            .blockBytes(BLOCK)
            .minPartBytes(BLOCK)
            .inlineBytes(512)
            .slowShardTimeout(Duration.ofSeconds(5))
            .gcGrace(Duration.ZERO)
            .settleTime(Duration.ZERO)
            .build();
    store = array.reopen(threeByThree);
  }

  @AfterEach
  void close() {
    store.close();
    old.close();
  }

  @Test
  void get_whenVersionsWritten4x2_readsThemByteExactIn3x3Store() {
    assertThat(get("striped", 0, -1)).isEqualTo(striped);
    assertThat(get("striped", BLOCK - 5, 2 * BLOCK))
        .isEqualTo(Arrays.copyOfRange(striped, BLOCK - 5, 3 * BLOCK - 5));
    assertThat(get("small", 0, -1)).isEqualTo(small);
    assertThat(get("kept", 0, -1)).isEqualTo(second);
    assertThat(read(store.version("bkt", "kept", firstMeta.versionId()))).isEqualTo(first);
    assertThat(get("mp", 0, -1)).isEqualTo(concat(part1, part2));
    assertThat(store.head("bkt", "striped").geometry()).isEqualTo("4x2");
  }

  @Test
  void put_whenStoreIs3x3_writes3x3BesideThe4x2VersionsAndListsEachOnce() {
    byte[] third = StoreFixture.bytes(7, 4 * BLOCK);
    VersionMeta newer = put(store, "striped", third);
    assertThat(newer.geometry()).isEqualTo("3x3");
    assertThat(get("striped", 0, -1)).isEqualTo(third);
    assertThat(read(store.version("bkt", "striped", stripedMeta.versionId()))).isEqualTo(striped);

    ObjectStore.ListResult listed =
        store.list("bkt", new ObjectStore.ListRequest("", null, null, 1000));
    assertThat(listed.objects())
        .extracting(VersionMeta::key)
        .containsExactly("kept", "mp", "small", "striped");
    ObjectStore.VersionListResult versions =
        store.listVersions("bkt", new ObjectStore.VersionListRequest("", null, null, null, 1000));
    assertThat(versions.versions())
        .extracting(v -> v.meta().key() + "@" + v.meta().geometry())
        .containsExactly(
            "kept@4x2", "kept@4x2", "mp@4x2", "small@4x2", "striped@3x3", "striped@4x2");
  }

  @Test
  void complete_whenUploadBegun4x2_completesIn4x2AndReadsByteExact() {
    ObjectStore.CompletedPart one = new ObjectStore.CompletedPart(1, etagOf(store, "open", 1));
    ObjectStore.CompletedPart two = uploadPart(store, "open", upload, 2, part2);
    VersionMeta meta =
        store.completeMultipartUpload("bkt", "open", upload, List.of(one, two), c -> Map.of());
    assertThat(meta.geometry()).as("the upload's layout, not the store's").isEqualTo("4x2");
    assertThat(meta.parts()).allSatisfy(p -> assertThat(p.slots()).hasSize(6));
    assertThat(get("open", 0, -1)).isEqualTo(concat(part1, part2));
  }

  @Test
  void heal_whenShardsOf4x2VersionsLost_rebuildsThemIn3x3Store() throws IOException {
    PartMeta part = stripedMeta.parts().getFirst();
    byte[] lost = shard(part, 4);
    memory(part.slots().get(4)).delete(Layout.shard(part.dataId(), 4));
    memory(part.slots().get(1)).delete(Layout.shard(part.dataId(), 1));
    VersionMeta inline = store.head("bkt", "small");
    int inlineSlot = inline.parts().getFirst().slots().get(0);
    // Its shard 0 lives inside slot inlineSlot's copy of its record.
    memory(inlineSlot).delete(store.context().indexEntry("bkt", "small", inline.versionId()));

    HealReport report = Healer.heal(store, HealOptions.defaults());

    assertThat(report.unrecoverable()).isEmpty();
    assertThat(report.shardsRebuilt()).isGreaterThanOrEqualTo(3);
    assertThat(shard(part, 4)).isEqualTo(lost);
    assertThat(get("striped", 0, -1)).isEqualTo(striped);
    assertThat(get("small", 0, -1)).isEqualTo(small);
    assertThat(Healer.heal(store, HealOptions.defaults()).shardsRebuilt()).isZero();
  }

  private void stampMarkers(Geometry geometry) {
    String arrayId = old.arrayId();
    for (int slot = 0; slot < array.memories().size(); slot++) {
      byte[] marker =
          Layout.encode(
              new Identity.Marker(
                  arrayId, slot, geometry.toString(), System.currentTimeMillis(), false));
      memory(slot).put(Layout.IDENTITY, new ByteArrayInputStream(marker), marker.length);
    }
  }

  private MemoryRepository memory(int slot) {
    return array.memories().get(slot);
  }

  private byte[] shard(PartMeta part, int i) throws IOException {
    try (var in = memory(part.slots().get(i)).get(Layout.shard(part.dataId(), i))) {
      return in.readAllBytes();
    }
  }

  private static VersionMeta put(ErasureStore on, String key, byte[] data) {
    VersionMeta meta =
        on.put(
            "bkt", key, StoreFixture.stream(data), data.length, ObjectStore.PutOptions.defaults());
    on.awaitCollections();
    return meta;
  }

  private static ObjectStore.CompletedPart uploadPart(
      ErasureStore on, String key, String uploadId, int number, byte[] data) {
    ObjectStore.PartInfo info =
        on.uploadPart(
            "bkt", key, uploadId, number, StoreFixture.stream(data), data.length, Map::of);
    return new ObjectStore.CompletedPart(number, info.etag());
  }

  private String etagOf(ErasureStore on, String key, int number) {
    return on.listParts("bkt", key, upload).stream()
        .filter(p -> p.partNumber() == number)
        .findFirst()
        .orElseThrow()
        .etag();
  }

  private byte[] get(String key, long offset, long length) {
    try (ObjectStore.ObjectReader reader = store.get("bkt", key, offset, length, 0)) {
      return reader.body().readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private byte[] read(VersionMeta version) {
    try (ObjectStore.ObjectReader reader = store.read(version, 0, -1)) {
      return reader.body().readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] all = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, all, a.length, b.length);
    return all;
  }
}
