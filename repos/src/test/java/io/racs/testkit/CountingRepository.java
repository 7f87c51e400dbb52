package io.racs.testkit;

import io.racs.repos.ListPage;
import io.racs.repos.ObjectInfo;
import io.racs.repos.ObjectStream;
import io.racs.repos.Repository;
import io.racs.repos.decorator.ForwardingRepository;
import java.io.InputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * Counts the calls that reach a repository, by kind, into a {@link Ledger} that every repository of
 * an array shares, so that a test can pin how many repository requests one client operation costs
 * (providers bill per request). Unlike {@code MeteredRepository} it tells a {@code discard} from a
 * {@code delete} and counts per slot, and the ledger knows how many calls are still running, so a
 * test can wait for the calls a write finishes after it answered (a condition, not a sleep).
 */
public final class CountingRepository extends ForwardingRepository {
  /** The kinds of repository call. */
  public enum Kind {
    PUT,
    GET,
    HEAD,
    LIST,
    DELETE,
    DISCARD,
    PROBE,
    PURGE
  }

  private final Ledger ledger;
  private final int slot;

  private CountingRepository(Repository delegate, Ledger ledger, int slot) {
    super(delegate);
    this.ledger = ledger;
    this.slot = slot;
  }

  /** {@code repositories}, each counted into {@code ledger} under its index as slot. */
  public static List<Repository> wrap(List<? extends Repository> repositories, Ledger ledger) {
    List<Repository> out = new ArrayList<>();
    for (int i = 0; i < repositories.size(); i++) {
      out.add(new CountingRepository(repositories.get(i), ledger, i));
    }
    return out;
  }

  /** The counts of an array's repositories; thread-safe. */
  public static final class Ledger {
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final int slots;
    private final long[][] counts;
    private final List<Call> calls = new ArrayList<>();
    private int running;

    /** A ledger for {@code slots} repositories. */
    public Ledger(int slots) {
      this.slots = slots;
      this.counts = new long[slots][Kind.values().length];
    }

    void started(int slot, Kind kind, String key) {
      lock.lock();
      try {
        counts[slot][kind.ordinal()]++;
        calls.add(new Call(slot, kind, key));
        running++;
        changed.signalAll();
      } finally {
        lock.unlock();
      }
    }

    void finished() {
      lock.lock();
      try {
        running--;
        changed.signalAll();
      } finally {
        lock.unlock();
      }
    }

    /** Forgets every count (calls still running are not waited for). */
    public void reset() {
      lock.lock();
      try {
        for (long[] slot : counts) {
          java.util.Arrays.fill(slot, 0);
        }
        calls.clear();
      } finally {
        lock.unlock();
      }
    }

    /**
     * Waits until no counted call is running; true if none is, false if {@code timeout} passed
     * first. Calls that a store has submitted but whose thread has not reached the repository yet
     * are not seen: a test that needs them waits for a count with {@link #awaitTotal}.
     */
    public boolean awaitIdle(Duration timeout) throws InterruptedException {
      long left = timeout.toNanos();
      lock.lock();
      try {
        while (running > 0) {
          if (left <= 0) {
            return false;
          }
          left = changed.awaitNanos(left);
        }
        return true;
      } finally {
        lock.unlock();
      }
    }

    /**
     * Waits until at least {@code calls} calls of {@code kind} have started, whether or not they or
     * others are still running; true if so, false if {@code timeout} passed first. For calls that
     * must begin while others are held.
     */
    public boolean awaitStarted(Kind kind, long calls, Duration timeout)
        throws InterruptedException {
      long deadline = System.nanoTime() + timeout.toNanos();
      lock.lock();
      try {
        while (total(kind) < calls) {
          long left = deadline - System.nanoTime();
          if (left <= 0) {
            return false;
          }
          changed.awaitNanos(left);
        }
        return true;
      } finally {
        lock.unlock();
      }
    }

    /**
     * Waits until at least {@code calls} calls of {@code kind} were counted and none is running;
     * true if so, false if {@code timeout} passed first. For the calls a write finishes in the
     * background after its client was answered.
     */
    public boolean awaitTotal(Kind kind, long calls, Duration timeout) throws InterruptedException {
      long deadline = System.nanoTime() + timeout.toNanos();
      lock.lock();
      try {
        while (total(kind) < calls || running > 0) {
          long left = deadline - System.nanoTime();
          if (left <= 0) {
            return false;
          }
          // Every start and finish signals, so this wait sees each change of the condition.
          changed.awaitNanos(left);
        }
        return true;
      } finally {
        lock.unlock();
      }
    }

    /** Calls of {@code kind} on every slot. */
    public long total(Kind kind) {
      lock.lock();
      try {
        long sum = 0;
        for (long[] slot : counts) {
          sum += slot[kind.ordinal()];
        }
        return sum;
      } finally {
        lock.unlock();
      }
    }

    /** Calls of {@code kind} on {@code slot}. */
    public long count(int slot, Kind kind) {
      lock.lock();
      try {
        return counts[slot][kind.ordinal()];
      } finally {
        lock.unlock();
      }
    }

    /** Every kind's total over every slot, kinds with no call left out. */
    public Map<Kind, Long> totals() {
      Map<Kind, Long> out = new EnumMap<>(Kind.class);
      for (Kind kind : Kind.values()) {
        long total = total(kind);
        if (total > 0) {
          out.put(kind, total);
        }
      }
      return out;
    }

    /** Every call counted since the last reset, in the order they started. */
    public List<Call> calls() {
      lock.lock();
      try {
        return List.copyOf(calls);
      } finally {
        lock.unlock();
      }
    }

    /** How many repositories this ledger counts. */
    public int slots() {
      return slots;
    }
  }

  /**
   * One counted call: its slot, kind and key (a list's prefix; empty for a probe or a purge), so a
   * test can tell, say, a listing of a bucket's records from one of an object's versions.
   */
  public record Call(int slot, Kind kind, String key) {}

  private <T> T counted(Kind kind, String key, Supplier<T> call) {
    ledger.started(slot, kind, key);
    try {
      return call.get();
    } finally {
      ledger.finished();
    }
  }

  @Override
  public ObjectInfo put(String key, InputStream body, long lengthBytes) {
    return counted(Kind.PUT, key, () -> super.put(key, body, lengthBytes));
  }

  @Override
  public ObjectStream get(String key, long offset, long lengthBytes) {
    return counted(Kind.GET, key, () -> super.get(key, offset, lengthBytes));
  }

  @Override
  public Optional<ObjectInfo> head(String key) {
    return counted(Kind.HEAD, key, () -> super.head(key));
  }

  @Override
  public ListPage list(String prefix, String startAfter, int maxKeys) {
    return counted(Kind.LIST, prefix, () -> super.list(prefix, startAfter, maxKeys));
  }

  @Override
  public void delete(String key) {
    counted(
        Kind.DELETE,
        key,
        () -> {
          super.delete(key);
          return null;
        });
  }

  @Override
  public void discard(String key) {
    counted(
        Kind.DISCARD,
        key,
        () -> {
          super.discard(key);
          return null;
        });
  }

  @Override
  public void probe() {
    counted(
        Kind.PROBE,
        "",
        () -> {
          super.probe();
          return null;
        });
  }

  @Override
  public long purgeLeftovers(Duration grace, boolean dryRun) {
    return counted(Kind.PURGE, "", () -> super.purgeLeftovers(grace, dryRun));
  }
}
