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

  /** A put of version {@code version} of key {@code i} returned. */
  public void putDone(int i, long version) {
    stored.set(i, version);
    state.set(i, PRESENT);
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
   * Whether a delete of key {@code i} has started and not yet returned: it may reach the store
   * after a later put, so the key can be gone although the key space says it is present.
   */
  public boolean deleteInFlight(int i) {
    return deletesDone.get(i) != deletes.get(i);
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
