package io.racs.bench.jmh;

import io.racs.proxy.hash.MultiMd5;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Random;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * MD5 of as many messages as the CPU has vector lanes ({@link MultiMd5#lanes()}: 8 on 256-bit
 * vectors, 16 on 512-bit), one after another with the JDK's {@code MessageDigest} (its intrinsic)
 * and all at once with {@link MultiMd5}. Both benchmarks hash the same bytes per operation, so
 * their throughputs compare directly: what a batch of concurrent uploads' ETags costs one core.
 *
 * <pre>{@code ./racs bench jmh Md5Benchmark -prof gc}</pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--add-modules=jdk.incubator.vector")
public class Md5Benchmark {
  /** Bytes per message. */
  @Param({"65536", "1048576"})
  public int size;

  private byte[][] messages;
  private MessageDigest md5;

  /** One message per lane, of seeded random bytes. */
  @Setup(Level.Trial)
  public void setUp() throws NoSuchAlgorithmException {
    Random random = new Random(20261202L);
    messages = new byte[MultiMd5.lanes()][size];
    for (byte[] m : messages) {
      random.nextBytes(m);
    }
    md5 = MessageDigest.getInstance("MD5");
  }

  /** Every message's MD5 with the JDK, one stream after another. */
  @Benchmark
  public int jdk() {
    int x = 0;
    for (byte[] m : messages) {
      x ^= md5.digest(m)[0];
    }
    return x;
  }

  /** Every message's MD5 at once, one per lane. */
  @Benchmark
  public int multiBuffer() {
    int x = 0;
    for (byte[] d : MultiMd5.digest(messages)) {
      x ^= d[0];
    }
    return x;
  }
}
