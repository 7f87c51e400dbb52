package io.racs.proxy.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.heal.HealOptions;
import io.racs.proxy.store.heal.HealReport;
import io.racs.proxy.store.heal.Healer;
import io.racs.proxy.testing.TestArray;
import io.racs.repos.decorator.FaultyRepository;
import io.racs.repos.decorator.Operation;
import io.racs.testkit.DrivenClock;
import io.racs.testkit.SeededBytes;
import io.racs.testkit.TestSeed;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * Proves that a whole heal leaves the data of a CompleteMultipartUpload that commits while heal
 * runs: the parts' data ids are as old as the parts (past the GC grace), so heal must not take them
 * for leftovers when the completion has committed after heal scanned its key and removed the part
 * records before heal read them. Heal reads the part records before it scans the index, so one of
 * the two always names the data. (Read after the scan, as it was, the object's data was collected
 * and the object could not be read.)
 *
 * <p>Heal is held by a {@link FaultyRepository.Gate} on its read of the part record, so the order
 * is forced and nothing waits on time.
 */
class HealDuringCompleteTest {

  @Test
  void heal_whileACompletionCommitsAndRemovesItsParts_collectsNoneOfItsData() throws Exception {
    DrivenClock clock = new DrivenClock();
    FaultyRepository.Gate partReads =
        new FaultyRepository.Gate(
            Operation.GET, key -> key.startsWith("u/") && key.contains("/p00001"));
    byte[] data = SeededBytes.bytes(TestSeed.get(), 9000);
    try (ErasureStore store =
        TestArray.builder("4x2")
            .blockBytes(4096)
            .minPartBytes(1)
            .gcGrace(Duration.ofHours(1))
            .settleTime(Duration.ZERO)
            .clock(clock)
            .gated(partReads)
            .open()
            .store()) {
      store.createBucket("bkt");
      String upload = store.createMultipartUpload("bkt", "k", ObjectStore.PutOptions.defaults());
      ObjectStore.PartInfo part =
          store.uploadPart(
              "bkt", "k", upload, 1, new ByteArrayInputStream(data), data.length, Map::of);
      clock.advance(Duration.ofHours(2));
      partReads.arm(1);

      CompletableFuture<HealReport> heal =
          CompletableFuture.supplyAsync(() -> Healer.heal(store, HealOptions.defaults()));
      partReads.awaitHeld(1, Duration.ofSeconds(30));
      store.completeMultipartUpload(
          "bkt",
          "k",
          upload,
          List.of(new ObjectStore.CompletedPart(1, part.etag())),
          parts -> Map.of());
      partReads.open();
      heal.get();

      try (ObjectStore.ObjectReader reader = store.get("bkt", "k", 0, -1, 0)) {
        assertThat(reader.body().readAllBytes()).isEqualTo(data);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }
}
