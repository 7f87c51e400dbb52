package io.racs.proxy.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.array.RepositoryArray;
import io.racs.proxy.store.format.Layout;
import io.racs.proxy.store.format.VersionMeta;
import io.racs.proxy.store.heal.HealOptions;
import io.racs.proxy.store.heal.HealReport;
import io.racs.proxy.store.heal.Healer;
import io.racs.repos.RepositoryException;
import io.racs.repos.decorator.Operation;
import io.racs.testkit.TestSeed;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Proves that removing one version (a DELETE with its version id) is durable under the one
 * visibility rule: the removal is a record committed on a write quorum before it is acknowledged,
 * so a removed version never counts again, not when its entries are left on every repository (the
 * deletions after the removal failed) and the removal record itself is on no more than a write
 * quorum, whichever up to {@code n - readQuorum} repositories are unavailable; a removal that
 * cannot reach a write quorum is refused and changes nothing; heal deletes what the removal left
 * and finally the removal record. It also proves the listing of every version, newest first, paged
 * inside one key.
 */
@Timeout(120)
class VersionRemovalTest {
  private static final int BLOCK = 4 * 1024;
  private final StoreFixture f = new StoreFixture("4x2", BLOCK);

  @AfterEach
  void close() {
    f.close();
  }

  private void versionedBucket() {
    f.store.createBucket("bkt");
    f.store.enableVersioning("bkt");
  }

