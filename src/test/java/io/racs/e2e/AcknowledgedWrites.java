package io.racs.e2e;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A model of what a key-value store may answer, given the writes its clients made: for each key,
 * the values that may be current when a read runs. It judges every read of a concurrent history
 * against the writes that were acknowledged before it began and those still in flight while it ran,
 * without knowing how the store ordered them.
 *
 * <p>Time is a logical clock shared by all clients ({@link #now()}): an operation takes a tick
 * before it sends its request and another after it has its answer, so an operation whose end tick
 * is below another's begin tick finished before the other started, in real time. A write is one of
 *
 * <ul>
 *   <li><b>acknowledged</b>: the store said it succeeded; it took effect at some instant between
 *       its two ticks;
 *   <li><b>failed</b>: the store answered with an error. Like an S3 client, the model does not
 *       assume that nothing happened (a 503 may come after part of the work was done), only that
 *       nothing more will happen once the answer is given: it may have taken effect before its end
 *       tick;
 *   <li><b>unknown</b>: no answer came (a client timeout, a reset connection, a killed server): it
 *       may take effect at any later time.
 * </ul>
 *
 * <p>A read that ran from tick {@code b} to tick {@code e} may see the value of a write {@code w}
 * unless {@code w} began after the read ended, or some acknowledged write {@code w2} both began
 * after {@code w} ended and ended before the read began (then {@code w2} is surely newer than
 * {@code w}, and surely visible to the read). Before any write a key is {@link Value#ABSENT}. This
 * is the check of a single register's linearizability restricted to one read at a time: it accepts
 * every answer a linearizable store could give for that read alone, so a rejection is a real bug;
 * it does not relate reads to one another (two reads that each alone are fine may together be
 * impossible), which is what a full linearizability checker over {@link #history()} adds.
 *
 * <p>A listing is judged key by key: a key must be listed if every value the model allows for it is
 * a present one, and must not be listed if every allowed value is absent; a key the model has never
 * seen written must not be listed at all.
 *
 * <p>Thread-safe; every client of a test shares one instance. Memory grows with the number of
 * operations (the whole history is kept, for the report of a failure and for later checkers).
 */
final class AcknowledgedWrites {
  /** What a key holds: a body, by digest and size, or nothing. */
  record Value(String digest, long size) {
    /** No object under the key (never written, or deleted). */
    static final Value ABSENT = new Value("absent", -1);

    Value {
      Objects.requireNonNull(digest, "digest");
    }

    boolean present() {
      return !equals(ABSENT);
    }

    @Override
    public String toString() {
      return present() ? digest + "/" + size + "B" : "absent";
    }
  }

  /** How a write ended. */
  enum Outcome {
    IN_FLIGHT,
    ACKNOWLEDGED,
    FAILED,
    UNKNOWN
  }

  /**
   * One write of one key; {@link #acknowledged()}, {@link #failed()} or {@link #unknown()} ends it.
   */
  final class Write {
    private final String key;
    private final Value value;
    private final long begin;
    private volatile long end = Long.MAX_VALUE;
    private volatile Outcome outcome = Outcome.IN_FLIGHT;

    private Write(String key, Value value, long begin) {
      this.key = key;
      this.value = value;
      this.begin = begin;
    }

    /** The store said the write succeeded. */
    void acknowledged() {
      finish(Outcome.ACKNOWLEDGED, clock.incrementAndGet());
    }

    /** The store answered with an error: the write may have taken effect, but no later. */
    void failed() {
      finish(Outcome.FAILED, clock.incrementAndGet());
    }

    /** No answer came: the write may take effect at any time from now on. */
    void unknown() {
      clock.incrementAndGet();
      finish(Outcome.UNKNOWN, Long.MAX_VALUE);
    }

    private synchronized void finish(Outcome how, long at) {
      if (outcome != Outcome.IN_FLIGHT) {
        throw new IllegalStateException("write: " + this + " (expected: in flight)");
      }
      end = at;
      outcome = how;
      history.add(new Event("write", key, value, begin, at, how.name()));
    }

    Value value() {
      return value;
    }

    @Override
    public String toString() {
      return value
          + " ["
          + begin
          + ", "
          + (end == Long.MAX_VALUE ? "-" : end)
          + "] "
          + outcome.name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /** One finished operation, in the order operations finished. */
  record Event(String operation, String key, Value value, long begin, long end, String outcome) {}

  private final AtomicLong clock = new AtomicLong();
  private final Map<String, List<Write>> writes = new ConcurrentHashMap<>();
  private final List<Event> history = new CopyOnWriteArrayList<>();

  /** The current tick; a read takes one before it sends its request and one after its answer. */
  long now() {
    return clock.incrementAndGet();
  }

  /** A PUT of {@code value} to {@code key} is about to be sent. */
  Write beginPut(String key, Value value) {
    if (!value.present()) {
      throw new IllegalArgumentException(
          "value: " + value + " (expected: a body; use beginDelete)");
    }
    return begin(key, value);
  }

  /** A DELETE of {@code key} is about to be sent. */
  Write beginDelete(String key) {
    return begin(key, Value.ABSENT);
  }

  private Write begin(String key, Value value) {
    List<Write> list = writes.computeIfAbsent(key, k -> new CopyOnWriteArrayList<>());
    Write write = new Write(key, value, clock.incrementAndGet());
    list.add(write);
    return write;
  }

  /** Every key ever written (including deleted ones), in S3 (UTF-16 here; ASCII keys) order. */
  Set<String> keys() {
    return new TreeMap<>(writes).keySet();
  }

  /**
   * The values a read of {@code key} that ran from {@code begin} to {@code end} may return, by the
   * rule of the class comment.
   */
  Set<Value> allowed(String key, long begin, long end) {
    List<Write> list = writes.getOrDefault(key, List.of());
    // The newest write known to be visible to the read: acknowledged before the read began. Any
    // write that ended before it began is surely older, so the read cannot see it.
    long frontier = 0;
    boolean initialVisible = true;
    for (Write w : list) {
      if (w.outcome == Outcome.ACKNOWLEDGED && w.end < begin) {
        frontier = Math.max(frontier, w.begin);
        initialVisible = false;
      }
    }
    Set<Value> allowed = new LinkedHashSet<>();
    if (initialVisible) {
      allowed.add(Value.ABSENT);
    }
    for (Write w : list) {
      if (w.begin < end && w.end >= frontier) {
        allowed.add(w.value);
      }
    }
    return allowed;
  }

  /**
   * Checks a GET of {@code key} that ran from {@code begin} to {@code end} and returned {@code
   * observed} ({@link Value#ABSENT} for 404 NoSuchKey); returns a description of the violation, or
   * null when the answer is one the store may give.
   */
  String checkGet(String key, long begin, long end, Value observed) {
    history.add(new Event("read", key, observed, begin, end, "ok"));
    Set<Value> allowed = allowed(key, begin, end);
    if (allowed.contains(observed)) {
      return null;
    }
    return "GET "
        + key
        + " ["
        + begin
        + ", "
        + end
        + "] returned "
        + (observed.present() ? observed : "404 NoSuchKey")
        + "; allowed: "
        + allowed
        + "; writes of the key: "
        + writes.getOrDefault(key, List.of());
  }

  /**
   * Checks a listing of {@code prefix} that ran from {@code begin} (before its first page was asked
   * for) to {@code end} (after its last page came) and returned {@code listed}; returns the
   * violations, empty when the listing is one the store may give.
   */
  List<String> checkList(String prefix, long begin, long end, Collection<String> listed) {
    history.add(new Event("list", prefix, null, begin, end, "ok"));
    List<String> violations = new ArrayList<>();
    Set<String> seen = new LinkedHashSet<>(listed);
    if (seen.size() != listed.size()) {
      violations.add(
          "LIST " + prefix + " [" + begin + ", " + end + "] names a key twice: " + listed);
    }
    for (String key : keys()) {
      if (!key.startsWith(prefix)) {
        continue;
      }
      Set<Value> allowed = allowed(key, begin, end);
      boolean mayBeAbsent = allowed.contains(Value.ABSENT);
      boolean mayBePresent = allowed.stream().anyMatch(Value::present);
      if (!mayBeAbsent && !seen.contains(key)) {
        violations.add(
            "LIST "
                + prefix
                + " ["
                + begin
                + ", "
                + end
                + "] left out "
                + key
                + ", whose allowed values are all present: "
                + allowed);
      }
      if (!mayBePresent && seen.contains(key)) {
        violations.add("LIST " + prefix + " [" + begin + ", " + end + "] named deleted key " + key);
      }
    }
    for (String key : seen) {
      if (!writes.containsKey(key)) {
        violations.add(
            "LIST " + prefix + " [" + begin + ", " + end + "] named " + key + ", never written");
      }
    }
    return violations;
  }

  /** Every finished operation, in the order they finished. */
  List<Event> history() {
    return List.copyOf(history);
  }
}
