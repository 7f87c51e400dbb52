package io.racs.bench.jmh;

import io.racs.proxy.codec.Geometry;
import io.racs.proxy.crypto.Keyring;
import io.racs.proxy.crypto.MasterKey;
import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.api.StoreConfig;
import io.racs.proxy.store.format.Sealing;
import io.racs.repos.Repository;
import io.racs.repos.fs.FsRepository;
import io.racs.repos.memory.MemoryRepository;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
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
 * store over six repositories (4x2, 1 MiB stripes, one client thread) stored as sent and sealed
 * with SSE-S3 (AES-256-GCM in 64 KiB chunks). The target is sealed/plain at least 0.85 on
 * one core; run it with {@code taskset -c 0} to hold it to one.
 *
 * <p>{@code memory} repositories make the plain path as fast as it can be (little more than copies
 * and CRC32C), so the cipher weighs the most there; {@code fs} ones are local directories (in the
 * system's temporary directory, without fsync: the page cache and the system calls, not the disk),
 * the nearest this bench comes to a repository a proxy really has.
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

  /** {@code memory} or {@code fs}. */
  @Param({"memory", "fs"})
  public String repositories;

  private byte[] data;
  private ErasureStore store;
  private ExecutorService callers;
  private ObjectStore.PutOptions options;
  private Path root;

  /** Six repositories and an object stored for the GETs. */
  @Setup(Level.Trial)
  public void setUp() throws IOException {
    data = new byte[sizeBytes];
    new Random(20261124L).nextBytes(data);
    List<Repository> slots = new ArrayList<>();
    if (repositories.equals("fs")) {
      root = Files.createTempDirectory("racs-jmh-");
      for (int i = 0; i < 6; i++) {
        slots.add(
            FsRepository.builder(Files.createDirectory(root.resolve("fs" + i)))
                .name("fs" + i)
                .durable(false)
                .build());
      }
    } else if (repositories.equals("memory")) {
      for (int i = 0; i < 6; i++) {
        slots.add(MemoryRepository.create("mem" + i));
      }
    } else {
      throw new IllegalArgumentException(
          "repositories: " + repositories + " (expected: memory or fs)");
    }
    store =
        ErasureStore.open(
            StoreConfig.builder(Geometry.of(4, 2))
                // Overwrites' superseded versions are collected at once, not after the default
                // 60 s: at hundreds of PUTs a second they would fill the memory repositories.
                .settleTime(java.time.Duration.ZERO)
                .keys(Keyring.of(MasterKey.generate()))
                .build(),
            slots);
    store.createBucket("bench");
    options =
        ObjectStore.PutOptions.defaults()
            .withSealing(sse.equals("none") ? Sealing.NONE : Sealing.S3_MANAGED);
    store.put("bench", "read", new ByteArrayInputStream(data), sizeBytes, options);
    callers = Executors.newVirtualThreadPerTaskExecutor();
  }

  /** Closes the store, and removes the fs repositories' directories. */
  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    callers.close();
    store.close();
    if (root != null) {
      try (Stream<Path> paths = Files.walk(root)) {
        for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(p);
        }
      }
    }
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
