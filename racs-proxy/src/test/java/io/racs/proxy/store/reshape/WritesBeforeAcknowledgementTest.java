package io.racs.proxy.store.reshape;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.codec.Geometry;
import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.array.LayoutChanges;
import io.racs.proxy.store.format.VersionMeta;
import io.racs.testkit.Await;
import java.io.ByteArrayInputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Proves that a proxy acknowledges a new array record only once the writes it began before its
 * re-read have ended (docs/reshape.md §6, {@code WritesInFlight}): a PUT that took the old layout
 * and is still receiving its body holds the acknowledgement back, although new writes already take
 * the target; once the PUT commits (in 4x2, as it began) the acknowledgement follows. Without
 * coordination, through a {@link LayoutChanges} the test drives; data from seed {@link
 * ReshapeArray#SEED}.
 */
class WritesBeforeAcknowledgementTest {
  private ReshapeArray fixture;

  @AfterEach
  void close() {
    if (fixture != null) {
      fixture.close();
    }
  }

  /** A body that stops after its first block until {@code release}, saying so on {@code held}. */
  private static ByteArrayInputStream heldBody(
      byte[] data, CountDownLatch held, CountDownLatch release) {
    return new ByteArrayInputStream(data) {
      @Override
      public synchronized int read(byte[] b, int off, int len) {
        if (pos >= ReshapeArray.BLOCK && release.getCount() > 0) {
          held.countDown();
          try {
            release.await();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UncheckedIOException(new java.io.InterruptedIOException());
          }
        }
        return super.read(b, off, Math.min(len, ReshapeArray.BLOCK));
      }
    };
  }

  @Test
  void acknowledgement_whenAPutBegunInTheOldLayoutIsUnderWay_waitsForItsEnd() throws Exception {
    fixture = new ReshapeArray(Duration.ZERO);
    ErasureStore store = fixture.store;
    store.createBucket("bkt");
    AtomicReference<Consumer<Runnable>> heard = new AtomicReference<>();
    store.coordinateLayout(
        new LayoutChanges() {
          @Override
          public Acknowledgements announce() {
            return Acknowledgements.NONE;
          }

          @Override
          public void listen(Consumer<Runnable> changed) {
            heard.set(changed);
          }
        });
    CountDownLatch held = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    byte[] data = fixture.data(3 * ReshapeArray.BLOCK);
    CompletableFuture<VersionMeta> put =
        CompletableFuture.supplyAsync(
            () ->
                store.put(
                    "bkt",
                    "held",
                    heldBody(data, held, release),
                    data.length,
                    ObjectStore.PutOptions.defaults()));
    assertThat(held.await(30, TimeUnit.SECONDS)).isTrue();

    fixture.recordReshape();
    CountDownLatch acknowledged = new CountDownLatch(1);
    heard.get().accept(acknowledged::countDown); // the announcement arrives

    Await.until(
        "new writes take 3x3",
        () -> store.context().writes().geometry().equals(Geometry.parse("3x3")));
    // Re-read, but the PUT begun in 4x2 is still under way: no acknowledgement yet.
    assertThat(acknowledged.await(500, TimeUnit.MILLISECONDS)).isFalse();

    release.countDown();

    assertThat(put.get(30, TimeUnit.SECONDS).geometry()).isEqualTo("4x2");
    assertThat(acknowledged.await(30, TimeUnit.SECONDS)).isTrue();
    assertThat(ReshapeArray.read(store, store.head("bkt", "held"))).isEqualTo(data);
  }
}
