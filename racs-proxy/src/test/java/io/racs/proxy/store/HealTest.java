package io.racs.proxy.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.format.Layout;
import io.racs.proxy.store.format.PartMeta;
import io.racs.proxy.store.format.VersionId;
import io.racs.proxy.store.format.VersionMeta;
import io.racs.proxy.store.heal.HealCheckpoint;
import io.racs.proxy.store.heal.HealOptions;
import io.racs.proxy.store.heal.HealReport;
import io.racs.proxy.store.heal.Healer;
import io.racs.repos.Repository;
import io.racs.repos.RepositoryException.Kind;
import io.racs.repos.decorator.FaultyRepository;
import io.racs.repos.decorator.Operation;
import io.racs.repos.memory.MemoryRepository;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Proves heal on a 4x2 array: it rebuilds missing and rotted shards from k good ones, fills a
 * replaced (empty) repository so that m others can then fail with no loss, collects superseded
 * versions and abandoned writes, reports what it cannot recover, changes nothing in a dry run, and
 * resumes from its state file.
 */
class HealTest {
  private static final int BLOCK = 4 * 1024;
  private final StoreFixture f = new StoreFixture("4x2", BLOCK);

  @AfterEach
  void close() {
    f.close();
  }

  private byte[] shard(PartMeta part, int i) throws IOException {
    try (var in = f.memories.get(part.slots().get(i)).get(Layout.shard(part.dataId(), i))) {
      return in.readAllBytes();
    }
  }

  @Test
  void heal_whenShardMissing_rebuildsItExactly() throws IOException {
    f.store.createBucket("bkt");
    VersionMeta meta = f.put("bkt", "k", StoreFixture.bytes(1, 5 * BLOCK + 3));
    PartMeta part = meta.parts().getFirst();
    byte[] original = shard(part, 2);
    f.memories.get(part.slots().get(2)).delete(Layout.shard(part.dataId(), 2));

    HealReport dry = Healer.heal(f.store, HealOptions.builder().dryRun(true).build());
    assertThat(dry.shardsRebuilt()).isEqualTo(1);
    assertThat(f.memories.get(part.slots().get(2)).head(Layout.shard(part.dataId(), 2))).isEmpty();

    HealReport report = Healer.heal(f.store, HealOptions.defaults());
    assertThat(report.shardsRebuilt()).isEqualTo(1);
    assertThat(report.objectsScanned()).isEqualTo(1);
    assertThat(report.unrecoverable()).isEmpty();
    assertThat(shard(part, 2)).isEqualTo(original);
    assertThat(Healer.heal(f.store, HealOptions.defaults()).shardsRebuilt()).isZero();
  }

