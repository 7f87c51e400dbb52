package io.racs.proxy.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.format.Layout;
import io.racs.proxy.store.format.ObjectLock;
import io.racs.proxy.store.format.VersionMeta;
import io.racs.proxy.store.heal.HealOptions;
import io.racs.proxy.store.heal.Healer;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Proves that the background jobs that remove versions leave a locked one alone, each run directly:
 * the collector's removal of a version, heal's scan, and removal by id (lifecycle expiry: {@code
 * runtime.LifecycleLockTest}), which asks the store's one removal rule (RemovalRule); and that a
 * lock record written later (a legal hold) keeps a version its record did not lock.
 */
class ObjectLockJobsTest {
  private static final long FAR_MILLIS = Instant.parse("2140-01-01T00:00:00Z").toEpochMilli();

  private final ErasureStore store = MemoryArray.open("4x2");

  @AfterEach
  void close() {
    store.close();
  }

  private VersionMeta put(String bucket, String key, ObjectLock lock) {
    return LockedVersions.put(store, bucket, key, lock);
  }

  private boolean readable(VersionMeta v) {
    return LockedVersions.readable(store, v);
  }

  @Test
  void collector_whenVersionIsLocked_keepsItsDataAndEntry() {
    store.locks().createLockedBucket("lkb");
    VersionMeta v = put("lkb", "k", new ObjectLock(ObjectLock.COMPLIANCE, FAR_MILLIS, false));
    store.collector().removeVersion(Layout.indexEntry("lkb", "k", v.versionId()), Optional.of(v));
    assertThat(readable(v)).isTrue();
    try (var reader = store.get("lkb", "k", 0, -1, 0)) {
      assertThat(reader.body().readAllBytes()).hasSize(12);
    } catch (java.io.IOException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void removeVersion_whenLegalHoldSetLater_deniedUntilItIsOff() {
    store.locks().createLockedBucket("lkb");
    VersionMeta v = put("lkb", "k", null); // the store gives it ObjectLock.NONE
    assertThat(v.lock()).isEqualTo(ObjectLock.NONE);
    store.locks().putLegalHold(v, true);
    assertThatThrownBy(() -> store.removeVersion("lkb", "k", v.versionId()))
        .isInstanceOf(StoreException.class)
        .extracting(e -> ((StoreException) e).code())
        .isEqualTo(StoreException.Code.OBJECT_LOCKED);
    assertThatThrownBy(() -> store.locks().removeVersion("lkb", "k", v.versionId(), true))
        .isInstanceOf(StoreException.class);
    store.locks().putLegalHold(v, false);
    assertThat(store.removeVersion("lkb", "k", v.versionId())).isPresent();
  }

  @Test
  void heal_whenVersionIsLocked_leavesItReadable() {
    store.locks().createLockedBucket("lkb");
    VersionMeta v = put("lkb", "k", new ObjectLock(ObjectLock.COMPLIANCE, FAR_MILLIS, true));
    put("lkb", "k", null);
    Healer.heal(store, HealOptions.defaults());
    assertThat(readable(v)).isTrue();
    assertThat(store.locks().lockOf(v)).isEqualTo(v.lock());
  }
}
