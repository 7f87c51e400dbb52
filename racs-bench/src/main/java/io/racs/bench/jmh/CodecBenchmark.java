package io.racs.bench.jmh;

import io.racs.proxy.codec.ErasureCodec;
import io.racs.proxy.codec.Geometry;
import io.racs.proxy.codec.Implementation;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Single-threaded Reed-Solomon encode and reconstruct (m data shards missing) for the vector path,
 * the scalar path and the byte-table baseline, side by side in one run. Throughput is operations
 * per second; one operation codes {@code k × shardSize} bytes of data, so GB/s of data = ops/s × k
 * × shardSize / 1e9 ({@code racs bench jmh} prints that table).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
    value = 1,
    jvmArgsAppend = {"--add-modules=jdk.incubator.vector", "-Xms1g", "-Xmx1g"})
public class CodecBenchmark {
  /** Data x parity shards. */
  @Param({"4x2", "6x3", "8x4", "10x4"})
  public String geometry;

  /** Bytes per shard. */
  @Param({"65536", "1048576"})
  public int shardSize;

  /** {@code vector}, {@code scalar}, or {@code table} (the byte-table baseline). */
  @Param({"vector", "scalar", "table"})
  public String implementation;

  private ErasureCodec codec;
  private ByteTableCoder tableEncoder;
  private ByteTableCoder tableDecoder;
  private byte[][] shards;
  private boolean[] present;
  private byte[][] decodeInputs;
  private byte[][] decodeOutputs;
  private byte[][] parityOutputs;

  /** Builds the coder and fills the data shards from a fixed seed. */
  @Setup
  public void setUp() {
    Geometry g = Geometry.parse(geometry);
    int k = g.dataShards();
    int m = g.parityShards();
    shards = new byte[g.totalShards()][shardSize];
    Random random = new Random(20261122L);
    for (int i = 0; i < k; i++) {
      random.nextBytes(shards[i]);
    }
    present = new boolean[g.totalShards()];
    Arrays.fill(present, true);
    for (int i = 0; i < m; i++) {
      present[i] = false; // m data shards missing: the hardest read
    }
    if (implementation.equals("table")) {
      tableEncoder = ByteTableCoder.encoder(g);
      tableDecoder = ByteTableCoder.decoder(g, present);
      parityOutputs = Arrays.copyOfRange(shards, k, k + m);
      int[] used = ByteTableCoder.usedInputs(present, k);
      decodeInputs = new byte[k][];
      for (int c = 0; c < k; c++) {
        decodeInputs[c] = shards[used[c]];
      }
      int[] missing = ByteTableCoder.missing(present);
      decodeOutputs = new byte[missing.length][];
      for (int o = 0; o < missing.length; o++) {
        decodeOutputs[o] = shards[missing[o]];
      }
      tableEncoder.code(shards, parityOutputs, shardSize);
    } else {
      codec = ErasureCodec.create(g, Implementation.valueOf(implementation.toUpperCase()));
      codec.encodeParity(shards, 0, shardSize);
    }
  }

  /** Computes the m parity shards from the k data shards. */
  @Benchmark
  public void encode(Blackhole bh) {
    if (codec != null) {
      codec.encodeParity(shards, 0, shardSize);
    } else {
      tableEncoder.code(shards, parityOutputs, shardSize);
    }
    bh.consume(shards);
  }

  /** Rebuilds m missing data shards from the remaining k shards. */
  @Benchmark
  public void reconstruct(Blackhole bh) {
    if (codec != null) {
      codec.reconstructData(shards, present, 0, shardSize);
    } else {
      tableDecoder.code(decodeInputs, decodeOutputs, shardSize);
    }
    bh.consume(shards);
  }
}
