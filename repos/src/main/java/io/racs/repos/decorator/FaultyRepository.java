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
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
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
 *   <li>{@link #full(boolean)}: every put fails with {@code FULL} ("No space left on device"), as
 *       on a full disk, until turned off; everything else works;
 *   <li>{@link #corruptReads(boolean)}: gets return bodies with flipped bytes (the first, and one
 *       every 4096 after), as bitrot would, without any error;
 *   <li>{@link #stall(Operation)}: the next call of an operation blocks until the test releases it,
 *       to force races without sleeping;
 *   <li>{@link #freeze()}: every call blocks until {@link #thaw()}, as calls to a stopped process
 *       (SIGSTOP) or a hung mount do;
 *   <li>{@link #hold(Gate)}: the next few calls of an operation on chosen keys block until the
 *       {@link Gate} opens; one gate can span every repository of an array ({@link #gated}).
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
  private final List<Gate> gates = new CopyOnWriteArrayList<>();
  private volatile boolean outage;
  private volatile boolean full;
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

  /**
   * Starts ({@code true}) or ends a full disk: every put fails with {@code FULL} and the message a
   * full file system gives, while reads, listings and deletes work.
   */
  public FaultyRepository full(boolean full) {
    this.full = full;
    return this;
  }

  /** Turns corruption of read bodies on or off. */
  public FaultyRepository corruptReads(boolean corruptReads) {
    this.corruptReads = corruptReads;
    return this;
  }

  /** Removes every armed fault (stalls and gates stay until released or opened). */
  public FaultyRepository clearFaults() {
    failingCalls.clear();
    failingKeys.clear();
    failingOperations.clear();
    randomFailures = null;
    outage = false;
    full = false;
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

  /**
   * Holds the next few calls of one operation on keys that match (a listing: its prefix) until
   * opened: the held write or read that forces a race into one order. Unlike a {@link Stall}, which
   * holds the next call of an operation on one repository whatever its key, a gate picks calls by
   * key (a shard object, a version record) and may span every repository of an array ({@link
   * #gated}), so a test can hold, for example, every shard write of one PUT and nothing else.
   *
   * <p>A call holds before it reaches the repository, so nothing it would change has changed while
   * it waits; calls after the armed number pass, so the store's own later work (a collection, a
   * second read) is not held.
   */
  public static final class Gate {
    private final Operation operation;
    private final Predicate<String> keys;
    private final AtomicInteger toHold = new AtomicInteger();
    private final Semaphore held = new Semaphore(0);
    private final Semaphore completed = new Semaphore(0);
    private volatile CountDownLatch open = new CountDownLatch(1);

    /** A gate, holding nothing until {@link #arm(int)}, on calls of {@code operation} on keys. */
    public Gate(Operation operation, Predicate<String> keys) {
      this.operation = Objects.requireNonNull(operation, "operation");
      this.keys = Objects.requireNonNull(keys, "keys");
    }

    /** The next {@code calls} matching calls wait until {@link #open()}. */
    public Gate arm(int calls) {
      toHold.set(calls);
      return this;
    }

    /**
     * Lets every held call through, as {@link #open()} does, and then holds the next {@code calls}
     * matching calls until the next {@link #open()}: one gate for a test's several writes in turn.
     */
    public Gate rearm(int calls) {
      open.countDown();
      open = new CountDownLatch(1);
      held.drainPermits();
      toHold.set(calls);
      return this;
    }

    /** Lets every held call through, and holds no more. */
    public void open() {
      toHold.set(0);
      open.countDown();
    }

    /**
     * Waits until {@code calls} matching calls are held.
     *
     * @throws AssertionError if they are not within {@code timeout}
     */
    public void awaitHeld(int calls, Duration timeout) throws InterruptedException {
      await(held, "held", calls, timeout);
    }

    /**
     * Waits until {@code calls} matching calls have returned from the repository (held ones count
     * once released), so a test knows the writes of a PUT that were not held have landed.
     *
     * @throws AssertionError if they have not within {@code timeout}
     */
    public void awaitCompleted(int calls, Duration timeout) throws InterruptedException {
      await(completed, "completed", calls, timeout);
    }

    private static void await(Semaphore counted, String what, int calls, Duration timeout)
        throws InterruptedException {
      if (!counted.tryAcquire(calls, timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new AssertionError(
            what
                + " calls: "
                + counted.availablePermits()
                + " within "
                + timeout
                + " (expected: "
                + calls
                + ")");
      }
      counted.release(calls);
    }

    private void done(Operation called, String key) {
      if (called == operation && keys.test(key)) {
        completed.release();
      }
    }

    private void pass(Operation called, String key) {
      if (called != operation
          || !keys.test(key)
          || toHold.getAndUpdate(n -> Math.max(0, n - 1)) == 0) {
        return;
      }
      CountDownLatch opened = open;
      held.release();
      try {
        opened.await();
      } catch (InterruptedException e) {
        // As before the gate: the call goes on, and whoever interrupted sees the flag.
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Puts this repository's calls behind {@code gate} too (gates added later are passed later). */
  public FaultyRepository hold(Gate gate) {
    gates.add(Objects.requireNonNull(gate, "gate"));
    return this;
  }

  /** {@code repositories}, each behind a new {@code FaultyRepository} held by {@code gate}. */
  public static List<Repository> gated(List<? extends Repository> repositories, Gate gate) {
    List<Repository> wrapped = new ArrayList<>();
    for (Repository repository : repositories) {
      wrapped.add(new FaultyRepository(repository).hold(gate));
    }
    return wrapped;
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
    ObjectInfo info = super.put(key, body, lengthBytes);
    done(Operation.PUT, key);
    return info;
  }

  @Override
  public ObjectStream get(String key, long offset, long lengthBytes) {
    before(Operation.GET, key);
    ObjectStream stream = super.get(key, offset, lengthBytes);
    done(Operation.GET, key);
    if (!corruptReads) {
      return stream;
    }
    return new ObjectStream(stream.info(), new CorruptingStream(stream, offset));
  }

  @Override
  public Optional<ObjectInfo> head(String key) {
    before(Operation.HEAD, key);
    Optional<ObjectInfo> info = super.head(key);
    done(Operation.HEAD, key);
    return info;
  }

  @Override
  public void delete(String key) {
    before(Operation.DELETE, key);
    super.delete(key);
    done(Operation.DELETE, key);
  }

  @Override
  public void discard(String key) {
    before(Operation.DELETE, key); // a discard is a delete to every fault rule
    super.discard(key);
    done(Operation.DELETE, key);
  }

  @Override
  public ListPage list(String prefix, String startAfter, int maxKeys) {
    // Key rules do not apply to a listing; a gate picks listings by their prefix.
    before(Operation.LIST, null, prefix);
    ListPage page = super.list(prefix, startAfter, maxKeys);
    done(Operation.LIST, prefix);
    return page;
  }

  @Override
  public void probe() {
    before(Operation.PROBE, null);
    super.probe();
  }

  private void before(Operation operation, String key) {
    before(operation, key, key);
  }

  /** Applies the faults to a call on {@code key}, which gates see as {@code gateKey}. */
  private void before(Operation operation, String key, String gateKey) {
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
    if (gateKey != null) {
      for (Gate gate : gates) {
        gate.pass(operation, gateKey);
      }
    }
    if (outage) {
      throw fail(Kind.UNAVAILABLE, operation, key, "injected outage");
    }
    if (full && operation == Operation.PUT) {
      throw fail(Kind.FULL, operation, key, "No space left on device (injected)");
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

  /** Tells the gates that a call has returned from the delegate. */
  private void done(Operation operation, String key) {
    for (Gate gate : gates) {
      gate.done(operation, key);
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
