package io.racs.proxy.store.array;

import io.racs.proxy.store.api.StoreConfig;
import io.racs.proxy.store.api.StoreException;
import io.racs.repos.ListPage;
import io.racs.repos.ObjectInfo;
import io.racs.repos.Repository;
import io.racs.repos.RepositoryException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.BiFunction;
import java.util.function.LongSupplier;

/**
 * The repositories of one array, by slot id (docs/reshape.md §2: ids are stable and never reused,
 * dense from 0; an id of no live layout is retired and answers {@code UNAVAILABLE}), the index
 * quorum records are written and judged by ({@link IndexQuorum}), and the fan-out every store
 * operation uses: run a call on each slot in parallel (virtual threads) and collect a per-slot
 * {@link Outcome}, never throwing for a single slot's failure.
 *
 * <p>Stalls cost an operation little and later ones nothing: once enough slots have answered, a
 * slot still out after the stall grace (or four times as long as the others took, if longer) is
 * reported as stalled and suspended in {@link SlotBreaker}, and while suspended it is skipped (an
 * immediate {@code UNAVAILABLE} outcome) until a background probe finds it answering again. Past
 * the breaker's limit of suspended slots, a stalled slot is still skipped so for the rest of the
 * request that found it stalled ({@link RequestStalls}).
 */
public final class RepositoryArray implements AutoCloseable {
  private final List<Repository> slots;
  private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
  private final long timeoutNanos;
  private final long stallNanos;
  // Where records go and when they count (docs/reshape.md §4); set anew when the phase changes.
  private volatile IndexQuorum index;
  // Slot ids of no live layout (docs/reshape.md §2): never asked, answering UNAVAILABLE "retired".
  private volatile Set<Integer> retired = Set.of();
  private final SlotBreaker health;
  private final LatencyEstimates latencies;
  private static final long HEDGE_MIN_MILLIS = 20;

  RepositoryArray(List<Repository> slots, long timeoutNanos) {
    this(slots, timeoutNanos, slots.size(), timeoutNanos);
  }

  /**
   * @param readQuorum how many slots' listings together are sure to name every committed record
   *     ({@code n - writeQuorum + 1}): {@link IndexMerge} waits for that many, then hedges
   * @param stallNanos how long a slot may lag once enough others answered before it counts as
   *     stalled (at least; four times the others' time if that is longer)
   */
  RepositoryArray(List<Repository> slots, long timeoutNanos, int readQuorum, long stallNanos) {
    this(slots, timeoutNanos, readQuorum, stallNanos, StoreConfig.Hedge.OFF, System::nanoTime);
  }

  /**
   * As {@link #RepositoryArray(List, long, int, long)}, with reads hedged by each repository's
   * recent latency as {@code hedge} says ({@link #latencies()}), those latencies aging by {@code
   * ticker}.
   */
  RepositoryArray(
      List<Repository> slots,
      long timeoutNanos,
      int readQuorum,
      long stallNanos,
      StoreConfig.Hedge hedge,
      LongSupplier ticker) {
    this.slots = List.copyOf(slots);
    this.latencies = new LatencyEstimates(this.slots.size(), hedge, ticker);
    this.timeoutNanos = timeoutNanos;
    this.stallNanos = Math.min(stallNanos, timeoutNanos);
    this.index = new IndexQuorum(this.slots.size(), this.slots.size() - readQuorum + 1);
    this.health =
        new SlotBreaker(
            this.slots,
            executor,
            Math.max(2 * this.stallNanos, TimeUnit.SECONDS.toNanos(1)),
            readQuorum - 1);
  }

  /**
   * How many listings a merge waits for before it hedges: enough that the index's deciding set's
   * read quorum answered, whichever they are ({@link IndexQuorum#listingQuorum}).
   */
  int readQuorum() {
    return index.listingQuorum();
  }

  /** Where records are written and when they count, in the array's current phase. */
  public IndexQuorum index() {
    return index;
  }

  /**
   * Makes {@code quorum} the index quorum from now on (a reshape entered another phase). Every slot
   * id it names must be one of this array's.
   */
  public void index(IndexQuorum quorum) {
    for (int id : quorum.writeSlots()) {
      if (id >= slots.size()) {
        throw new IllegalArgumentException(
            "index: " + quorum + " (expected: slot ids below " + slots.size() + ")");
      }
    }
    index = quorum;
  }

  /**
   * Retires the slot ids {@code ids} (docs/reshape.md §2): ids of no live layout, kept so that no
   * other repository is ever given them. A call on one is never made; it answers {@code
   * UNAVAILABLE} "retired", and fan-outs over every slot leave them out.
   */
  public void retire(Set<Integer> ids) {
    retired = Set.copyOf(ids);
  }