  private static void assertCode(Runnable call, StoreException.Code code) {
    assertThatThrownBy(call::run)
        .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.code()).isEqualTo(code));
  }

  private List<ObjectStore.ListedVersion> versions(String prefix) {
    return f.store
        .listVersions("bkt", new ObjectStore.VersionListRequest(prefix, null, "", null, 1000))
        .versions();
  }

  @Test
  void removeVersion_whenNewestMarkerRemoved_previousVersionIsCurrentAgain() {
    versionedBucket();
    byte[] one = StoreFixture.bytes(1, 5 * BLOCK + 1);
    VersionMeta first = f.put("bkt", "k", one);
    VersionMeta marker = f.store.delete("bkt", "k").orElseThrow();
    assertCode(() -> f.store.head("bkt", "k"), StoreException.Code.NO_SUCH_KEY);

    Optional<VersionMeta> removed = f.store.removeVersion("bkt", "k", marker.versionId());

    assertThat(removed).hasValueSatisfying(m -> assertThat(m.deleteMarker()).isTrue());
    assertThat(f.store.head("bkt", "k").versionId()).isEqualTo(first.versionId());
    assertThat(f.get("bkt", "k")).isEqualTo(one);
    assertCode(
        () -> f.store.version("bkt", "k", marker.versionId()), StoreException.Code.NO_SUCH_VERSION);
  }

  @Test
  void removeVersion_whenNewestVersionRemoved_olderOneCurrentAndItsDataAndEntriesGone() {
    versionedBucket();
    byte[] one = StoreFixture.bytes(1, 5 * BLOCK + 1);
    f.put("bkt", "k", one);
    VersionMeta second = f.put("bkt", "k", StoreFixture.bytes(2, 5 * BLOCK + 2));

    assertThat(f.store.removeVersion("bkt", "k", second.versionId())).isPresent();

    assertThat(f.get("bkt", "k")).isEqualTo(one);
    String entry = f.store.context().indexEntry("bkt", "k", second.versionId());
    String dataId = second.parts().getFirst().dataId();
    for (int slot = 0; slot < 6; slot++) {
      List<String> index = f.names(slot, Layout.indexPrefix("bkt"));
      assertThat(index).as("slot %d", slot).doesNotContain(entry);
      assertThat(index).as("slot %d", slot).contains(Layout.removalRecord(entry));
      assertThat(f.names(slot, "v/")).as("slot %d", slot).noneMatch(n -> n.contains(dataId));
    }
  }

  @Test
  void removeVersion_whenKeyIsLongEnoughToBeStoredUnderAShortenedName_removes() {
    versionedBucket();
    String key = "k".repeat(1000); // its entry names are as long as repositories take
    VersionMeta first = f.put("bkt", key, StoreFixture.bytes(1, 10));
    VersionMeta second = f.put("bkt", key, StoreFixture.bytes(2, 10));

    assertThat(f.store.removeVersion("bkt", key, second.versionId())).isPresent();

    assertThat(f.store.head("bkt", key).versionId()).isEqualTo(first.versionId());
  }

  @Test
  void removeVersion_whenNoSuchVersion_emptyAndNothingChanges() {
    versionedBucket();
    VersionMeta kept = f.put("bkt", "k", StoreFixture.bytes(1, 100));
    List<String> before = f.names(0, "");

    assertThat(f.store.removeVersion("bkt", "k", f.store.context().ids.next())).isEmpty();
    assertThat(f.store.removeVersion("bkt", "other", kept.versionId())).isEmpty();
    assertThat(f.store.removeVersion("bkt", "k", "not-an-id")).isEmpty();

    assertThat(f.names(0, "")).isEqualTo(before);
    assertCode(
        () -> f.store.removeVersion("missing", "k", kept.versionId()),
        StoreException.Code.NO_SUCH_BUCKET);
  }

  @Test
  void removedVersion_whenItsEntriesStayEverywhereAndRemovalOnOnlyAWriteQuorum_neverComesBack() {
    long seed = TestSeed.get();
    Random random = new Random(seed);
    versionedBucket();
    VersionMeta first = f.put("bkt", "k", StoreFixture.bytes(1, 5 * BLOCK));
    VersionMeta second = f.put("bkt", "k", StoreFixture.bytes(2, 300)); // inline
    String entry = f.store.context().indexEntry("bkt", "k", second.versionId());
    List<byte[]> entries = new ArrayList<>();
    for (int slot = 0; slot < 6; slot++) {
      entries.add(RepositoryArray.getBytes(f.memories.get(slot), entry).orElseThrow());
    }
    f.store.removeVersion("bkt", "k", second.versionId()).orElseThrow();
    f.store.awaitCollections();
    // Every deletion of the entry failed, and the removal record reached only a write quorum.
    List<Integer> slots = new ArrayList<>(List.of(0, 1, 2, 3, 4, 5));
    Collections.shuffle(slots, random);
    for (int slot = 0; slot < 6; slot++) {
      RepositoryArray.putBytes(f.memories.get(slot), entry, entries.get(slot));
    }
    for (int slot : slots.subList(0, 6 - f.config.writeQuorum())) {
      f.memories.get(slot).delete(Layout.removalRecord(entry));
    }
    ErasureStore fresh = f.reopen(); // a proxy that never saw the removal

    int readQuorum = 6 - f.config.writeQuorum() + 1;
    for (List<Integer> down : StoreFixture.subsetsUpTo(6, 6 - readQuorum)) {
      down.forEach(slot -> f.faulty.get(slot).outage(true));
      String as = "seed " + seed + ", removal lost on " + slots.subList(0, 2) + ", down " + down;
      assertThat(fresh.head("bkt", "k").versionId()).as(as).isEqualTo(first.versionId());
      assertCode(
          () -> fresh.version("bkt", "k", second.versionId()), StoreException.Code.NO_SUCH_VERSION);
      assertThat(
              fresh
                  .listVersions("bkt", new ObjectStore.VersionListRequest("", null, "", null, 10))
                  .versions())
          .as(as)
          .extracting(v -> v.meta().versionId())
          .containsExactly(first.versionId());
      assertThat(fresh.list("bkt", new ObjectStore.ListRequest("", null, "", 10)).objects())
          .as(as)
          .extracting(VersionMeta::versionId)
          .containsExactly(first.versionId());
      down.forEach(slot -> f.faulty.get(slot).outage(false));
    }
  }

  @Test
  void removeVersion_whenFewerThanAWriteQuorumTakeTheRemoval_failsAndTheVersionStays() {
    versionedBucket();
    VersionMeta first = f.put("bkt", "k", StoreFixture.bytes(1, 100));
    VersionMeta second = f.put("bkt", "k", StoreFixture.bytes(2, 100));
    String removal =
        Layout.removalRecord(f.store.context().indexEntry("bkt", "k", second.versionId()));
    for (int slot = 0; slot < 3; slot++) {
      f.faulty
          .get(slot)
          .failKeys(
              java.util.regex.Pattern.compile(java.util.regex.Pattern.quote(removal)),
              RepositoryException.Kind.UNAVAILABLE);
    }

    assertCode(
        () -> f.store.removeVersion("bkt", "k", second.versionId()),
        StoreException.Code.INSUFFICIENT_SHARDS);

    f.faulty.forEach(r -> r.clearFaults());
    assertThat(f.store.head("bkt", "k").versionId()).isEqualTo(second.versionId());
    assertThat(versions(""))
        .extracting(v -> v.meta().versionId())
        .containsExactly(second.versionId(), first.versionId());
  }

  @Test
  void heal_whenEntryDeletionsFailedAfterARemoval_deletesEntryAndDataThenTheRemovalRecord() {
    versionedBucket();
    VersionMeta first = f.put("bkt", "k", StoreFixture.bytes(1, 5 * BLOCK));
    VersionMeta second = f.put("bkt", "k", StoreFixture.bytes(2, 5 * BLOCK + 9));
    String entry = f.store.context().indexEntry("bkt", "k", second.versionId());
    String dataId = second.parts().getFirst().dataId();
    f.faulty.get(1).failOperation(Operation.DELETE, RepositoryException.Kind.UNAVAILABLE);
    f.faulty.get(4).failOperation(Operation.DELETE, RepositoryException.Kind.UNAVAILABLE);

    f.store.removeVersion("bkt", "k", second.versionId()).orElseThrow();
    f.store.awaitCollections();
    assertThat(f.names(1, Layout.indexPrefix("bkt"))).contains(entry);
    f.faulty.forEach(r -> r.clearFaults());

    HealReport report = Healer.heal(f.store, HealOptions.defaults());
    assertThat(report.unrecoverable()).isEmpty();
    for (int slot = 0; slot < 6; slot++) {
      assertThat(f.names(slot, Layout.indexPrefix("bkt")))
          .as("slot %d after the first heal", slot)
          .containsExactly(
              Layout.removalRecord(entry),
              f.store.context().indexEntry("bkt", "k", first.versionId()));
      assertThat(f.names(slot, "v/")).as("slot %d", slot).noneMatch(n -> n.contains(dataId));
    }
    // The next heal finds the entry on no repository: the removal record has done its work.
    Healer.heal(f.store, HealOptions.defaults());
    for (int slot = 0; slot < 6; slot++) {
      assertThat(f.names(slot, Layout.indexPrefix("bkt")))
          .as("slot %d after the second heal", slot)
          .containsExactly(f.store.context().indexEntry("bkt", "k", first.versionId()));
    }
    assertThat(f.store.head("bkt", "k").versionId()).isEqualTo(first.versionId());
  }

  @Test
  void heal_whenARemovalIsOnSomeRepositoriesOnly_spreadsItWhileTheEntryIsStillListed() {
    versionedBucket();
    f.put("bkt", "k", StoreFixture.bytes(1, 100));
    VersionMeta second = f.put("bkt", "k", StoreFixture.bytes(2, 100));
    String entry = f.store.context().indexEntry("bkt", "k", second.versionId());
    for (int slot = 0; slot < 6; slot++) {
      f.faulty.get(slot).failOperation(Operation.DELETE, RepositoryException.Kind.UNAVAILABLE);
    }
    f.store.removeVersion("bkt", "k", second.versionId()).orElseThrow();
    f.store.awaitCollections();
    f.memories.get(5).delete(Layout.removalRecord(entry));
    f.memories.get(2).delete(Layout.removalRecord(entry));
    f.faulty.get(2).clearFaults();
    f.faulty.get(5).clearFaults();
    // Slots 0, 1, 3, 4 still cannot delete: heal cannot remove the entry there, so the removal
    // record must be everywhere afterwards.
    Healer.heal(f.store, HealOptions.defaults());
    for (int slot : List.of(2, 5)) {
      assertThat(f.names(slot, Layout.indexPrefix("bkt")))
          .as("slot %d", slot)
          .contains(Layout.removalRecord(entry))
          .doesNotContain(entry);
    }
    assertCode(
        () -> f.store.version("bkt", "k", second.versionId()), StoreException.Code.NO_SUCH_VERSION);
  }

  @Test
  void listVersions_whenPagedByOne_everyVersionAndMarkerNewestFirstWithLatestOnTheCurrentOnes() {
    versionedBucket();
    VersionMeta a1 = f.put("bkt", "a", StoreFixture.bytes(1, 10));
    VersionMeta a2 = f.put("bkt", "a", StoreFixture.bytes(2, 10));
    VersionMeta a3 = f.store.delete("bkt", "a").orElseThrow();
    VersionMeta b1 = f.put("bkt", "b", StoreFixture.bytes(3, 5 * BLOCK));
    VersionMeta d1 = f.put("bkt", "dir/x", StoreFixture.bytes(4, 10));
    List<String> expected =
        List.of(a3.versionId(), a2.versionId(), a1.versionId(), b1.versionId(), d1.versionId());
    List<Boolean> expectedLatest = List.of(true, false, false, true, true);

    List<String> ids = new ArrayList<>();
    List<Boolean> latest = new ArrayList<>();
    String keyMarker = "";
    String idMarker = null;
    for (int page = 0; page < 10; page++) {
      ObjectStore.VersionListResult result =
          f.store.listVersions(
              "bkt", new ObjectStore.VersionListRequest("", null, keyMarker, idMarker, 1));
      result.versions().forEach(v -> ids.add(v.meta().versionId()));
      result.versions().forEach(v -> latest.add(v.latest()));
      if (!result.truncated()) {
        break;
      }
      keyMarker = result.nextKeyMarker().orElseThrow();
      idMarker = result.nextVersionIdMarker().orElseThrow();
    }
    assertThat(ids).isEqualTo(expected);
    assertThat(latest).isEqualTo(expectedLatest);

    ObjectStore.VersionListResult rolled =
        f.store.listVersions("bkt", new ObjectStore.VersionListRequest("", "/", "", null, 1000));
    assertThat(rolled.commonPrefixes()).containsExactly("dir/");
    assertThat(rolled.versions()).hasSize(4);
    assertThat(rolled.versions().get(0).meta().deleteMarker()).isTrue();
    assertThat(versions("dir/")).extracting(v -> v.meta().key()).containsExactly("dir/x");
  }

  @Test
  void listVersions_whenResumedInsideAKeyWhoseNewerVersionsWereRemoved_marksTheCurrentOneLatest() {
    versionedBucket();
    VersionMeta a1 = f.put("bkt", "a", StoreFixture.bytes(1, 10));
    VersionMeta a2 = f.put("bkt", "a", StoreFixture.bytes(2, 10));
    VersionMeta a3 = f.put("bkt", "a", StoreFixture.bytes(3, 10));
    ObjectStore.VersionListResult first =
        f.store.listVersions("bkt", new ObjectStore.VersionListRequest("", null, "", null, 1));
    assertThat(first.versions().getFirst().meta().versionId()).isEqualTo(a3.versionId());
    f.store.removeVersion("bkt", "a", a3.versionId());
    f.store.removeVersion("bkt", "a", a2.versionId());

    ObjectStore.VersionListResult rest =
        f.store.listVersions(
            "bkt",
            new ObjectStore.VersionListRequest(
                "", null, "a", first.nextVersionIdMarker().orElseThrow(), 10));
    assertThat(rest.versions())
        .singleElement()
        .satisfies(
            v -> {
              assertThat(v.meta().versionId()).isEqualTo(a1.versionId());
              assertThat(v.latest()).isTrue();
            });
  }

  @Test
  void listVersions_whenFewerThanAReadQuorumAnswer_insufficientShards() {
    versionedBucket();
    f.put("bkt", "k", StoreFixture.bytes(1, 10));
    for (int slot = 0; slot < 4; slot++) {
      f.faulty.get(slot).outage(true);
    }
    assertCode(() -> versions(""), StoreException.Code.INSUFFICIENT_SHARDS);
  }
}
