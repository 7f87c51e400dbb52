package io.racs.bench.object.workload;

import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The objects one workload case uses on one target: {@code n} keys {@code PREFIX pNN/obj-NNNNNN}
 * spread over {@code prefixes} sub-prefixes, and, per key, which version was last stored, which was
 * last started, and whether it exists — so GETs pick existing objects and verification knows which
 * versions a read may legitimately see while puts race with it. Thread-safe.
 */
public final class KeySpace {
  /** No object under the key. */
  public static final int ABSENT = 0;

  /** The key holds an object. */
  public static final int PRESENT = 1;

  private final String prefix;
  private final int n;
  private final int prefixes;
  private final AtomicLongArray stored;
  private final AtomicLongArray started;
  private final AtomicIntegerArray state;
  private final AtomicIntegerArray deletes;
  private final AtomicIntegerArray deletesDone;
  // Nanoseconds since origin + 1 (0: never): when the latest delete of a key returned, and when the
  // latest put that has returned began. A put that began after every delete returned surely stored
  // its object; one that overlapped a delete may have been undone by it.
  private final long origin = System.nanoTime();
  private final AtomicLongArray lastDeleteDone;
  private final AtomicLongArray lastPutBegan;

  /**
   * A key space of {@code n} keys under {@code prefix}.
   *
   * @throws IllegalArgumentException when {@code n} or {@code prefixes} is not positive
   */
  public KeySpace(String prefix, int n, int prefixes) {
    if (n < 1) {
      throw new IllegalArgumentException("objects: " + n + " (expected: >= 1)");
    }
    if (prefixes < 1) {
      throw new IllegalArgumentException("prefixes: " + prefixes + " (expected: >= 1)");
    }
    this.prefix = prefix;
    this.n = n;
    this.prefixes = prefixes;
    this.stored = new AtomicLongArray(n);
    this.started = new AtomicLongArray(n);
    this.state = new AtomicIntegerArray(n);
    this.deletes = new AtomicIntegerArray(n);
    this.deletesDone = new AtomicIntegerArray(n);
    this.lastDeleteDone = new AtomicLongArray(n);
    this.lastPutBegan = new AtomicLongArray(n);
  }

  /** The common prefix of every key, for LIST. */
  public String prefix() {
    return prefix;
  }

  /** Number of keys. */
  public int size() {
    return n;
  }

  /** The key of index {@code i}. */
  public String key(int i) {
    return prefix + String.format("p%02d/obj-%06d", i % prefixes, i);
  }

  /** Starts a put of key {@code i}: the version it will store. */
  public long beginPut(int i) {
    return started.incrementAndGet(i);
  }

  /** A put of version {@code version} of key {@code i} returned; it began just now. */
  public void putDone(int i, long version) {
    putDone(i, version, System.nanoTime());
  }

  /**
   * A put of version {@code version} of key {@code i} returned; it began at {@code beganNanos}
   * ({@link System#nanoTime()}).
   */
  public void putDone(int i, long version, long beganNanos) {
    lastPutBegan.accumulateAndGet(i, stamp(beganNanos), Math::max);
    stored.set(i, version);
    state.set(i, PRESENT);
  }

  private long stamp(long nanos) {
    return Math.max(1, nanos - origin + 1);
  }

  /** Records that key {@code i} holds version {@code version} (after preparation). */
  public void prepared(int i, long version) {
    started.accumulateAndGet(i, version, Math::max);
    putDone(i, version);
  }

  /** Starts a delete of key {@code i}: reads stop choosing it. */
  public void beginDelete(int i) {
    deletes.incrementAndGet(i);
    state.set(i, ABSENT);
  }

  /** A delete of key {@code i} returned (or failed): it no longer races with other requests. */
  public void deleteDone(int i) {
    lastDeleteDone.accumulateAndGet(i, stamp(System.nanoTime()), Math::max);
    deletesDone.incrementAndGet(i);
  }

  /**
   * How many deletes of key {@code i} have started: a read that finds the key missing while this
   * count moved, or that was given a key already absent, met the workload's own delete.
   */
  public int deletesStarted(int i) {
    return deletes.get(i);
  }

  /**
   * Whether key {@code i} surely holds an object: a put of it returned that began after every
   * delete of it had returned, and no delete is running. A delete that overlapped a put may reach
   * the store after it, so a key can be gone although the key space says it is present; a read that
   * finds it missing then met the workload's own delete, not a lost object.
   */
  public boolean surelyPresent(int i) {
    return exists(i)
        && deletesDone.get(i) == deletes.get(i)
        && lastPutBegan.get(i) > lastDeleteDone.get(i);
  }

  /** Whether key {@code i} holds an object (as far as finished operations tell). */
  public boolean exists(int i) {
    return state.get(i) == PRESENT;
  }

  /** The version last stored under key {@code i}. */
  public long storedVersion(int i) {
    return stored.get(i);
  }

  /** The newest version any put has started for key {@code i}. */
  public long startedVersion(int i) {
    return started.get(i);
  }
}
