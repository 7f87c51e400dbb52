package io.racs.proxy.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.LockedVersions;
import io.racs.proxy.store.MemoryArray;
import io.racs.proxy.store.format.ObjectLock;
import io.racs.proxy.store.format.VersionMeta;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Proves that lifecycle expiry of noncurrent versions, run directly as if 400 days had passed,
 * removes a free noncurrent version and keeps a locked one (the store's removal rule says no, and
 * the scan does not count that as a failure).
 */
class LifecycleLockTest {
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
  void lifecycle_whenNoncurrentVersionIsLocked_keepsIt() {
    store.locks().createLockedBucket("lkb");
    store.putBucketLifecycle(
        "lkb",
        "<LifecycleConfiguration><Rule><Filter></Filter><Status>Enabled</Status>"
            + "<NoncurrentVersionExpiration><NoncurrentDays>1</NoncurrentDays>"
            + "</NoncurrentVersionExpiration></Rule></LifecycleConfiguration>");
    VersionMeta locked = put("lkb", "k", new ObjectLock(ObjectLock.GOVERNANCE, FAR_MILLIS, false));
    VersionMeta free = put("lkb", "k", null);
    put("lkb", "k", null); // makes both noncurrent
    LifecycleScrub.Report report =
        new LifecycleScrub(
                store, Clock.fixed(Instant.now().plus(400, ChronoUnit.DAYS), ZoneOffset.UTC))
            .run();
    assertThat(report.failures()).isEmpty();
    assertThat(report.removed()).containsExactly("lkb/k " + free.versionId());
    assertThat(readable(locked)).isTrue();
    assertThat(readable(free)).isFalse();
  }
}
