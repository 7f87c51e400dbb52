package io.racs.bench.jmh;

import io.racs.proxy.codec.ErasureCodec;
import io.racs.proxy.codec.Geometry;
import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.api.StoreConfig;
import io.racs.repos.Repository;
import io.racs.repos.memory.MemoryRepository;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
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
 * What the store's data path costs beyond its two unavoidable computations, measured side by side
 * in one run: PUT and GET of an object through the store over six memory repositories (4x2, 1 MiB
 * stripes, single client thread), next to encoding the same bytes with the codec alone and hashing
 * them with MD5 alone (the ETag). One operation handles {@code sizeBytes} bytes of data.
 *
 * <p>Each store operation runs on a virtual thread, as the proxy serves every request on one (the
 * benchmark thread hands it over and waits): the store's own hand-offs to its repository threads
 * then cost what they cost in the proxy, not the futex round trips of waking a platform thread.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
// On one core the JIT competes with the measured thread: a 1 MiB PUT still rose from 600 to 700
// PUT/s between the 6th and the 10th two-second iteration, and was flat from then on.
@Warmup(iterations = 10, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
    value = 1,
    jvmArgsAppend = {"--add-modules=jdk.incubator.vector", "-Xms2g", "-Xmx2g"})
public class StoreBenchmark {
  /** Object size. */
  @Param({"1048576", "67108864"})
  public int sizeBytes;

  private byte[] data;
  private ErasureStore store;
  private ErasureCodec codec;
  private byte[][] stripe;
  private MessageDigest md5;
  private ExecutorService callers;

  /** Six memory repositories, an object stored for the GETs, and the raw codec. */
  @Setup(Level.Trial)
  public void setUp() throws NoSuchAlgorithmException {
    data = new byte[sizeBytes];
    new Random(20261122L).nextBytes(data);
    List<Repository> repositories = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      repositories.add(MemoryRepository.create("mem" + i));
    }
    // Overwrites' superseded versions are collected at once, not after the default settle time
    // (60 s): at hundreds of PUTs a second they would fill the memory repositories (the PUTs
    // failed with OutOfMemoryError once the settle time came in).
    store =
        ErasureStore.open(
            StoreConfig.builder(Geometry.of(4, 2)).settleTime(java.time.Duration.ZERO).build(),
            repositories);
    store.createBucket("bench");
    store.put(
        "bench",
        "read",
        new ByteArrayInputStream(data),
        sizeBytes,
        ObjectStore.PutOptions.defaults());
    codec = ErasureCodec.create(Geometry.of(4, 2));
    stripe = new byte[6][(1 << 20) / 4];
    md5 = MessageDigest.getInstance("MD5");
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
  public Object storePut() throws InterruptedException, ExecutionException {
    return callers
        .submit(
            () ->
                store.put(
                    "bench",
                    "write",
                    new ByteArrayInputStream(data),
                    sizeBytes,
                    ObjectStore.PutOptions.defaults()))
        .get();
  }

  /** A whole-object GET through the store. */
  @Benchmark
  public long storeGet(Blackhole bh) throws InterruptedException, ExecutionException {
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

  /** Encoding the same bytes, stripe by stripe, with the codec alone. */
  @Benchmark
  public byte[][] codecEncode() {
    int piece = stripe[0].length;
    for (int offset = 0; offset < sizeBytes; offset += 4 * piece) {
      for (int i = 0; i < 4; i++) {
        System.arraycopy(data, offset + i * piece, stripe[i], 0, piece);
      }
      codec.encodeParity(stripe, 0, piece);
    }
    return stripe;
  }

  /** Hashing the same bytes with MD5 alone. */
  @Benchmark
  public byte[] md5() {
    md5.reset();
    md5.update(data);
    return md5.digest();
  }
}