  @Test
  void heal_whenRepositoryReplacedWithEmptyOne_restoresFullRedundancy() {
    f.store.createBucket("bkt");
    List<byte[]> bodies = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      bodies.add(StoreFixture.bytes(i, 3 * BLOCK + i));
      f.put("bkt", "k" + i, bodies.get(i));
    }
    String upload =
        f.store.createMultipartUpload("bkt", "pending", ObjectStore.PutOptions.defaults());
    // Slot 3's provider is replaced by an empty one (the "leave a provider" case).
    FaultyRepository fresh = new FaultyRepository(MemoryRepository.create("fresh"));
    List<Repository> repositories = new ArrayList<>(f.faulty);
    repositories.set(3, fresh);
    ErasureStore store = ErasureStore.open(f.config, repositories);
    HealReport report = Healer.heal(store, HealOptions.defaults());
    assertThat(report.shardsRebuilt()).isEqualTo(5);
    assertThat(report.recordsRepaired())
        .isGreaterThanOrEqualTo(5 + 1 + 1); // entries, bucket, upload
    // Now any two others may fail.
    ((FaultyRepository) repositories.get(0)).outage(true);
    ((FaultyRepository) repositories.get(5)).outage(true);
    for (int i = 0; i < 5; i++) {
      try (ObjectStore.ObjectReader reader = store.get("bkt", "k" + i, 0, -1, 0)) {
        assertThat(reader.body().readAllBytes()).isEqualTo(bodies.get(i));
      } catch (IOException e) {
        throw new AssertionError(e);
      }
    }
    assertThat(store.listParts("bkt", "pending", upload)).isEmpty();
  }

  @Test
  void heal_deep_whenPieceRotted_rebuildsTheShard() throws IOException {
    f.store.createBucket("bkt");
    byte[] data = StoreFixture.bytes(7, 4 * BLOCK);
    VersionMeta meta = f.put("bkt", "k", data);
    PartMeta part = meta.parts().getFirst();
    byte[] original = shard(part, 1);
    DegradedReadTest.corruptPiece(f, part, f.config.geometry(), 1, 2, new Random(1));
    assertThat(Healer.heal(f.store, HealOptions.defaults()).shardsRebuilt())
        .as("a shallow heal sees only sizes")
        .isZero();
    HealReport deep = Healer.heal(f.store, HealOptions.builder().deep(true).build());
    assertThat(deep.shardsRebuilt()).isEqualTo(1);
    assertThat(shard(part, 1)).isEqualTo(original);
    assertThat(f.get("bkt", "k")).isEqualTo(data);
  }

  @Test
  void heal_collectsAbandonedWritesAndReportsUnrecoverable() {
    f.store.createBucket("bkt");
    f.put("bkt", "keep", StoreFixture.bytes(1, BLOCK));
    // A PUT that crashed before committing left shards and no index entry.
    String orphan = new VersionId(java.time.Clock.systemUTC()).next();
    for (int slot = 0; slot < 6; slot++) {
      f.memories
          .get(slot)
          .put(Layout.shard(orphan, slot), new ByteArrayInputStream(new byte[100]), 100);
    }
    // Two stripes, so its shards are shard objects (not inline).
    VersionMeta lost = f.put("bkt", "lost", StoreFixture.bytes(2, BLOCK + 1));
    PartMeta part = lost.parts().getFirst();
    for (int i = 0; i < 3; i++) {
      f.memories.get(part.slots().get(i)).delete(Layout.shard(part.dataId(), i));
    }
    HealReport report = Healer.heal(f.store, HealOptions.defaults());
    assertThat(report.leftoversCollected()).isEqualTo(6);
    for (int slot = 0; slot < 6; slot++) {
      assertThat(f.names(slot, "v/" + orphan)).isEmpty();
    }
    assertThat(report.unrecoverable()).singleElement().asString().startsWith("bkt/lost");
    assertThat(report.lines()).anyMatch(line -> line.contains("unrecoverable objects: 1"));
  }

  @Test
  void heal_withStateFile_resumesAfterTheLastKeyDone(@TempDir Path dir) throws IOException {
    f.store.createBucket("bkt");
    for (String key : List.of("a", "b", "c", "d")) {
      f.put("bkt", key, StoreFixture.bytes(key.hashCode(), 100));
    }
    Path state = dir.resolve("heal.state");
    Files.writeString(state, "bkt\t" + Layout.indexEntry("bkt", "b", "f".repeat(32)));
    List<String> progress = new ArrayList<>();
    HealReport report =
        Healer.heal(
            f.store, HealOptions.builder().stateFile(state).progress(progress::add).build());
    assertThat(report.objectsScanned()).isEqualTo(2); // c and d
    assertThat(progress).anyMatch(line -> line.contains("resuming"));
    assertThat(state).doesNotExist();
  }

  @Test
  void heal_resumedFromACheckpoint_collectsNoDataOfTheKeysBeforeIt() {
    // The keys before the checkpoint are not scanned, so their data is not known to be referenced:
    // a resumed heal must not collect it as a leftover (gcGrace is zero here).
    f.store.createBucket("bkt");
    Map<String, byte[]> data = new TreeMap<>();
    for (String key : List.of("a", "b", "c", "d")) {
      data.put(key, StoreFixture.bytes(key.hashCode(), 3 * BLOCK + 7));
      f.put("bkt", key, data.get(key));
    }
    AtomicReference<String> saved =
        new AtomicReference<>("bkt\t" + Layout.indexEntry("bkt", "b", "f".repeat(32)));
    HealReport report =
        Healer.heal(f.store, HealOptions.builder().checkpoint(checkpointIn(saved)).build());

    assertThat(report.objectsScanned()).isEqualTo(2); // c and d
    assertThat(report.leftoversCollected()).isZero();
    assertThat(saved.get()).isNull(); // done: the next heal is a whole one
    data.forEach((key, bytes) -> assertThat(f.get("bkt", key)).isEqualTo(bytes));
  }

  @Test
  void heal_whenToldToStop_stopsBeforeTheNextObjectAndKeepsItsCheckpoint() {
    f.store.createBucket("bkt");
    for (String key : List.of("a", "b", "c", "d")) {
      f.put("bkt", key, StoreFixture.bytes(key.hashCode(), 3 * BLOCK));
    }
    AtomicReference<String> saved = new AtomicReference<>();
    // Stops once two objects are done: the checkpoint then names b.
    HealReport first =
        Healer.heal(
            f.store,
            HealOptions.builder()
                .checkpoint(checkpointIn(saved))
                .stop(
                    () ->
                        saved.get() != null
                            && saved.get().contains(Layout.indexKeyPrefix("bkt", "b")))
                .build());
    assertThat(first.stopped()).isTrue();
    assertThat(first.complete()).isFalse();
    assertThat(first.objectsScanned()).isEqualTo(2);
    assertThat(saved.get()).startsWith("bkt\t").contains(Layout.indexKeyPrefix("bkt", "b"));

    HealReport second =
        Healer.heal(f.store, HealOptions.builder().checkpoint(checkpointIn(saved)).build());
    assertThat(second.stopped()).isFalse();
    assertThat(second.objectsScanned()).isEqualTo(2); // c and d
    assertThat(saved.get()).isNull();
  }

  /** A checkpoint kept in {@code cell} (null: none). */
  private static HealCheckpoint checkpointIn(AtomicReference<String> cell) {
    return new HealCheckpoint() {
      @Override
      public Optional<String> read() {
        return Optional.ofNullable(cell.get());
      }

      @Override
      public void write(String state) {
        cell.set(state);
      }

      @Override
      public void clear() {
        cell.set(null);
      }
    };
  }

  @Test
  void heal_whenOneRepositoryFailsEveryObjectCall_repairsTheRestAndSaysWhatItCouldNotDo()
      throws IOException {
    f.store.createBucket("bkt");
    List<VersionMeta> versions = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      versions.add(f.put("bkt", "k" + i, StoreFixture.bytes(i, 3 * BLOCK + i)));
    }
    // Slot 4 lost every index entry, and one shard went missing elsewhere.
    for (String name : f.names(4, Layout.indexPrefix("bkt"))) {
      f.memories.get(4).delete(name);
    }
    PartMeta part = versions.get(2).parts().getFirst();
    int victim = part.slots().indexOf(5);
    byte[] original = shard(part, victim);
    f.memories.get(5).delete(Layout.shard(part.dataId(), victim));
    // Slot 0 answers listings and probes but fails every object call, as a server answering 500.
    f.faulty.get(0).failKeys(Pattern.compile(".*", Pattern.DOTALL), Kind.UNAVAILABLE);

    HealReport report = Healer.heal(f.store, HealOptions.defaults());

    assertThat(f.names(4, Layout.indexPrefix("bkt"))).hasSize(6);
    assertThat(shard(part, victim)).isEqualTo(original);
    assertThat(report.unreachableSlots())
        .singleElement()
        .asString()
        .startsWith("0 (mem0): ")
        .contains("UNAVAILABLE");
    assertThat(report.complete()).isFalse();
    assertThat(report.lines()).contains("  unreachable repositories: 1");
    assertThat(report.lines()).anySatisfy(l -> assertThat(l).startsWith("    0 (mem0): "));
  }

  @Test
  void heal_whenTheNewestEntryCountsOnlyForARepositoryThatDidNotList_collectsNoVersionUnderIt() {
    f.store.createBucket("bkt");
    byte[] first = StoreFixture.bytes(1, 100);
    f.put("bkt", "k", first);
    // A PUT whose commit reached three repositories, fewer than the write quorum (four), and whose
    // rollback could not delete its entry there (as a proxy that crashed mid-commit leaves it).
    for (int slot = 3; slot < 6; slot++) {
      f.faulty.get(slot).failKeys(Pattern.compile("i/.*", Pattern.DOTALL), Kind.UNAVAILABLE);
    }
    for (int slot = 0; slot < 3; slot++) {
      f.faulty.get(slot).failOperation(Operation.DELETE, Kind.UNAVAILABLE);
    }
    assertThatThrownBy(() -> f.put("bkt", "k", StoreFixture.bytes(2, 100)))
        .isInstanceOf(StoreException.class);
    f.faulty.forEach(FaultyRepository::clearFaults);
    assertThat(f.get("bkt", "k")).as("the leftover is no version").isEqualTo(first);

    // Heal while slot 5 cannot list: the leftover might be there too, so to heal's listing it
    // might be a version; only a listing of every repository could tell. The version under it is
    // the current one all the same, and must not be collected as superseded.
    f.faulty.get(5).failOperation(Operation.LIST, Kind.UNAVAILABLE);
    HealReport report = Healer.heal(f.store, HealOptions.defaults());
    f.faulty.get(5).clearFaults();

    assertThat(f.get("bkt", "k")).isEqualTo(first);
    assertThat(report.unreachableSlots())
        .as("a heal whose listing missed a repository says so")
        .singleElement()
        .asString()
        .startsWith("5 (mem5): listing failed: ");
  }
}
