package io.racs.proxy.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.codec.Geometry;
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
import io.racs.proxy.store.stripe.PieceCodec;
import io.racs.proxy.store.stripe.ShardRebuilder;
import io.racs.proxy.testing.TestArray;
import io.racs.repos.Repository;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Proves small objects stored inline (each shard inside the version's record on its repository):
 * one record and no shard object per repository, byte-exact reads under every pattern of up to m
 * repositories down or rotted, a clean typed failure beyond, heal rebuilding records from k others
 * (never copying one repository's shard to another), and a commit that crashed on fewer than k
 * repositories hiding nothing and being collected.
 */
class InlineObjectTest {
  private static final int BLOCK = 64 * 1024;
  private static final int INLINE = 16 * 1024;

  private static StoreFixture fixture(String geometry) {
    return new StoreFixture(
        TestArray.builder(geometry)
            .blockBytes(BLOCK)
            .minPartBytes(BLOCK)
            .inlineBytes(INLINE)
            .slowShardTimeout(Duration.ofSeconds(5))
            .settled() // collect at once, so that tests can count what is left
        );
  }

  private static String md5(byte[] data) throws NoSuchAlgorithmException {
    return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(data));
  }

  private static String recordName(StoreFixture f, VersionMeta meta) {
    return f.store.inlineRecord(meta);
  }

  @Test
  void put_small_storesOneRecordAndNoShardObjectPerRepository() throws Exception {
    try (StoreFixture f = fixture("4x2")) {
      f.store.createBucket("bkt");
      byte[] data = StoreFixture.bytes(1, 4096);
      VersionMeta meta = f.put("bkt", "small", data);

      assertThat(meta.parts()).singleElement().satisfies(p -> assertThat(p.inline()).isTrue());
      assertThat(meta.etag()).isEqualTo(md5(data));
      for (int slot = 0; slot < 6; slot++) {
        assertThat(f.names(slot, "v/")).as("slot %d shard objects", slot).isEmpty();
        assertThat(f.names(slot, "i/")).as("slot %d records", slot).hasSize(1);
      }
      assertThat(f.get("bkt", "small")).isEqualTo(data);
      assertThat(f.get("bkt", "small", 1000, 2000)).isEqualTo(slice(data, 1000, 2000));
      assertThat(f.store.head("bkt", "small").sizeBytes()).isEqualTo(4096);
      assertThat(f.store.list("bkt", new ObjectStore.ListRequest("", null, null, 1000)).objects())
          .extracting(VersionMeta::key)
          .containsExactly("small");
    }
  }

  @Test
  void put_atTheLimitInlines_andOneByteMoreStoresShards() {
    try (StoreFixture f = fixture("4x2")) {
      f.store.createBucket("bkt");
      byte[] limit = StoreFixture.bytes(2, INLINE);
      byte[] over = StoreFixture.bytes(3, INLINE + 1);
      assertThat(f.put("bkt", "limit", limit).parts().getFirst().inline()).isTrue();
      assertThat(f.put("bkt", "over", over).parts().getFirst().inline()).isFalse();
      assertThat(f.names(0, "v/")).hasSize(1);
      assertThat(f.get("bkt", "limit")).isEqualTo(limit);
      assertThat(f.get("bkt", "over")).isEqualTo(over);
    }
  }

  @Test
  void put_unknownLength_inlinesWhatFitsAndStreamsTheRest() {
    try (StoreFixture f = fixture("4x2")) {
      f.store.createBucket("bkt");
      byte[] small = StoreFixture.bytes(4, 3000);
      byte[] large = StoreFixture.bytes(5, 3 * BLOCK + 11);
      VersionMeta a = putUnknownLength(f, "small", small);
      VersionMeta b = putUnknownLength(f, "large", large);
      assertThat(a.parts().getFirst().inline()).isTrue();
      assertThat(b.parts().getFirst().inline()).isFalse();
      assertThat(b.sizeBytes()).isEqualTo(large.length);
      assertThat(f.get("bkt", "small")).isEqualTo(small);
      assertThat(f.get("bkt", "large")).isEqualTo(large);
    }
  }

  private static VersionMeta putUnknownLength(StoreFixture f, String key, byte[] data) {
    // Hands out at most 1000 bytes a call, as a chunked request body would.
    InputStream trickle =
        new ByteArrayInputStream(data) {
          @Override
          public synchronized int read(byte[] b, int off, int len) {
            return super.read(b, off, Math.min(len, 1000));
          }
        };
    VersionMeta meta = f.store.put("bkt", key, trickle, -1, ObjectStore.PutOptions.defaults());
    f.store.awaitCollections();
    return meta;
  }

  @Test
  void put_bodyShorterOrLongerThanDeclared_failsAndStoresNothing() {
    try (StoreFixture f = fixture("4x2")) {
      f.store.createBucket("bkt");
      byte[] data = StoreFixture.bytes(6, 2000);
      for (long declared : new long[] {2001, 1999}) {
        assertThatThrownBy(
                () ->
                    f.store.put(
                        "bkt",
                        "k",
                        new ByteArrayInputStream(data),
                        declared,
                        ObjectStore.PutOptions.defaults()))
            .as("declared %d, sent 2000", declared)
            .isInstanceOfSatisfying(
                StoreException.class,
                e -> assertThat(e.code()).isEqualTo(StoreException.Code.INCOMPLETE_BODY));
      }
      for (int slot = 0; slot < 6; slot++) {
        assertThat(f.names(slot, "i/")).isEmpty();
      }
    }
  }

  @Test
  void emptyObject_isInlineAndReadsBack() {
    try (StoreFixture f = fixture("3x3")) {
      f.store.createBucket("bkt");
      VersionMeta meta = f.put("bkt", "empty", new byte[0]);
      assertThat(meta.parts().getFirst().inline()).isTrue();
      assertThat(f.get("bkt", "empty")).isEmpty();
      f.memories.get(0).delete(recordName(f, meta));
      HealReport report = Healer.heal(f.store, HealOptions.defaults());
      assertThat(report.shardsRebuilt()).isEqualTo(1);
      assertThat(f.names(0, "i/")).hasSize(1);
      assertThat(f.get("bkt", "empty")).isEmpty();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"4x2", "3x3"})
  void get_everyPatternOfMDownOrRotted_isExact_andMPlusOneFailsCleanly(String geometry) {
    try (StoreFixture f = fixture(geometry)) {
      Geometry g = Geometry.parse(geometry);
      int n = g.totalShards();
      int m = g.parityShards();
      f.store.createBucket("bkt");
      byte[] data = StoreFixture.bytes(geometry.hashCode(), 9000 + 7);
      f.put("bkt", "k", data);
      for (List<Integer> set : StoreFixture.subsetsUpTo(n, m)) {
        // Down and rotted alternate across the set, so mixed patterns are covered too.
        for (int i = 0; i < set.size(); i++) {
          if (i % 2 == 0) {
            f.faulty.get(set.get(i)).outage(true);
          } else {
            f.faulty.get(set.get(i)).corruptReads(true);
          }
        }
        assertThat(f.get("bkt", "k")).as("%s with slots %s bad", geometry, set).isEqualTo(data);
        set.forEach(slot -> f.faulty.get(slot).clearFaults());
      }
      List<Integer> tooMany = StoreFixture.subsetsUpTo(n, m + 1).getLast();
      tooMany.forEach(slot -> f.faulty.get(slot).outage(true));
      assertThatThrownBy(() -> f.get("bkt", "k"))
          .isInstanceOfSatisfying(
              StoreException.class,
              e -> {
                assertThat(e.code()).isEqualTo(StoreException.Code.INSUFFICIENT_SHARDS);
                assertThat(e.failures()).isNotEmpty();
              });
    }
  }

  @Test
  void heal_rebuildsMissingAndRottedRecords_thenMOthersCanFail() throws IOException {
    try (StoreFixture f = fixture("4x2")) {
      f.store.createBucket("bkt");
      byte[] data = StoreFixture.bytes(7, 5000);
      VersionMeta meta = f.put("bkt", "k", data);
      PartMeta part = meta.parts().getFirst();
      String name = recordName(f, meta);
      int missing = part.slots().get(1);
      // Shard 5 is not among the k sources a rebuild reads first (0, 2, 3, 4), so only the deep
      // scan can find it.
      int rotted = part.slots().get(5);
      byte[] before = read(f.memories.get(missing), name);
      f.memories.get(missing).delete(name);
      byte[] rottedBytes = read(f.memories.get(rotted), name);
      rottedBytes[Layout.inlineOffset(part.shardObjectBytes(4)) + 10] ^= 0x40;
      f.memories.get(rotted).put(name, new ByteArrayInputStream(rottedBytes), rottedBytes.length);

      HealReport shallow = Healer.heal(f.store, HealOptions.defaults());
      assertThat(shallow.shardsRebuilt()).as("a missing record is found without reading").isOne();
      assertThat(read(f.memories.get(missing), name))
          .as("rebuilt from k others: its own shard, not a copy of another's")
          .isEqualTo(before);
      HealReport deep = Healer.heal(f.store, HealOptions.builder().deep(true).build());
      assertThat(deep.shardsRebuilt()).as("rot needs the deep scan").isOne();
      assertThat(ShardRebuilder.inlineShard(read(f.memories.get(rotted), name), part, 4))
          .isPresent();
      assertThat(Healer.heal(f.store, HealOptions.builder().deep(true).build()).shardsRebuilt())
          .isZero();

      // Full redundancy again: any two others may now go.
      f.faulty.get(part.slots().get(0)).outage(true);
      f.faulty.get(part.slots().get(5)).outage(true);
      assertThat(f.get("bkt", "k")).isEqualTo(data);
    }
  }

  @Test
  void deepHeal_whenOneRecordCannotBeRead_rebuildsFromTheOthersAndReportsTheSlot() {
    try (StoreFixture f = fixture("4x2")) {
      f.store.createBucket("bkt");
      VersionMeta meta = f.put("bkt", "k", StoreFixture.bytes(13, 6000));
      PartMeta part = meta.parts().getFirst();
      String name = recordName(f, meta);
      int failing = part.slots().get(0);
      int rotted = part.slots().get(5);
      byte[] rottedBytes = read(f.memories.get(rotted), name);
      rottedBytes[Layout.inlineOffset(part.shardObjectBytes(4)) + 3] ^= 0x01;
      f.memories.get(rotted).put(name, new ByteArrayInputStream(rottedBytes), rottedBytes.length);
      // Slot 0 lists the record but fails to read it.
      f.faulty
          .get(failing)
          .failKeys(
              java.util.regex.Pattern.compile(java.util.regex.Pattern.quote(name)),
              io.racs.repos.RepositoryException.Kind.UNAVAILABLE);

      HealReport report = Healer.heal(f.store, HealOptions.builder().deep(true).build());

      assertThat(report.shardsRebuilt()).isOne();
      assertThat(report.unrecoverable()).isEmpty();
      assertThat(report.unreachableSlots()).singleElement().asString().startsWith(failing + " ");
      assertThat(ShardRebuilder.inlineShard(read(f.memories.get(rotted), name), part, 4))
          .isPresent();
    }
  }

  @Test
  void commitCrashedOnFewerThanK_hidesNothing_andHealCollectsIt() {
    try (StoreFixture f = fixture("4x2")) {
      f.store.createBucket("bkt");
      byte[] first = StoreFixture.bytes(8, 3000);
      VersionMeta committed = f.put("bkt", "k", first);
      // A newer version whose commit reached only 3 of 6 repositories before the proxy died.
      VersionMeta crashed = f.put("bkt", "other", StoreFixture.bytes(9, 3000));
      String crashedName = recordName(f, crashed);
      VersionMeta moved =
          VersionMeta.builder()
              .format(crashed.format())
              .arrayId(crashed.arrayId())
              .bucket("bkt")
              .key("k")
              .versionId(new VersionId(java.time.Clock.systemUTC()).next())
              .sizeBytes(crashed.sizeBytes())
              .etag(crashed.etag())
              .contentType(crashed.contentType())
              .userMetadata(crashed.userMetadata())
              .checksums(crashed.checksums())
              .lastModifiedMillis(crashed.lastModifiedMillis())
              .geometry(crashed.geometry())
              .parts(List.of(withSlots(crashed.parts().getFirst(), committed.parts().getFirst())))
              .build();
      String movedName = f.store.inlineRecord(moved);
      PartMeta part = moved.parts().getFirst();
      for (int i = 0; i < 3; i++) {
        byte[] shard =
            ShardRebuilder.inlineShard(
                    read(f.memories.get(crashed.parts().getFirst().slots().get(i)), crashedName),
                    crashed.parts().getFirst(),
                    4)
                .orElseThrow();
        byte[] withCrc = PieceCodec.framed(shard, shard.length, new java.util.zip.CRC32C());
        RepositoryArray.putBytes(
            f.memories.get(part.slots().get(i)), movedName, Layout.encodeInline(moved, withCrc));
      }
      f.reopen();

      assertThat(f.get("bkt", "k")).as("the committed version still wins").isEqualTo(first);
      assertThat(f.store.head("bkt", "k").versionId()).isEqualTo(committed.versionId());
      assertThat(f.store.list("bkt", new ObjectStore.ListRequest("", null, null, 1000)).objects())
          .extracting(VersionMeta::versionId)
          .contains(committed.versionId())
          .doesNotContain(moved.versionId());

      Healer.heal(f.store, HealOptions.defaults());
      for (int slot = 0; slot < 6; slot++) {
        assertThat(f.names(slot, "i/bkt/k")).as("slot %d", slot).hasSize(1);
      }
      assertThat(f.get("bkt", "k")).isEqualTo(first);
    }
  }

  private static PartMeta withSlots(PartMeta part, PartMeta slotsFrom) {
    return new PartMeta(
        part.partNumber(),
        part.dataId(),
        part.sizeBytes(),
        part.etag(),
        part.pieceBytes(),
        slotsFrom.slots(),
        part.checksums(),
        true);
  }

  @Test
  void overwrite_collectsTheOldRecords_andInlineOffStoresShards() {
    try (StoreFixture f = fixture("4x2")) {
      f.store.createBucket("bkt");
      f.put("bkt", "k", StoreFixture.bytes(10, 100));
      byte[] second = StoreFixture.bytes(11, 200);
      f.put("bkt", "k", second);
      for (int slot = 0; slot < 6; slot++) {
        assertThat(f.names(slot, "i/")).hasSize(1);
      }
      assertThat(f.get("bkt", "k")).isEqualTo(second);
    }
    try (StoreFixture f =
        new StoreFixture(
            TestArray.builder("4x2").blockBytes(BLOCK).inlineBytes(0).settleTime(Duration.ZERO))) {
      f.store.createBucket("bkt");
      assertThat(f.put("bkt", "k", StoreFixture.bytes(12, 100)).parts().getFirst().inline())
          .isFalse();
      assertThat(f.names(0, "v/")).hasSize(1);
    }
  }

  private static byte[] read(Repository repository, String name) {
    Optional<byte[]> bytes = RepositoryArray.getBytes(repository, name);
    return bytes.orElseThrow(() -> new UncheckedIOException(new IOException("no " + name)));
  }

  private static byte[] slice(byte[] data, int from, int length) {
    byte[] out = new byte[length];
    System.arraycopy(data, from, out, 0, length);
    return out;
  }
}
