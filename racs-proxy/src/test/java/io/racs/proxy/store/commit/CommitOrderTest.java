package io.racs.proxy.store.commit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.store.CrossProxyOrderingTest;
import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.SharedArray;
import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.array.RepositoryArray;
import io.racs.proxy.store.format.VersionMeta;
import io.racs.repos.RepositoryException;
import io.racs.repos.decorator.FaultyRepository;
import io.racs.repos.decorator.Operation;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Proves how a write is ordered ({@link CommitOrder}): a write whose listing of the key cannot
 * reach a read quorum is refused (503) and changes nothing, and a striped PUT lists the key only
 * once its body has been received, so a PUT through another proxy acknowledged while this one was
 * still uploading is ordered before it, even from a clock 30 s ahead.
 */
class CommitOrderTest {
  @Test
  void put_whenTheKeyCannotBeListedOnAReadQuorum_isRefusedAndChangesNothing() {
    List<FaultyRepository> faulty = new ArrayList<>();
    try (SharedArray array =
        new SharedArray(
            (slot, repository) -> {
              FaultyRepository f = new FaultyRepository(repository);
              faulty.add(f);
              return f;
            },
            0)) {
      ErasureStore store = array.stores.getFirst();
      byte[] original = CrossProxyOrderingTest.bytes(1, 3000);
      CrossProxyOrderingTest.put(store, "k", original);
      List<String> before = names(array);
      // Four of six cannot list: only two listings, and a read quorum is three.
      for (int slot = 0; slot < 4; slot++) {
        faulty.get(slot).failOperation(Operation.LIST, RepositoryException.Kind.UNAVAILABLE);
      }
      for (int size : new int[] {100, 10_000}) { // inline, striped
        assertThatThrownBy(
                () -> CrossProxyOrderingTest.put(store, "k", CrossProxyOrderingTest.bytes(2, size)))
            .isInstanceOf(StoreException.class)
            .extracting(e -> ((StoreException) e).code())
            .isEqualTo(StoreException.Code.INSUFFICIENT_SHARDS);
      }
      faulty.forEach(FaultyRepository::clearFaults);
      store.awaitCollections();
      assertThat(CrossProxyOrderingTest.read(store, "k")).hasValue(original);
      assertThat(names(array)).isEqualTo(before); // no shard, no entry left behind
    }
  }

  @Test
  void put_whileAnotherProxysPutIsAcknowledgedDuringItsUpload_isNewer() throws Exception {
    // The uploading proxy's clock is 30 s behind the other's.
    try (SharedArray array = new SharedArray(-30, 30)) {
      ErasureStore slow = array.stores.get(0);
      ErasureStore fast = array.stores.get(1);
      byte[] head = CrossProxyOrderingTest.bytes(3, 6000);
      byte[] tail = CrossProxyOrderingTest.bytes(4, 6000);
      CountDownLatch headRead = new CountDownLatch(1);
      CountDownLatch release = new CountDownLatch(1);
      InputStream body =
          new SequenceInputStream(
              new java.io.ByteArrayInputStream(head),
              new InputStream() {
                private final InputStream rest = new java.io.ByteArrayInputStream(tail);
                private boolean waited;

                @Override
                public int read() throws IOException {
                  byte[] one = new byte[1];
                  return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
                }

                @Override
                public int read(byte[] b, int off, int len) throws IOException {
                  if (!waited) {
                    waited = true;
                    headRead.countDown();
                    try {
                      release.await();
                    } catch (InterruptedException e) {
                      Thread.currentThread().interrupt();
                      throw new IOException(e);
                    }
                  }
                  return rest.read(b, off, len);
                }
              });
      CompletableFuture<VersionMeta> uploading =
          CompletableFuture.supplyAsync(
              () ->
                  slow.put(
                      SharedArray.BUCKET,
                      "k",
                      body,
                      head.length + tail.length,
                      ObjectStore.PutOptions.defaults()));
      assertThat(headRead.await(30, TimeUnit.SECONDS)).isTrue();
      byte[] meanwhile = CrossProxyOrderingTest.bytes(5, 10_000);
      CrossProxyOrderingTest.put(fast, "k", meanwhile); // acknowledged while the other uploads
      release.countDown();
      uploading.get(30, TimeUnit.SECONDS);
      byte[] whole = new byte[head.length + tail.length];
      System.arraycopy(head, 0, whole, 0, head.length);
      System.arraycopy(tail, 0, whole, head.length, tail.length);
      for (ErasureStore store : array.stores) {
        assertThat(CrossProxyOrderingTest.read(store, "k")).hasValue(whole);
      }
    }
  }

  /** Every name on every repository, slot by slot. */
  private static List<String> names(SharedArray array) {
    List<String> names = new ArrayList<>();
    for (int slot = 0; slot < array.repositories.size(); slot++) {
      for (var info : RepositoryArray.listAll(array.repositories.get(slot), "")) {
        names.add(slot + ":" + info.key());
      }
    }
    return names;
  }
}
