package io.racs.proxy.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.format.Layout;
import io.racs.proxy.store.format.VersionMeta;
import io.racs.proxy.testing.TestArray;
import io.racs.repos.Repository;
import io.racs.repos.RepositoryException;
import io.racs.repos.decorator.Operation;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A DELETE in a bucket never versioned writes no marker when the key is deleted already. "Deleted
 * already" must mean a marker on a write quorum for sure, not one that counts only because some
 * repositories did not answer: what a DELETE that failed while repositories stalled leaves behind
 * stops counting once they answer, and the version under it is current again. The clean-clone CI
 * run met it (MinioFaultsIT, m + 1 MinIO servers stopped): a DELETE answered 204 after the failed
 * one, and the key came back once the servers resumed.
 */
class DeleteOverUncertainMarkerTest {
  private final StoreFixture f =
      new StoreFixture(
          TestArray.builder("4x2")
              .blockBytes(1 << 16)
              .minPartBytes(1 << 16)
              .slowShardTimeout(Duration.ofSeconds(5))
              .gcGrace(
                  Duration.ZERO)); // superseded versions wait the shipped settle time: the version

  // stays

  @AfterEach
  void close() {
    f.close();
  }

  private static Optional<byte[]> read(ErasureStore store) {
    try (ObjectStore.ObjectReader reader = store.get("bkt", "k", 0, -1, 0);
        InputStream body = reader.body()) {
      return Optional.of(body.readAllBytes());
    } catch (StoreException e) {
      assertThat(e.code()).isEqualTo(StoreException.Code.NO_SUCH_KEY);
      return Optional.empty();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void delete_whenTheNewestMarkerCountsOnlyForARepositoryThatDidNotAnswer_writesOneThatStays() {
    f.store.createBucket("bkt");
    byte[] data = StoreFixture.bytes(7, 1000);
    f.store.put(
        "bkt", "k", StoreFixture.stream(data), data.length, ObjectStore.PutOptions.defaults());
    // What a DELETE that failed leaves: its marker on 3 of 6 repositories (4 are needed).
    VersionMeta failed = f.store.delete("bkt", "k").orElseThrow();
    String entry = Layout.indexEntry("bkt", "k", failed.versionId());
    for (int slot = 0; slot < 3; slot++) {
      f.memories.get(slot).delete(entry);
    }
    // The listings of a repository without it fail: 3 that list the marker and 1 that proves
    // nothing could be a
    // write quorum, so reads take the key as deleted...
    f.faulty.get(0).failOperation(Operation.LIST, RepositoryException.Kind.UNAVAILABLE);
    assertThat(read(f.store)).isEmpty();
    // ...and a DELETE now must not: before, it wrote nothing (the marker was known) and answered.
    assertThat(f.store.delete("bkt", "k")).isPresent();

    f.faulty.get(0).clearFaults();
    try (ErasureStore everyoneAnswers =
        ErasureStore.open(f.config, List.<Repository>copyOf(f.faulty))) {
      // The failed marker counts no more; the acknowledged DELETE still hides the key (before: the
      // version came back).
      assertThat(read(everyoneAnswers)).isEmpty();
    }
  }
}
