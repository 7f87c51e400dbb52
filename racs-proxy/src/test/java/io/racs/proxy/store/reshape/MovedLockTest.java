package io.racs.proxy.store.reshape;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.LockedVersions;
import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.format.ObjectLock;
import io.racs.proxy.store.format.VersionMeta;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Proves issue #39's case for the mover: a version under Object Lock retention (COMPLIANCE, given
 * at PUT) and one under a legal hold set after its PUT, reshaped 4x2 -> 3x3: the move keeps each
 * version (same id, same bytes) and its lock, and no DELETE of either version succeeds after the
 * move, not even one that bypasses governance retention.
 */
class MovedLockTest {
  private static final long FAR_MILLIS = 4_102_444_800_000L; // 2100-01-01
  private ReshapeArray fixture;

  @AfterEach
  void close() {
    if (fixture != null) {
      fixture.close();
    }
  }

  private static void assertLocked(ThrowingDelete delete) {
    assertThatThrownBy(delete::run)
        .isInstanceOf(StoreException.class)
        .extracting(e -> ((StoreException) e).code())
        .isEqualTo(StoreException.Code.OBJECT_LOCKED);
  }

  private interface ThrowingDelete {
    void run();
  }

  @Test
  void run_whenVersionsAreLocked_keepsTheVersionsAndTheirLocks() {
    fixture = new ReshapeArray(Duration.ZERO);
    ErasureStore store = fixture.store;
    store.locks().createLockedBucket("lkb");
    VersionMeta retained =
        LockedVersions.put(
            store, "lkb", "k", new ObjectLock(ObjectLock.COMPLIANCE, FAR_MILLIS, false));
    VersionMeta held = LockedVersions.put(store, "lkb", "k", null);
    store.locks().putLegalHold(held, true);
    fixture.recordReshape();

    Mover.Report report = fixture.move(-1, new ArrayList<>());

    assertThat(report.outcome()).as(report.reason()).isEqualTo(Mover.Outcome.COMPLETE);
    assertThat(report.versionsMoved()).isEqualTo(2);
    for (VersionMeta v : List.of(retained, held)) {
      VersionMeta moved = store.version("lkb", "k", v.versionId());
      assertThat(moved.geometry()).isEqualTo("3x3");
      assertThat(ReshapeArray.read(store, moved)).isEqualTo(LockedVersions.DATA);
    }
    assertThat(store.locks().lockOf(store.version("lkb", "k", retained.versionId())))
        .isEqualTo(retained.lock());
    assertThat(store.locks().lockOf(store.version("lkb", "k", held.versionId())).legalHold())
        .isTrue();

    for (VersionMeta v : List.of(retained, held)) {
      assertLocked(() -> store.removeVersion("lkb", "k", v.versionId()));
      assertLocked(() -> store.locks().removeVersion("lkb", "k", v.versionId(), true));
      assertThat(LockedVersions.readable(store, v)).isTrue();
    }
  }
}
