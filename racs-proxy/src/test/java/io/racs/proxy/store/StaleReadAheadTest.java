package io.racs.proxy.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.codec.Geometry;
import io.racs.repos.ObjectStream;
import io.racs.repos.Repository;
import io.racs.repos.decorator.ForwardingRepository;
import io.racs.repos.decorator.Operation;
import io.racs.repos.memory.MemoryRepository;
import io.racs.testkit.CountingRepository;
import io.racs.testkit.CountingRepository.Kind;
import io.racs.testkit.CountingRepository.Ledger;
import io.racs.testkit.TestSeed;
import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A GET reads the version it served last beside the listing (its read-ahead hint), but takes none
 * of its bytes until the listing confirms it is still the newest. When another proxy has replaced
 * it meanwhile, the early read is dropped having asked for its shards and read nothing: it used to
 * read and check the whole old version, which with three proxies round robin was a third of the
 * GETs' reads thrown away (docs/bench/scaleout.md).
 */
class StaleReadAheadTest {
  private static final Duration WAIT = Duration.ofSeconds(20);
  private static final int SIZE = (1 << 20) + 777; // striped

  private final Map<String, LongAdder> bytesRead = new ConcurrentHashMap<>();
  private final List<ErasureStore> stores = new ArrayList<>();
  private final ExecutorService async = Executors.newVirtualThreadPerTaskExecutor();
  private GatedRepository.Gate gate;

  @AfterEach
  void close() {
    if (gate != null) {
      gate.open();
    }
    stores.forEach(ErasureStore::close);
    async.shutdownNow();
  }

  /** A repository that counts the bytes read from each object it serves. */
  private final class ByteCounting extends ForwardingRepository {
    ByteCounting(Repository delegate) {
      super(delegate);
    }

    @Override
    public ObjectStream get(String key, long offset, long lengthBytes) {
      ObjectStream stream = super.get(key, offset, lengthBytes);
      LongAdder count = bytesRead.computeIfAbsent(key, k -> new LongAdder());
      return new ObjectStream(
          stream.info(),
          new FilterInputStream(stream) {
            @Override
            public int read() throws IOException {
              int b = super.read();
              count.add(b < 0 ? 0 : 1);
              return b;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
              int n = super.read(b, off, len);
              count.add(Math.max(0, n));
              return n;
            }
          });
    }
  }

  private long bytesReadOf(String dataId) {
    return bytesRead.entrySet().stream()
        .filter(e -> Layout.dataIdOfShard(e.getKey()).equals(dataId))
        .mapToLong(e -> e.getValue().sum())
        .sum();
  }

  private static byte[] read(ErasureStore store) {
    try (ObjectStore.ObjectReader reader = store.get("bkt", "k", 0, -1, 0);
        InputStream body = reader.body()) {
      return body.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static VersionMeta put(ErasureStore store, byte[] data) {
    return store.put(
        "bkt", "k", new ByteArrayInputStream(data), data.length, ObjectStore.PutOptions.defaults());
  }

  @Test
  void get_whenAnotherProxyReplacedTheVersionServedLast_readsNoByteOfIt() throws Exception {
    gate = new GatedRepository.Gate(Operation.LIST, prefix -> prefix.startsWith("i/bkt/k"));
    Ledger ledger = new Ledger(6);
    List<Repository> repositories = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      repositories.add(new ByteCounting(MemoryRepository.create("mem" + i)));
    }
    List<Repository> wrapped =
        CountingRepository.wrap(GatedRepository.wrap(repositories, gate), ledger);
    StoreConfig config = StoreConfig.builder(Geometry.parse("4x2")).build();
    ErasureStore writer = ErasureStore.open(config, wrapped);
    stores.add(writer);
    ErasureStore reader = ErasureStore.open(config, wrapped);
    stores.add(reader);
    writer.createBucket("bkt");
    Random random = new Random(TestSeed.get());
    byte[] first = new byte[SIZE];
    random.nextBytes(first);
    VersionMeta served = put(writer, first);
    assertThat(read(reader)).isEqualTo(first); // the reader's hint: the first version
    byte[] second = new byte[SIZE];
    random.nextBytes(second);
    put(writer, second); // through the other proxy: the reader's hint is stale

    assertThat(ledger.awaitIdle(WAIT)).isTrue();
    ledger.reset();
    bytesRead.clear();
    gate.arm(6);
    CompletableFuture<byte[]> get = CompletableFuture.supplyAsync(() -> read(reader), async);
    try {
      gate.awaitHeld(6, WAIT);
      // The listing is held: the early read has asked for the old version's k data shards.
      assertThat(ledger.awaitStarted(Kind.GET, 4, WAIT)).isTrue();
    } finally {
      gate.open();
    }
    assertThat(get.get()).isEqualTo(second);
    assertThat(ledger.awaitIdle(WAIT)).isTrue();
    String old = served.parts().get(0).dataId();
    assertThat(ledger.calls().stream().filter(c -> Layout.dataIdOfShard(c.key()).equals(old)))
        .as("the old version's shards asked for early")
        .hasSize(4);
    assertThat(bytesReadOf(old)).as("bytes read of the old version").isZero();
    // Dropping it is no failure: nothing counts as unavailable or degraded.
    assertThat(reader.stats().unavailablePieces()).isZero();
    assertThat(reader.stats().degradedStripes()).isZero();
  }
}
