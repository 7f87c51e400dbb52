package io.racs.proxy.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.format.VersionMeta;
import io.racs.proxy.store.heal.HealOptions;
import io.racs.proxy.store.heal.HealReport;
import io.racs.proxy.store.heal.Healer;
import io.racs.proxy.testing.TestArray;
import io.racs.repos.RepositoryException.Kind;
import io.racs.repos.decorator.FaultyRepository;
import io.racs.repos.decorator.Operation;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Proves the {@code null} version in the store: a write while a bucket's versioning is not enabled
 * (never turned on, or suspended) is flagged as its key's null version, {@code "null"} names the
 * newest such record for reads, removals and listings, a new null write replaces the earlier null
 * version (hidden at once, removed for good once settled) while versions with ids of their own
 * stay, a suspended delete writes a null delete marker, and the suspended state survives a restart.
 */
class NullVersionTest {
  private static final int BLOCK = 4 * 1024;
  private StoreFixture f = new StoreFixture("4x2", BLOCK);

  @AfterEach
  void close() {
    f.close();
  }

  private List<String> versionIds(String bucket) {
    List<String> ids = new ArrayList<>();
    for (ObjectStore.ListedVersion v :
        f.store
            .listVersions(bucket, new ObjectStore.VersionListRequest("", null, null, null, 1000))
            .versions()) {
      ids.add(v.meta().nullVersion() ? "null:" + v.meta().versionId() : v.meta().versionId());
    }
    return ids;
  }

  private static StoreException.Code code(Runnable call) {
    try {
      call.run();
    } catch (StoreException e) {
      return e.code();
    }
    return null;
  }

  @Test
  void setVersioning_whenSuspended_saysSuspendedAfterRestartAndStillKeepsVersions() {
    f.store.createBucket("bkt");
    assertThat(f.store.versioning("bkt")).isEqualTo(ObjectStore.Versioning.OFF);
    f.store.setVersioning("bkt", ObjectStore.Versioning.SUSPENDED);
    assertThat(f.store.versioning("bkt")).isEqualTo(ObjectStore.Versioning.SUSPENDED);
    assertThat(f.store.versioned("bkt")).isTrue();
    assertThat(f.reopen().versioning("bkt")).isEqualTo(ObjectStore.Versioning.SUSPENDED);
    f.store.enableVersioning("bkt");
    assertThat(f.store.versioning("bkt")).isEqualTo(ObjectStore.Versioning.ENABLED);
    assertThatThrownBy(() -> f.store.setVersioning("bkt", ObjectStore.Versioning.OFF))
        .isInstanceOf(StoreException.class);
  }

