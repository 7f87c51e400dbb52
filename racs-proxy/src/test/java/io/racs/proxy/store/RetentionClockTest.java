package io.racs.proxy.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.format.ObjectLock;
import io.racs.proxy.store.format.VersionMeta;
import io.racs.proxy.testing.TestArray;
import io.racs.testkit.DrivenClock;
import java.io.ByteArrayInputStream;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Proves that retention is judged by the proxy's own clock and never ends early because another
 * proxy's clock is ahead: two stores over one array, one with its clock an hour ahead. Once the
 * retention has ended by the slow store's clock it may remove the version; but once it has read a
 * version the fast store committed (a commit time later than its own clock), it judges no retention
 * ended until its clock passes that time. A default retention counts from the later of the two.
 */
class RetentionClockTest {
  private final DrivenClock clock = new DrivenClock();
  private final TestArray slowArray = TestArray.builder("4x2").clock(clock).open();
  private final ErasureStore slow = slowArray.store();
  private final ErasureStore fast =
      TestArray.builder("4x2")
          .clock(Clock.offset(clock, Duration.ofHours(1)))
          .over(slowArray.base())
          .open()
          .store();

  @AfterEach
  void close() {
    fast.close();
    slow.close();
  }

  private static VersionMeta put(ErasureStore store, String key, ObjectLock lock) {
    byte[] data = {1, 2, 3};
    return store.put(
        "clk",
        key,
        new ByteArrayInputStream(data),
        data.length,
        ObjectStore.PutOptions.defaults().withLock(lock));
  }

  @Test
  void removal_whenAnotherClockIsAhead_waitsForThisProxysClock() {
    slow.locks().createLockedBucket("clk");
    long until = DrivenClock.START_MILLIS + 60_000;
    VersionMeta free = put(slow, "free", new ObjectLock(ObjectLock.GOVERNANCE, until, false));
    VersionMeta kept = put(slow, "kept", new ObjectLock(ObjectLock.GOVERNANCE, until, false));
    assertThatThrownBy(() -> slow.removeVersion("clk", "free", free.versionId()))
        .isInstanceOf(StoreException.class);

    clock.advance(Duration.ofMinutes(2)); // ended by the slow store's clock
    assertThat(slow.removeVersion("clk", "free", free.versionId())).isPresent();

    // The fast store (an hour ahead) commits a version; the slow one reads it.
    put(fast, "kept", null);
    slow.head("clk", "kept");
    assertThat(slow.locks().retentionStartMillis()).isGreaterThan(clock.millis());
    assertThatThrownBy(() -> slow.removeVersion("clk", "kept", kept.versionId()))
        .isInstanceOf(StoreException.class)
        .extracting(e -> ((StoreException) e).code())
        .isEqualTo(StoreException.Code.OBJECT_LOCKED);

    clock.advance(Duration.ofHours(1).plusMinutes(1)); // past what the fast store wrote
    assertThat(slow.removeVersion("clk", "kept", kept.versionId())).isPresent();
  }
}
