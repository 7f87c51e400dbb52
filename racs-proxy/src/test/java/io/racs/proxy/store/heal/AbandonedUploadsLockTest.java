package io.racs.proxy.store.heal;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.format.ObjectLock;
import io.racs.proxy.store.format.VersionMeta;
import io.racs.proxy.testing.TestArray;
import io.racs.testkit.DrivenClock;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Proves that the clean-up of abandoned uploads leaves a locked version's data alone: a multipart
 * version under a legal hold and a COMPLIANCE retention, completed from one upload of its key,
 * keeps every byte after another upload of the same key (made of the same part data id space) is
 * given up and collected past the GC grace, and after a heal scan.
 */
class AbandonedUploadsLockTest {
  private static final Duration GRACE = Duration.ofHours(1);
  private static final String BUCKET = "lockedbkt";

  private final DrivenClock clock = new DrivenClock();
  private final ErasureStore store =
      TestArray.builder("4x2")
          .blockBytes(4096)
          .minPartBytes(1)
          .gcGrace(GRACE)
          .clock(clock)
          .open()
          .store();

  @AfterEach
  void close() {
    store.close();
  }

  private ObjectStore.PartInfo part(String upload, int number, byte[] data) {
    return store.uploadPart(
        BUCKET, "k", upload, number, new ByteArrayInputStream(data), data.length, Map::of);
  }

  @Test
  void abandonedUploadOfTheKey_whenCollected_keepsTheLockedVersionWhole() throws IOException {
    store.locks().createLockedBucket(BUCKET);
    long until = DrivenClock.START_MILLIS + Duration.ofDays(3650).toMillis();
    ObjectStore.PutOptions locked =
        ObjectStore.PutOptions.defaults()
            .withLock(new ObjectLock(ObjectLock.COMPLIANCE, until, true));
    byte[] data = new byte[10_000];
    for (int i = 0; i < data.length; i++) {
      data[i] = (byte) (i * 31);
    }
    String upload = store.createMultipartUpload(BUCKET, "k", locked);
    ObjectStore.PartInfo p = part(upload, 1, data);
    VersionMeta version =
        store.completeMultipartUpload(
            BUCKET,
            "k",
            upload,
            List.of(new ObjectStore.CompletedPart(1, p.etag())),
            parts -> Map.of());
    assertThat(version.lock()).isEqualTo(new ObjectLock(ObjectLock.COMPLIANCE, until, true));

    String other = store.createMultipartUpload(BUCKET, "k", ObjectStore.PutOptions.defaults());
    part(other, 1, new byte[5_000]);
    clock.advance(AbandonedUploads.DEFAULT_AGE.plusMinutes(1));
    assertThat(AbandonedUploads.run(store, AbandonedUploads.DEFAULT_AGE, () -> false).abandoned())
        .hasSize(1);
    clock.advance(GRACE.plusMinutes(1));
    AbandonedUploads.run(store, AbandonedUploads.DEFAULT_AGE, () -> false);
    Healer.heal(store, HealOptions.defaults());

    try (var reader = store.get(BUCKET, "k", 0, -1, 0)) {
      assertThat(reader.meta().versionId()).isEqualTo(version.versionId());
      assertThat(reader.body().readAllBytes()).isEqualTo(data);
    }
    assertThat(store.locks().lockOf(version).legalHold()).isTrue();
  }
}