  /** Whether {@code slot} is the id of no live layout. */
  public boolean retired(int slot) {
    return retired.contains(slot);
  }

  /**
   * How many slot ids the array spans ({@code 0..size-1}, dense: an id is never reused), retired
   * ones too.
   */
  public int size() {
    return slots.size();
  }

  /** The repository of slot id {@code slot}. */
  public Repository slot(int slot) {
    return slots.get(slot);
  }

  /**
   * Whether a slot was adopted (an empty repository taken into the array) and heal has not filled
   * it yet: it lacks what was written before, so its listing proves nothing absent.
   */
  boolean unfilled(int slot) {
    return slots.get(slot) instanceof GuardedRepository guard && guard.pending();
  }

  public ExecutorService executor() {
    return executor;
  }

  public SlotBreaker health() {
    return health;
  }

  /** Each slot's recent read latencies, which hedged reads decide by. */
  public LatencyEstimates latencies() {
    return latencies;
  }

  /** The stall grace: how long at least a slot may lag once enough others answered. */
  public long stallNanos() {
    return stallNanos;
  }

  /** The absolute limit on any one repository call. */
  public long timeoutNanos() {
    return timeoutNanos;
  }

  /**
   * When slots still out count as stalled, given that enough others answered by {@code answeredAt}
   * after the operation began at {@code startedAt}: the stall grace, or four times as long as the
   * others took if longer, and never past the absolute timeout.
   */
  public long stallDeadline(long startedAt, long answeredAt) {
    long relative = answeredAt + Math.max(stallNanos, 4 * (answeredAt - startedAt));
    return Math.min(relative, startedAt + timeoutNanos);
  }

  /** A slot's result: a value, or the failure that stands in its place. */
  public record Outcome<T>(int slot, T value, Throwable failure) {
    public boolean ok() {
      return failure == null;
    }

    String cause() {
      if (failure == null) {
        return "ok";
      }
      if (failure instanceof RepositoryException re) {
        return re.kind() + ": " + re.getMessage();
      }
      return failure.getClass().getSimpleName() + ": " + failure.getMessage();
    }
  }

  /**
   * The outcome of a slot that is suspended, or that stalled earlier in the same request: it is not
   * asked.
   */
  private <T> Outcome<T> skipped(int slot) {
    String why =
        retired(slot)
            ? "retired (slot " + slot + " is in no live layout)"
            : Objects.requireNonNullElse(health.unusable(slot), "suspended");
    return new Outcome<>(
        slot,
        null,
        new RepositoryException(
            RepositoryException.Kind.UNAVAILABLE, slots.get(slot).name() + ": " + why));
  }

  /** Whether a call on {@code slot} is made now: it is live and not suspended. */
  private boolean askable(int slot) {
    return !retired(slot) && health.usable(slot);
  }

  /** Runs {@code call} on every slot in {@code which} (null: all) and waits for every one. */
  public <T> List<Outcome<T>> fanOut(List<Integer> which, BiFunction<Integer, Repository, T> call) {
    return fanOut(which, call, Integer.MAX_VALUE);
  }