  @Test
  void put_whenNeverVersionedThenEnabled_earlierObjectIsTheNullVersion() {
    f.store.createBucket("bkt");
    VersionMeta before = f.put("bkt", "k", StoreFixture.bytes(1, 5 * BLOCK));
    assertThat(before.nullVersion()).isTrue();
    f.store.enableVersioning("bkt");
    VersionMeta after = f.put("bkt", "k", StoreFixture.bytes(2, 100));
    assertThat(after.nullVersion()).isFalse();
    assertThat(f.store.version("bkt", "k", ObjectStore.NULL_VERSION).versionId())
        .isEqualTo(before.versionId());
    assertThat(versionIds("bkt")).containsExactly(after.versionId(), "null:" + before.versionId());
    try (ObjectStore.ObjectReader r =
        f.store.read(f.store.version("bkt", "k", ObjectStore.NULL_VERSION), 0, -1)) {
      assertThat(r.body().readAllBytes()).isEqualTo(StoreFixture.bytes(1, 5 * BLOCK));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void put_whenSuspended_replacesTheNullVersionAndKeepsVersionsWithIds() {
    f.store.createBucket("bkt");
    VersionMeta first = f.put("bkt", "k", StoreFixture.bytes(1, 5 * BLOCK));
    f.store.enableVersioning("bkt");
    VersionMeta kept = f.put("bkt", "k", StoreFixture.bytes(2, 5 * BLOCK));
    f.store.setVersioning("bkt", ObjectStore.Versioning.SUSPENDED);
    VersionMeta second = f.put("bkt", "k", StoreFixture.bytes(3, 100));
    VersionMeta third = f.put("bkt", "k", StoreFixture.bytes(4, 5 * BLOCK));
    f.store.awaitCollections();
    assertThat(second.nullVersion()).isTrue();
    assertThat(versionIds("bkt")).containsExactly("null:" + third.versionId(), kept.versionId());
    assertThat(f.get("bkt", "k")).isEqualTo(StoreFixture.bytes(4, 5 * BLOCK));
    assertThat(f.store.version("bkt", "k", ObjectStore.NULL_VERSION).versionId())
        .isEqualTo(third.versionId());
    // The superseded null versions were removed for good, not only hidden.
    assertThat(code(() -> f.store.version("bkt", "k", first.versionId())))
        .isEqualTo(StoreException.Code.NO_SUCH_VERSION);
    assertThat(code(() -> f.store.version("bkt", "k", second.versionId())))
        .isEqualTo(StoreException.Code.NO_SUCH_VERSION);
  }

  @Test
  void put_whenSuspendedAndNotYetSettled_earlierNullVersionIsHiddenAtOnce() {
    f.close();
    f =
        new StoreFixture(
            TestArray.builder("4x2")
                .blockBytes(BLOCK)
                .minPartBytes(BLOCK)
                .slowShardTimeout(Duration.ofSeconds(5))
                .gcGrace(Duration.ZERO)
                .settleTime(Duration.ofHours(1)) // nothing is removed during the test
            );
    f.store.createBucket("bkt");
    f.store.setVersioning("bkt", ObjectStore.Versioning.SUSPENDED);
    f.put("bkt", "k", StoreFixture.bytes(1, 100));
    VersionMeta newer = f.put("bkt", "k", StoreFixture.bytes(2, 100));
    assertThat(versionIds("bkt")).containsExactly("null:" + newer.versionId());
    assertThat(f.store.version("bkt", "k", ObjectStore.NULL_VERSION).versionId())
        .isEqualTo(newer.versionId());
    // Removing the null version removes the superseded record too: nothing older comes back.
    assertThat(f.store.removeVersion("bkt", "k", ObjectStore.NULL_VERSION))
        .hasValueSatisfying(v -> assertThat(v.versionId()).isEqualTo(newer.versionId()));
    assertThat(versionIds("bkt")).isEmpty();
    assertThat(code(() -> f.store.head("bkt", "k"))).isEqualTo(StoreException.Code.NO_SUCH_KEY);
  }

  @Test
  void removeVersion_whenNull_removesItAndTheVersionBeforeIsCurrent() {
    f.store.createBucket("bkt");
    f.store.setVersioning("bkt", ObjectStore.Versioning.ENABLED);
    VersionMeta older = f.put("bkt", "k", StoreFixture.bytes(1, 100));
    f.store.setVersioning("bkt", ObjectStore.Versioning.SUSPENDED);
    f.put("bkt", "k", StoreFixture.bytes(2, 5 * BLOCK));
    assertThat(f.store.removeVersion("bkt", "k", ObjectStore.NULL_VERSION)).isPresent();
    assertThat(f.get("bkt", "k")).isEqualTo(StoreFixture.bytes(1, 100));
    assertThat(code(() -> f.store.version("bkt", "k", ObjectStore.NULL_VERSION)))
        .isEqualTo(StoreException.Code.NO_SUCH_VERSION);
    assertThat(f.store.removeVersion("bkt", "k", ObjectStore.NULL_VERSION)).isEmpty();
    assertThat(versionIds("bkt")).containsExactly(older.versionId());
  }

  @Test
  void delete_whenSuspended_writesNullMarkerThatReplacesTheNullVersion() {
    f.store.createBucket("bkt");
    f.put("bkt", "k", StoreFixture.bytes(1, 100));
    f.store.setVersioning("bkt", ObjectStore.Versioning.SUSPENDED);
    Optional<VersionMeta> marker = f.store.delete("bkt", "k");
    assertThat(marker)
        .hasValueSatisfying(m -> assertThat(m.deleteMarker() && m.nullVersion()).isTrue());
    assertThat(f.store.delete("bkt", "never"))
        .hasValueSatisfying(m -> assertThat(m.deleteMarker() && m.nullVersion()).isTrue());
    f.store.awaitCollections();
    assertThat(f.store.version("bkt", "k", ObjectStore.NULL_VERSION).deleteMarker()).isTrue();
    f.store.enableVersioning("bkt");
    VersionMeta after = f.put("bkt", "k", StoreFixture.bytes(2, 100));
    assertThat(versionIds("bkt"))
        .containsExactly(
            after.versionId(),
            "null:" + marker.get().versionId(),
            "null:" + f.store.version("bkt", "never", ObjectStore.NULL_VERSION).versionId());
  }

  @Test
  void listVersions_whenPagedAcrossTheNullVersion_continuesAfterIt() {
    f.store.createBucket("bkt");
    f.store.enableVersioning("bkt");
    VersionMeta oldest = f.put("bkt", "k", StoreFixture.bytes(1, 100));
    f.store.setVersioning("bkt", ObjectStore.Versioning.SUSPENDED);
    VersionMeta nulled = f.put("bkt", "k", StoreFixture.bytes(2, 100));
    f.store.enableVersioning("bkt");
    VersionMeta newest = f.put("bkt", "k", StoreFixture.bytes(3, 100));
    List<String> seen = new ArrayList<>();
    String keyMarker = null;
    String idMarker = null;
    for (int page = 0; page < 5; page++) {
      ObjectStore.VersionListResult r =
          f.store.listVersions(
              "bkt", new ObjectStore.VersionListRequest("", null, keyMarker, idMarker, 1));
      r.versions().forEach(v -> seen.add(v.meta().versionId() + (v.latest() ? "*" : "")));
      if (!r.truncated()) {
        break;
      }
      keyMarker = r.nextKeyMarker().orElseThrow();
      idMarker = r.nextVersionIdMarker().orElseThrow();
      if (r.versions().get(0).meta().nullVersion()) {
        assertThat(idMarker).isEqualTo(ObjectStore.NULL_VERSION);
      }
    }
    assertThat(seen)
        .containsExactly(newest.versionId() + "*", nulled.versionId(), oldest.versionId());
  }

  private static TestArray.Builder config() {
    return TestArray.builder("4x2")
        .blockBytes(BLOCK)
        .minPartBytes(BLOCK)
        .slowShardTimeout(Duration.ofSeconds(5))
        .gcGrace(Duration.ZERO)
        .settleTime(Duration.ofHours(1));
  }

  @Test
  void heal_whenASupersededNullRecordWasLeft_removesItOnceTheNullVersionSettled() {
    f.close();
    // Written by a proxy that stopped before its removal ran: two hours ago, by its clock.
    f = new StoreFixture(config().clock(Clock.offset(Clock.systemUTC(), Duration.ofHours(-2))));
    f.store.createBucket("bkt");
    f.store.setVersioning("bkt", ObjectStore.Versioning.SUSPENDED);
    VersionMeta old = f.put("bkt", "k", StoreFixture.bytes(1, 5 * BLOCK));
    VersionMeta current = f.put("bkt", "k", StoreFixture.bytes(2, 5 * BLOCK));
    f.store = config().over(f.faulty).open().store();
    assertThat(f.store.version("bkt", "k", old.versionId()).versionId())
        .isEqualTo(old.versionId()); // hidden from the listing, but not yet removed

    HealReport report = Healer.heal(f.store, HealOptions.defaults());
    f.store.awaitCollections();

    assertThat(report.notDone()).isEmpty();
    assertThat(code(() -> f.store.version("bkt", "k", old.versionId())))
        .isEqualTo(StoreException.Code.NO_SUCH_VERSION);
    assertThat(f.store.version("bkt", "k", ObjectStore.NULL_VERSION).versionId())
        .isEqualTo(current.versionId());
    assertThat(f.get("bkt", "k")).isEqualTo(StoreFixture.bytes(2, 5 * BLOCK));
  }

  @Test
  void heal_whenANewerNullRecordCountsOnlyForARepositoryThatDidNotList_removesNoNullVersion() {
    f.store.createBucket("bkt");
    f.store.setVersioning("bkt", ObjectStore.Versioning.SUSPENDED);
    byte[] first = StoreFixture.bytes(1, 100);
    VersionMeta nullVersion = f.put("bkt", "k", first);
    // A null write whose commit reached three repositories, fewer than the write quorum (four), and
    // whose rollback could not delete its entry there.
    for (int slot = 3; slot < 6; slot++) {
      f.faulty.get(slot).failKeys(Pattern.compile("i/.*", Pattern.DOTALL), Kind.UNAVAILABLE);
    }
    for (int slot = 0; slot < 3; slot++) {
      f.faulty.get(slot).failOperation(Operation.DELETE, Kind.UNAVAILABLE);
    }
    assertThat(code(() -> f.put("bkt", "k", StoreFixture.bytes(2, 100))))
        .isEqualTo(StoreException.Code.INSUFFICIENT_SHARDS);
    f.faulty.forEach(FaultyRepository::clearFaults);

    // To a heal that cannot list slot 5 the leftover may be the newer null version; it is not for
    // sure, so the one under it is not removed as superseded.
    f.faulty.get(5).failOperation(Operation.LIST, Kind.UNAVAILABLE);
    Healer.heal(f.store, HealOptions.defaults());
    f.faulty.get(5).clearFaults();

    assertThat(f.store.version("bkt", "k", ObjectStore.NULL_VERSION).versionId())
        .isEqualTo(nullVersion.versionId());
    assertThat(f.get("bkt", "k")).isEqualTo(first);
  }
}
