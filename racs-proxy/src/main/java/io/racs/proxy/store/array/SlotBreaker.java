package io.racs.proxy.store.array;

import io.racs.repos.Repository;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Per-repository health: a circuit breaker that keeps requests from waiting on a repository that
 * stalled. A repository that lags far behind its peers in one operation is suspended: later
 * operations treat it as failed at once instead of waiting for it (reads use parity, writes commit
 * on the rest and are counted under-replicated, listings need a read quorum of the others). While
 * it is suspended, a background probe ({@link Repository#probe()}) asks it, first after {@link
 * #FIRST_PROBE_NANOS} and then at doubling intervals up to {@link #MAX_PROBE_NANOS}; the first
 * probe that answers in time resumes it. Requests never probe, so none of them waits on a
 * repository that is still stalled.
 *
 * <p>Only stalls suspend: a repository that fails at once costs no waiting, and its failures are
 * already each operation's own to handle.
 *
 * <p>A stall also counts for the rest of the request it happened in ({@link RequestStalls}), even
 * when no more slots may be suspended: that request does not wait for the slot again in a later
 * phase, and {@link #usable} is false for it there.
 *
 * <p>Thread-safe.
 */
public final class SlotBreaker {
  private static final Logger LOG = LoggerFactory.getLogger(SlotBreaker.class);
  static final long FIRST_PROBE_NANOS = TimeUnit.MILLISECONDS.toNanos(500);
  static final long MAX_PROBE_NANOS = TimeUnit.SECONDS.toNanos(15);

  /** Why a slot is suspended, and how long the next probe waits. */
  private record Suspension(String reason, long sinceNanos, long probeIntervalNanos) {}

  private final List<Repository> slots;
  private final ExecutorService executor;
  private final long probeTimeoutNanos;
  private final int maxSuspended;
  private final AtomicReferenceArray<Suspension> suspended;
  private volatile boolean closed;

  /**
   * @param maxSuspended how many slots may be suspended at once: no more than writes can do without
   *     ({@code n - writeQuorum}). On an overloaded machine healthy repositories can lag too, and
   *     suspending them all would turn slowness into an outage; past this many, a lagging slot only
   *     fails the operation it lagged in.
   */
  SlotBreaker(
      List<Repository> slots, ExecutorService executor, long probeTimeoutNanos, int maxSuspended) {
    this.slots = slots;
    this.executor = executor;
    this.probeTimeoutNanos = probeTimeoutNanos;
    this.maxSuspended = maxSuspended;
    this.suspended = new AtomicReferenceArray<>(slots.size());
  }

  /**
   * Whether operations should use the slot: it is not suspended, and the request running on this
   * thread did not find it stalled already ({@link RequestStalls}).
   */
  public boolean usable(int slot) {
    return suspended.get(slot) == null && RequestStalls.reason(this, slot) == null;
  }

  /**
   * Why the slot is not {@link #usable}, as a failure names it ({@code suspended (...)}, or {@code
   * stalled earlier in this request (...)}); null when it is usable.
   */
  public String unusable(int slot) {
    Suspension s = suspended.get(slot);
    if (s != null) {
      return "suspended (" + s.reason() + ")";
    }
    String earlier = RequestStalls.reason(this, slot);
    return earlier == null ? null : "stalled earlier in this request (" + earlier + ")";
  }

  /** The slots suspended now, with their reasons (for health reports). */
  public List<String> describe() {
    List<String> lines = new ArrayList<>();
    for (int slot = 0; slot < slots.size(); slot++) {
      Suspension s = suspended.get(slot);
      if (s != null) {
        lines.add("slot " + slot + " (" + slots.get(slot).name() + "): " + s.reason());
      }
    }
    return lines;
  }

  /**
   * Suspends a slot that stalled, if no more than allowed are; a probe will resume it once it
   * answers again. Either way the request running on this thread does not use it again.
   */
  public synchronized void stalled(int slot, String reason) {
    RequestStalls.note(this, slot, slots.size(), reason);
    int count = 0;
    for (int i = 0; i < slots.size(); i++) {
      count += suspended.get(i) == null ? 0 : 1;
    }
    if (count >= maxSuspended) {
      return;
    }
    Suspension s = new Suspension(reason, System.nanoTime(), FIRST_PROBE_NANOS);
    if (suspended.compareAndSet(slot, null, s)) {
      LOG.warn(
          "repository {} (slot {}) suspended: {}; probing it in the background",
          slots.get(slot).name(),
          slot,
          reason);
      scheduleProbe(slot, s);
    }
  }

  private void scheduleProbe(int slot, Suspension s) {
    if (closed) {
      return;
    }
    try {
      executor.execute(() -> probeAfter(slot, s));
    } catch (RejectedExecutionException e) {
      // Closing: nothing left to protect.
    }
  }

  private void probeAfter(int slot, Suspension s) {
    try {
      TimeUnit.NANOSECONDS.sleep(s.probeIntervalNanos());
    } catch (InterruptedException e) {
      return;
    }
    if (closed) {
      return;
    }
    Repository repository = slots.get(slot);
    String failure;
    try {
      // The probe runs on a thread of its own, so that one that never returns (a stopped process)
      // costs that thread only; the next probe starts whatever became of it.
      Future<?> probe = executor.submit(repository::probe);
      probe.get(probeTimeoutNanos, TimeUnit.NANOSECONDS);
      failure = null;
    } catch (java.util.concurrent.TimeoutException e) {
      failure = "probe got no answer in " + probeTimeoutNanos / 1_000_000 + " ms";
    } catch (java.util.concurrent.ExecutionException e) {
      failure = "probe failed: " + e.getCause();
    } catch (InterruptedException | RejectedExecutionException e) {
      return;
    }
    if (failure == null) {
      if (suspended.compareAndSet(slot, s, null)) {
        LOG.warn(
            "repository {} (slot {}) answers again after {} ms: resumed",
            repository.name(),
            slot,
            (System.nanoTime() - s.sinceNanos()) / 1_000_000);
      }
      return;
    }
    Suspension next =
        new Suspension(
            s.reason(), s.sinceNanos(), Math.min(MAX_PROBE_NANOS, s.probeIntervalNanos() * 2));
    if (suspended.compareAndSet(slot, s, next)) {
      LOG.debug("repository {} still suspended: {}", repository.name(), failure);
      scheduleProbe(slot, next);
    }
  }

  void close() {
    closed = true;
  }
}
