package io.racs.repos.decorator;

import io.racs.repos.Keys;
import io.racs.repos.ListPage;
import io.racs.repos.ObjectInfo;
import io.racs.repos.ObjectStream;
import io.racs.repos.Repository;
import io.racs.repos.RepositoryException;
import io.racs.repos.RepositoryException.Kind;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;

/**
 * Injects scripted faults, for tests of whatever sits on top (the striping store's quorum and
 * repair paths) and for failure benchmarks. All faults are deterministic or seeded, so a failing
 * run replays:
 *
 * <ul>
 *   <li>{@link #failCall(long, Kind)}: the Nth call (counting every call from 1) fails;
 *   <li>{@link #failKeys(Pattern, Kind)}: calls on keys matching a pattern fail;
 *   <li>{@link #failOperation(Operation, Kind)}: every call of one operation fails;
 *   <li>{@link #failRandomly(double, long, Kind)}: each call fails with a probability, seeded;
 *   <li>{@link #outage(boolean)}: every call fails with {@code UNAVAILABLE} until turned off;
 *   <li>{@link #corruptReads(boolean)}: gets return bodies with flipped bytes (the first, and one
 *       every 4096 after), as bitrot would, without any error;
 *   <li>{@link #stall(Operation)}: the next call of an operation blocks until the test releases it,
 *       to force races without sleeping;
 *   <li>{@link #freeze()}: every call blocks until {@link #thaw()}, as calls to a stopped process
 *       (SIGSTOP) or a hung mount do.
 * </ul>
 *
 * <p>Failing calls fail before reaching the delegate, so nothing changes behind them. Faults can be
 * changed at any time from any thread.
 */
public final class FaultyRepository extends ForwardingRepository {
  /** Corrupted reads flip one byte in every this many. */
  public static final int CORRUPTION_STRIDE_BYTES = 4096;

  private final AtomicLong calls = new AtomicLong();
  private final Map<Long, Kind> failingCalls = new ConcurrentHashMap<>();
  private final Map<Pattern, Kind> failingKeys = new ConcurrentHashMap<>();
  private final Map<Operation, Kind> failingOperations = new ConcurrentHashMap<>();
  private final ConcurrentLinkedQueue<Stall> stalls = new ConcurrentLinkedQueue<>();
  private volatile boolean outage;
  private volatile CountDownLatch frozen;
  private volatile boolean corruptReads;
  private volatile RandomFailures randomFailures;

  private record RandomFailures(double rate, Random random, Kind kind) {}

  /** Wraps {@code delegate} with no faults armed. */
  public FaultyRepository(Repository delegate) {
    super(delegate);
  }

  /** Makes call number {@code n} (1-based, across all operations) fail with {@code kind}. */
  public FaultyRepository failCall(long n, Kind kind) {
    if (n < 1) {
      throw new IllegalArgumentException("n: " + n + " (expected: >= 1)");
    }
    failingCalls.put(n, Objects.requireNonNull(kind, "kind"));
    return this;
  }

  /** Makes every call on a key matching {@code pattern} (in full) fail with {@code kind}. */
  public FaultyRepository failKeys(Pattern pattern, Kind kind) {
    failingKeys.put(pattern, Objects.requireNonNull(kind, "kind"));
    return this;
  }

  /**
   * Makes every call of {@code operation} fail with {@code kind} (a discard counts as a delete): a
   * repository that takes writes but cannot delete, say.
   */
  public FaultyRepository failOperation(Operation operation, Kind kind) {
    failingOperations.put(
        Objects.requireNonNull(operation, "operation"), Objects.requireNonNull(kind, "kind"));
    return this;
  }

  /** Makes each call fail with probability {@code rate}, drawn from a generator seeded once. */
  public FaultyRepository failRandomly(double rate, long seed, Kind kind) {
    if (!(rate >= 0 && rate <= 1)) {
      throw new IllegalArgumentException("rate: " + rate + " (expected: 0 to 1)");
    }
    randomFailures = new RandomFailures(rate, new Random(seed), kind);
    return this;
  }

  /** Starts ({@code true}) or ends a full outage: every call fails with {@code UNAVAILABLE}. */
  public FaultyRepository outage(boolean outage) {
    this.outage = outage;
    return this;
  }

  /** Turns corruption of read bodies on or off. */
  public FaultyRepository corruptReads(boolean corruptReads) {
    this.corruptReads = corruptReads;
    return this;
  }

  /** Removes every armed fault (stalls already waiting stay until released). */
  public FaultyRepository clearFaults() {
    failingCalls.clear();
    failingKeys.clear();
    failingOperations.clear();
    randomFailures = null;
    outage = false;
    corruptReads = false;
    return this;
  }

  /** The number of calls so far. */
  public long calls() {
    return calls.get();
  }

  /** Makes every call block, before reaching the delegate, until {@link #thaw()}. */
  public FaultyRepository freeze() {
    if (frozen == null) {
      frozen = new CountDownLatch(1);
    }
    return this;
  }

