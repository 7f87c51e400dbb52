package io.racs.bench.jmh;

import io.racs.proxy.crypto.ChunkSealer;
import io.racs.proxy.crypto.DataKey;
import io.racs.proxy.crypto.SealedLayout;
import io.racs.proxy.crypto.TamperedDataException;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The cipher alone: sealing and opening one 64 KiB chunk with AES-256-GCM through the JCA, as
 * {@code SealingInputStream} and {@code OpeningInputStream} do for every chunk. Run beside {@link
 * SealedStoreBenchmark}: the GET ratio there cannot exceed {@code 1 / (1 + plainGet / open)} in
 * bytes per second, whatever the code around the cipher does ({@code docs/bench/encryption.md}).
 * {@code -prof gc} shows what the JCA allocates per chunk.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ChunkSealerBenchmark {
  private ChunkSealer sealer;
  private byte[] plain;
  private byte[] sealed;
  private byte[] out;
  private long index = 1; // chunk 0 was sealed in setUp (the JCA refuses a nonce twice in a row)

  /** One data key, one chunk of random plaintext and its sealed form. */
  @Setup(Level.Trial)
  public void setUp() {
    sealer = DataKey.generate().sealer(1);
    plain = new byte[SealedLayout.CHUNK_BYTES];
    new Random(20261124L).nextBytes(plain);
    sealed = new byte[SealedLayout.SEALED_CHUNK_BYTES];
    out = new byte[SealedLayout.SEALED_CHUNK_BYTES];
    sealer.seal(0, false, plain, 0, plain.length, sealed, 0);
  }

  /** Seals one chunk (under a new index each time, as a stream does). */
  @Benchmark
  public int seal() {
    return sealer.seal(index++, false, plain, 0, plain.length, out, 0);
  }

  /** Opens one chunk. */
  @Benchmark
  public int open() throws TamperedDataException {
    return sealer.open(0, false, sealed, 0, sealed.length, out, 0);
  }
}
