package io.racs.proxy.store.stripe;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.codec.Geometry;
import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.StoreFixture;
import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.api.StoreConfig;
import io.racs.proxy.store.array.LatencyEstimates;
import io.racs.proxy.store.format.Layout;
import io.racs.proxy.store.format.VersionId;
import io.racs.proxy.store.format.VersionMeta;
import io.racs.proxy.testing.TestArray;
import io.racs.repos.ObjectStream;
import io.racs.repos.Repository;
import io.racs.repos.decorator.FaultyRepository;
import io.racs.repos.decorator.ForwardingRepository;
import io.racs.repos.decorator.Operation;
import io.racs.testkit.Await;
import io.racs.testkit.TestSeed;
import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The shard reads a cold GET starts before it has the version's record ({@link ShardGuess}) behave
 * as the reads a reader opens itself: one whose repository is late is hedged by that repository's
 * own recent latency, not only at the peers' hedge point (a quarter of the stall grace, minutes
 * here, so a read that waits for it does not finish within the class timeout); and every stream a
 * guess opened is closed, even when the store closes between the guess and the reader that would
 * have taken it.
 */
@Timeout(60)
class ShardGuessTest {
  private static final Duration LONG = Duration.ofMinutes(10);
  private static final Duration WAIT = Duration.ofSeconds(20);
  private static final int STRIPED = 40_000; // ten stripes of 4 KiB: not inline

  private List<Repository> memories; // the first store's, shared by the others
  private final List<ErasureStore> stores = new ArrayList<>();
  private final AtomicInteger openShardStreams = new AtomicInteger();
  private final long seed = TestSeed.get();
  private FaultyRepository.Gate gate;
  private final ExecutorService async = Executors.newVirtualThreadPerTaskExecutor();

  @AfterEach
  void close() {
    if (gate != null) {
      gate.open();
    }
    stores.forEach(ErasureStore::close);
    async.shutdownNow();
  }

  /**
   * A store over the array, every call gated by {@code gate}, every shard stream counted while
   * open. Closing a store leaves the repositories open (the next store of the test shares them).
   */
  private ErasureStore open(StoreConfig config, FaultyRepository.Gate gate) {
    this.gate = gate;
    TestArray.Builder array = TestArray.builder(config);
    if (memories != null) {
      array.over(memories);
    }
    TestArray opened =
        array.gated(gate).wrap(rs -> rs.stream().<Repository>map(Tracked::new).toList()).open();
    memories = opened.base();
    return opened.store();
  }

  private static StoreConfig.Builder config() {
    return StoreConfig.builder(Geometry.parse("4x2"))
        .blockBytes(4096)
        .minPartBytes(4096)
        .inlineBytes(1024);
  }

  /**
   * The store that writes the key, its bucket created and its first PUT done (a PUT's version takes
   * its data's id only when the PUT takes under a second, which a first PUT in a cold JVM may not).
   */
  private ErasureStore writer(StoreConfig config) {
    ErasureStore writer = open(config, new FaultyRepository.Gate(Operation.GET, name -> false));
    stores.add(writer);
    writer.createBucket("bkt");
    writer.put(
        "bkt",
        "warm-up",
        new ByteArrayInputStream(new byte[STRIPED]),
        STRIPED,
        ObjectStore.PutOptions.defaults());
    return writer;
  }

  private VersionMeta put(ErasureStore store, byte[] data) {
    VersionMeta meta =
        store.put(
            "bkt",
            "k",
            new ByteArrayInputStream(data),
            data.length,
            ObjectStore.PutOptions.defaults());
    // What makes a cold GET guess: the version took its data's id.
    assertThat(VersionId.Mark.of(meta.versionId())).isEqualTo(VersionId.Mark.DATA);
    assertThat(meta.versionId()).isEqualTo(meta.parts().get(0).dataId());
    return meta;
  }

  private static byte[] read(ErasureStore store) {
    try (ObjectStore.ObjectReader reader = store.get("bkt", "k", 0, -1, 0);
        InputStream body = reader.body()) {
      return body.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void coldGet_whenAGuessedShardIsLate_hedgesByItsRepositorysOwnLatency() throws Exception {
    StoreConfig config =
        config().slowShardTimeout(LONG).stallGrace(LONG).hedge(StoreConfig.Hedge.DEFAULT).build();
    byte[] data = StoreFixture.bytes(seed, STRIPED);
    VersionMeta meta = put(writer(config), data);

    // A proxy that has read nothing, over repositories where shard 0's does not answer the
    // guess's read of it.
    FaultyRepository.Gate shard0 =
        new FaultyRepository.Gate(Operation.GET, Layout.shard(meta.versionId(), 0)::equals);
    ErasureStore cold = open(config, shard0.arm(1));
    stores.add(cold);
    // Every repository has answered shard reads in 100 µs lately: one that has not answered
    // within its hedge delay (the 2 ms minimum) is late.
    LatencyEstimates latencies = cold.context().array.latencies();
    for (int slot = 0; slot < 6; slot++) {
      for (int i = 0; i < LatencyEstimates.SAMPLES; i++) {
        latencies.record(slot, LatencyEstimates.Kind.SHARD, 100_000);
      }
    }

    assertThat(read(cold)).isEqualTo(data);
    shard0.awaitHeld(1, WAIT); // it was the guess's read that waited
    assertThat(cold.stats().hedgedShardReads()).isPositive();
  }

  @Test
  void coldGet_whenTheStoreClosesBeforeTheReaderTakesTheGuess_closesEveryGuessedStream()
      throws Exception {
    // No hedge of the held record read: one copy is asked until the store closes.
    StoreConfig config = config().slowShardTimeout(LONG).stallGrace(LONG).build();
    put(writer(config), StoreFixture.bytes(seed + 1, STRIPED));
    FaultyRepository.Gate records =
        new FaultyRepository.Gate(Operation.GET, name -> name.startsWith("i/bkt/k"));

    ErasureStore reader = open(config, records); // a proxy that has read nothing; closed below
    records.arm(1);
    CompletableFuture<byte[]> get = CompletableFuture.supplyAsync(() -> read(reader), async);
    records.awaitHeld(1, WAIT);
    // The record's read is held; the guess's k shard reads have their streams.
    Await.until("the guess's streams open", WAIT, () -> openShardStreams.get() == 4);
    // The store closes (a proxy shutting down): its executor takes no more work, so the reader
    // the record confirms cannot start its sources.
    reader.close();
    records.open();
    assertThat(get).failsWithin(WAIT);
    Await.until(
        "every guessed stream closed (open: " + openShardStreams + ")",
        WAIT,
        () -> openShardStreams.get() == 0);
  }

  /** Counts the shard streams it hands out until they are closed; its own close does nothing. */
  private final class Tracked extends ForwardingRepository {
    Tracked(Repository delegate) {
      super(delegate);
    }

    @Override
    public ObjectStream get(String key, long offset, long lengthBytes) {
      ObjectStream stream = super.get(key, offset, lengthBytes);
      if (!key.startsWith(Layout.dataPrefix())) {
        return stream;
      }
      openShardStreams.incrementAndGet();
      AtomicBoolean closed = new AtomicBoolean();
      return new ObjectStream(
          stream.info(),
          new FilterInputStream(stream) {
            @Override
            public void close() throws IOException {
              if (closed.compareAndSet(false, true)) {
                openShardStreams.decrementAndGet();
              }
              super.close();
            }
          });
    }

    @Override
    public void close() {
      // The repositories outlive the stores of a test.
    }
  }
}