  /** Lets every call blocked by {@link #freeze()} proceed, and later ones run. */
  public FaultyRepository thaw() {
    CountDownLatch latch = frozen;
    frozen = null;
    if (latch != null) {
      latch.countDown();
    }
    return this;
  }

  /**
   * Arms a stall: the next call of {@code operation} blocks, before reaching the delegate, until
   * {@link Stall#release()}.
   */
  public Stall stall(Operation operation) {
    Stall stall = new Stall(operation);
    stalls.add(stall);
    return stall;
  }

  /** A call held by {@link #stall(Operation)}. */
  public static final class Stall {
    private final Operation operation;
    private final CountDownLatch arrived = new CountDownLatch(1);
    private final CountDownLatch released = new CountDownLatch(1);

    private Stall(Operation operation) {
      this.operation = operation;
    }

    /** Blocks until a call is held by this stall. */
    public void awaitStalled() throws InterruptedException {
      arrived.await();
    }

    /** Lets the held call (or the next one to arrive) proceed. */
    public void release() {
      released.countDown();
    }
  }

  @Override
  public Map<String, String> describe() {
    Map<String, String> description = new LinkedHashMap<>(super.describe());
    description.put("faulty", "true");
    return description;
  }

  @Override
  public ObjectInfo put(String key, InputStream body, long lengthBytes) {
    before(Operation.PUT, key);
    return super.put(key, body, lengthBytes);
  }

  @Override
  public ObjectStream get(String key, long offset, long lengthBytes) {
    before(Operation.GET, key);
    ObjectStream stream = super.get(key, offset, lengthBytes);
    if (!corruptReads) {
      return stream;
    }
    return new ObjectStream(stream.info(), new CorruptingStream(stream, offset));
  }

  @Override
  public Optional<ObjectInfo> head(String key) {
    before(Operation.HEAD, key);
    return super.head(key);
  }

  @Override
  public void delete(String key) {
    before(Operation.DELETE, key);
    super.delete(key);
  }

  @Override
  public void discard(String key) {
    before(Operation.DELETE, key); // a discard is a delete to every fault rule
    super.discard(key);
  }

  @Override
  public ListPage list(String prefix, String startAfter, int maxKeys) {
    before(Operation.LIST, null);
    return super.list(prefix, startAfter, maxKeys);
  }

  @Override
  public void probe() {
    before(Operation.PROBE, null);
    super.probe();
  }

  private void before(Operation operation, String key) {
    long n = calls.incrementAndGet();
    CountDownLatch latch = frozen;
    if (latch != null) {
      try {
        latch.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw fail(Kind.UNEXPECTED, operation, key, "interrupted while frozen");
      }
    }
    for (Stall stall : stalls) {
      if (stall.operation == operation && stalls.remove(stall)) {
        stall.arrived.countDown();
        try {
          stall.released.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw fail(Kind.UNEXPECTED, operation, key, "interrupted while stalled");
        }
        break;
      }
    }
    if (outage) {
      throw fail(Kind.UNAVAILABLE, operation, key, "injected outage");
    }
    Kind kind = failingCalls.remove(n);
    if (kind != null) {
      throw fail(kind, operation, key, "injected failure of call " + n);
    }
    Kind failing = failingOperations.get(operation);
    if (failing != null) {
      throw fail(failing, operation, key, "injected failure of every " + operation);
    }
    if (key != null) {
      for (Map.Entry<Pattern, Kind> entry : failingKeys.entrySet()) {
        if (entry.getKey().matcher(key).matches()) {
          throw fail(entry.getValue(), operation, key, "injected failure of " + entry.getKey());
        }
      }
    }
    RandomFailures random = randomFailures;
    if (random != null && random.random.nextDouble() < random.rate) {
      throw fail(random.kind, operation, key, "injected random failure");
    }
  }

  private RepositoryException fail(Kind kind, Operation operation, String key, String why) {
    return new RepositoryException(
        kind,
        name()
            + ": "
            + operation.name().toLowerCase(java.util.Locale.ROOT)
            + (key == null ? "" : " " + Keys.abbreviate(key))
            + ": "
            + why);
  }

  /** Flips the bytes whose object offset is a multiple of the stride. */
  private static final class CorruptingStream extends FilterInputStream {
    private long position;

    CorruptingStream(InputStream in, long offset) {
      super(in);
      this.position = offset;
    }

    @Override
    public int read() throws IOException {
      int b = super.read();
      if (b < 0) {
        return b;
      }
      return (position++ % CORRUPTION_STRIDE_BYTES == 0) ? (b ^ 0xff) : b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      int n = super.read(b, off, len);
      for (int i = 0; i < n; i++) {
        if ((position + i) % CORRUPTION_STRIDE_BYTES == 0) {
          b[off + i] ^= (byte) 0xff;
        }
      }
      position += Math.max(n, 0);
      return n;
    }

    @Override
    public long skip(long n) throws IOException {
      long skipped = super.skip(n);
      position += skipped;
      return skipped;
    }
  }
}
