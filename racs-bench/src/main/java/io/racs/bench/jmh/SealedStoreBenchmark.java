package io.racs.bench.jmh;

import io.racs.proxy.codec.Geometry;
import io.racs.proxy.crypto.Keyring;
import io.racs.proxy.crypto.MasterKey;
import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.ObjectStore;
import io.racs.proxy.store.Sealing;
import io.racs.proxy.store.StoreConfig;
import io.racs.repos.Repository;
import io.racs.repos.memory.MemoryRepository;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * What encryption at the proxy costs, side by side in one run: PUT and GET of an object through the
 * store over six memory repositories (4x2, 1 MiB stripes, one client thread) stored as sent and
 * sealed with SSE-S3 (AES-256-GCM in 64 KiB chunks). The target is sealed/plain at least
 * 0.85 on one core; run it with {@code taskset -c 0} to hold it to one.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 10, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
    value = 1,
    jvmArgsAppend = {"--add-modules=jdk.incubator.vector", "-Xms2g", "-Xmx2g"})
public class SealedStoreBenchmark {
  /** Object size. */
  @Param({"1048576", "67108864"})
  public int sizeBytes;

  /** {@code none} or {@code SSE-S3}. */
  @Param({"none", "SSE-S3"})
  public String sse;

  private byte[] data;
  private ErasureStore store;
  private ExecutorService callers;
  private ObjectStore.PutOptions options;

  /** Six memory repositories and an object stored for the GETs. */
  @Setup(Level.Trial)
  public void setUp() {
    data = new byte[sizeBytes];
    new Random(20261124L).nextBytes(data);
    List<Repository> repositories = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      repositories.add(MemoryRepository.create("mem" + i));
    }
    store =
        ErasureStore.open(
            StoreConfig.builder(Geometry.of(4, 2))
                // Overwrites' superseded versions are collected at once, not after the default
                // 60 s: at hundreds of PUTs a second they would fill the memory repositories.
                .settleTime(java.time.Duration.ZERO)
                .keys(Keyring.of(MasterKey.generate()))
                .build(),
            repositories);
    store.createBucket("bench");
    options =
        ObjectStore.PutOptions.defaults()
            .withSealing(sse.equals("none") ? Sealing.NONE : Sealing.S3_MANAGED);
    store.put("bench", "read", new ByteArrayInputStream(data), sizeBytes, options);
    callers = Executors.newVirtualThreadPerTaskExecutor();
  }

  /** Closes the store. */
  @TearDown(Level.Trial)
  public void tearDown() {
    callers.close();
    store.close();
  }

  /** A PUT through the store (overwriting: the previous version is collected too). */
  @Benchmark
  public Object put() throws InterruptedException, ExecutionException {
    return callers
        .submit(
            () -> store.put("bench", "write", new ByteArrayInputStream(data), sizeBytes, options))
        .get();
  }

  /** A whole-object GET through the store. */
  @Benchmark
  public long get(Blackhole bh) throws InterruptedException, ExecutionException {
    return callers
        .submit(
            () -> {
              byte[] buffer = new byte[1 << 16];
              long total = 0;
              try (ObjectStore.ObjectReader reader = store.get("bench", "read", 0, -1, 0)) {
                InputStream in = reader.body();
                for (int n; (n = in.read(buffer)) > 0; ) {
                  total += n;
                  bh.consume(buffer);
                }
              }
              return total;
            })
        .get();
  }
}