  /**
   * Runs {@code call} on every usable slot in {@code which} (null: all), in parallel. The caller
   * sleeps until every call has ended, or until {@code needed} calls have succeeded and the rest
   * are past their {@linkplain #stallDeadline stall deadline}, or until the absolute timeout. When
   * {@code needed} is a real quorum (no more than the calls started), the calls still out also get
   * no more than the stall deadline counted from the first call to end: a quorum that waits on
   * stalled repositories is not reached by waiting, and the caller learns so in about the stall
   * grace instead of the absolute timeout. A call still out then is reported as timed out and its
   * slot suspended; it is cancelled only when fewer than {@code needed} succeeded (a write that
   * will be rolled back should not land later), and otherwise left to finish in the background,
   * where it completes what it was doing.
   */
  public <T> List<Outcome<T>> fanOut(
      List<Integer> which, BiFunction<Integer, Repository, T> call, int needed) {
    List<Integer> targets = which != null ? which : allSlots();
    int count = targets.size();
    AtomicReferenceArray<Outcome<T>> ended = new AtomicReferenceArray<>(count);
    List<Future<?>> futures = new ArrayList<>();
    // Which slots to ask is decided once: a slot suspended meanwhile is still asked, so that the
    // count of calls to wait for is the count started.
    boolean[] ask = new boolean[count];
    int usable = 0;
    for (int i = 0; i < count; i++) {
      ask[i] = askable(targets.get(i));
      usable += ask[i] ? 1 : 0;
    }
    // The caller wakes at most three times: when the first call ends and when the needed
    // successes are in (each sets a stall deadline), and when the last call has ended; never once
    // per call.
    int running = usable;
    Semaphore wake = new Semaphore(0);
    AtomicInteger finished = new AtomicInteger();
    AtomicInteger succeeded = new AtomicInteger();
    AtomicLong firstEnded = new AtomicLong();
    for (int i = 0; i < count; i++) {
      int index = i;
      int slot = targets.get(i);
      if (!ask[i]) {
        ended.set(index, skipped(slot));
        futures.add(null);
        continue;
      }
      Repository repository = slots.get(slot);
      futures.add(
          executor.submit(
              () -> {
                Outcome<T> outcome;
                try {
                  outcome = new Outcome<>(slot, call.apply(slot, repository), null);
                } catch (
                    Throwable e) { // whatever it is, the caller hears of it now, not at timeout
                  outcome = new Outcome<>(slot, null, e);
                }
                ended.set(index, outcome);
                firstEnded.compareAndSet(0, System.nanoTime()); // set before it is counted
                boolean quorum = outcome.ok() && succeeded.incrementAndGet() == needed;
                int finishedNow = finished.incrementAndGet();
                boolean last = finishedNow == running;
                if (quorum || last || finishedNow == 1) {
                  wake.release();
                }
              }));
    }
    long start = System.nanoTime();
    boolean relative = false;
    boolean quorumAwaited = needed <= running;
    long quorumAt = -1;
    try {
      while (running > 0 && finished.get() < running) {
        long now = System.nanoTime();
        long deadline = start + timeoutNanos;
        if (succeeded.get() >= needed) {
          // The rest get until the stall deadline counted from when the quorum was in.
          quorumAt = quorumAt < 0 ? now : quorumAt;
          relative = true;
          deadline = stallDeadline(start, quorumAt);
        } else if (quorumAwaited && finished.get() > 0) {
          deadline = stallDeadline(start, firstEnded.get());
          relative = true;
        }
        if (now - deadline >= 0 || !Waits.acquire(wake, deadline - now)) {
          break;
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StoreException(StoreException.Code.INSUFFICIENT_SHARDS, "interrupted", e);
    }
    boolean keepStragglers = succeeded.get() >= needed;
    List<Outcome<T>> outcomes = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      Outcome<T> outcome = ended.get(i);
      if (outcome == null) {
        int slot = targets.get(i);
        if (!keepStragglers) {
          futures.get(i).cancel(true);
        }
        String why =
            relative
                ? "stalled: no answer "
                    + (System.nanoTime() - start) / 1_000_000
                    + " ms into a call that "
                    + succeeded.get()
                    + " others answered"
                : "no answer in " + timeoutNanos / 1_000_000 + " ms";
        health.stalled(slot, why);
        outcome =
            new Outcome<>(
                slot, null, new RepositoryException(RepositoryException.Kind.TIMEOUT, why));
      }
      outcomes.add(outcome);
    }
    return outcomes;
  }

  /**
   * Like {@link #fanOut(List, BiFunction)}, but once {@code needed} slots have answered it waits
   * only a little longer for the rest (as long again as the quorum took, at least {@value
   * #HEDGE_MIN_MILLIS} ms), and reports the ones still out as timed out, so that one slow
   * repository does not hold up a read that a quorum can answer. The calls still out are cancelled;
   * suspended slots are not asked. Before the quorum is in, the calls still out get no more than
   * the {@linkplain #stallDeadline stall deadline} counted from the first answer (when {@code
   * needed} is short of the calls started): a quorum that needs a stalled repository then fails in
   * about the stall grace, not at the absolute timeout, and the stalled slots are suspended.
   */
  <T> List<Outcome<T>> fanOutQuorum(
      List<Integer> which, BiFunction<Integer, Repository, T> call, int needed) {
    return fanOutQuorum(which, call, needed, timeoutNanos);
  }

  /**
   * As {@link #fanOutQuorum(List, BiFunction, int)}, waiting at most {@code limitNanos} (capped at
   * the absolute timeout) for the quorum itself.
   */
  <T> List<Outcome<T>> fanOutQuorum(
      List<Integer> which, BiFunction<Integer, Repository, T> call, int needed, long limitNanos) {
    List<Integer> targets = which != null ? which : allSlots();
    long start = System.nanoTime();
    long deadline = start + Math.min(timeoutNanos, limitNanos);
    CompletionService<T> done = new ExecutorCompletionService<>(executor);
    Map<Future<T>, Integer> pending = new HashMap<>();
    Map<Integer, Outcome<T>> outcomes = new HashMap<>();
    for (int slot : targets) {
      if (!askable(slot)) {
        outcomes.put(slot, skipped(slot));
        continue;
      }
      Repository repository = slots.get(slot);
      pending.put(done.submit(() -> call.apply(slot, repository)), slot);
    }
    int answered = 0;
    // A quorum short of every call started that still waits on calls out once one has answered
    // is not reached by waiting on stalled repositories: as in fanOut, the calls still out get no
    // more than the stall deadline counted from the first answer (a failure is not one: a
    // repository that refuses at once says nothing of how long a listing takes).
    boolean quorumAwaited = needed < pending.size();
    long firstEnded = -1;
    try {
      while (!pending.isEmpty()) {
        long now = System.nanoTime();
        long until = deadline;
        if (answered >= needed) {
          long quorumNanos = now - start;
          until = Math.min(deadline, now + Math.max(quorumNanos, HEDGE_MIN_MILLIS * 1_000_000L));
          deadline = until; // the hedge is set once, when the quorum is reached
        } else if (quorumAwaited && firstEnded >= 0) {
          until = Math.min(deadline, stallDeadline(start, firstEnded));
        }
        Future<T> next = Waits.poll(done, Math.max(0, until - now));
        if (next == null) {
          break;
        }
        int slot = pending.remove(next);
        try {
          outcomes.put(slot, new Outcome<>(slot, next.get(), null));
          answered++;
          firstEnded = firstEnded < 0 ? System.nanoTime() : firstEnded;
        } catch (ExecutionException e) {
          outcomes.put(slot, new Outcome<>(slot, null, e.getCause()));
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StoreException(StoreException.Code.INSUFFICIENT_SHARDS, "interrupted", e);
    }
    boolean stalled = answered < needed && quorumAwaited && firstEnded >= 0;
    for (Map.Entry<Future<T>, Integer> late : pending.entrySet()) {
      late.getKey().cancel(true);
      String why =
          stalled
              ? "stalled: no answer "
                  + (System.nanoTime() - start) / 1_000_000
                  + " ms into a call that "
                  + answered
                  + " others answered"
              : "no answer while the others had";
      if (stalled) {
        health.stalled(late.getValue(), why); // the quorum needed it: later calls skip it
      }
      outcomes.put(
          late.getValue(),
          new Outcome<>(
              late.getValue(),
              null,
              new RepositoryException(RepositoryException.Kind.TIMEOUT, why)));
    }
    List<Outcome<T>> ordered = new ArrayList<>();
    for (int slot : targets) {
      ordered.add(outcomes.get(slot));
    }
    return ordered;
  }

  /** Runs {@code call} on every slot. */
  public <T> List<Outcome<T>> fanOut(BiFunction<Integer, Repository, T> call) {
    return fanOut(null, call);
  }

  List<Integer> allSlots() {
    return ids();
  }

  /** The live slot ids, ascending: every id but the retired ones. */
  public List<Integer> ids() {
    Set<Integer> out = retired;
    List<Integer> all = new ArrayList<>();
    for (int i = 0; i < slots.size(); i++) {
      if (!out.contains(i)) {
        all.add(i);
      }
    }
    return all;
  }

  /** The failures among {@code outcomes}, as the store reports them. */
  public List<StoreException.ShardFailure> failures(List<? extends Outcome<?>> outcomes) {
    List<StoreException.ShardFailure> failures = new ArrayList<>();
    for (Outcome<?> outcome : outcomes) {
      if (!outcome.ok()) {
        failures.add(
            new StoreException.ShardFailure(
                outcome.slot(), slots.get(outcome.slot()).name(), outcome.cause()));
      }
    }
    return failures;
  }

  public static int successes(List<? extends Outcome<?>> outcomes) {
    int ok = 0;
    for (Outcome<?> outcome : outcomes) {
      ok += outcome.ok() ? 1 : 0;
    }
    return ok;
  }

  // ---- small helpers over one repository ----

  public static void putBytes(Repository repository, String name, byte[] bytes) {
    repository.put(name, new ByteArrayInputStream(bytes), bytes.length);
  }

  public static Optional<byte[]> getBytes(Repository repository, String name) {
    try (InputStream in = repository.get(name)) {
      return Optional.of(in.readAllBytes());
    } catch (RepositoryException e) {
      if (e.kind() == RepositoryException.Kind.NOT_FOUND) {
        return Optional.empty();
      }
      throw e;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Every object under {@code prefix}, paging through the whole listing. */
  public static List<ObjectInfo> listAll(Repository repository, String prefix) {
    List<ObjectInfo> all = new ArrayList<>();
    String after = "";
    while (true) {
      ListPage page = repository.list(prefix, after, Repository.MAX_LIST_PAGE);
      all.addAll(page.objects());
      if (page.nextStartAfter().isEmpty()) {
        return all;
      }
      after = page.nextStartAfter().get();
    }
  }

  @Override
  public void close() {
    health.close();
    executor.shutdownNow();
  }
}
