package io.racs.proxy.store;

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
import java.util.Optional;
import java.util.concurrent.CompletionService;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.BiFunction;

/**
 * The repositories of one array, by slot, and the fan-out every store operation uses: run a call on
 * each slot in parallel (virtual threads) and collect a per-slot {@link Outcome}, never throwing
 * for a single slot's failure.
 */
final class RepositoryArray implements AutoCloseable {
  private final List<Repository> slots;
  private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
  private final long timeoutNanos;
  private final int readQuorum;
  private static final long HEDGE_MIN_MILLIS = 20;

  RepositoryArray(List<Repository> slots, long timeoutNanos) {
    this(slots, timeoutNanos, slots.size());
  }

  /**
   * @param readQuorum how many slots' listings together are sure to name every committed record
   *     ({@code n - writeQuorum + 1}): {@link IndexMerge} waits for that many, then hedges
   */
  RepositoryArray(List<Repository> slots, long timeoutNanos, int readQuorum) {
    this.slots = List.copyOf(slots);
    this.timeoutNanos = timeoutNanos;
    this.readQuorum = readQuorum;
  }

  int readQuorum() {
    return readQuorum;
  }

  int size() {
    return slots.size();
  }

  Repository slot(int slot) {
    return slots.get(slot);
  }

  ExecutorService executor() {
    return executor;
  }

  /** A slot's result: a value, or the failure that stands in its place. */
  record Outcome<T>(int slot, T value, Throwable failure) {
    boolean ok() {
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
   * Runs {@code call} on every slot in {@code which} (null: all), in parallel. The caller sleeps
   * once, until the last call has ended or the timeout has passed, rather than once per call; a
   * call still running then is cancelled and reported as timed out.
   */
  <T> List<Outcome<T>> fanOut(List<Integer> which, BiFunction<Integer, Repository, T> call) {
    List<Integer> targets = which != null ? which : allSlots();
    int count = targets.size();
    AtomicReferenceArray<Outcome<T>> ended = new AtomicReferenceArray<>(count);
    CountDownLatch running = new CountDownLatch(count);
    List<Future<?>> futures = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      int index = i;
      int slot = targets.get(i);
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
                running.countDown();
              }));
    }
    try {
      Waits.await(running, timeoutNanos);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StoreException(StoreException.Code.INSUFFICIENT_SHARDS, "interrupted", e);
    }
    List<Outcome<T>> outcomes = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      Outcome<T> outcome = ended.get(i);
      if (outcome == null) {
        futures.get(i).cancel(true);
        outcome =
            new Outcome<>(
                targets.get(i),
                null,
                new RepositoryException(RepositoryException.Kind.TIMEOUT, "no answer in time"));
      }
      outcomes.add(outcome);
    }
    return outcomes;
  }

  /**
   * Like {@link #fanOut(List, BiFunction)}, but once {@code needed} slots have answered it waits
   * only a little longer for the rest (as long again as the quorum took, at least {@value
   * #HEDGE_MIN_MILLIS} ms), and reports the ones still out as timed out, so that one slow
   * repository does not hold up a read that a quorum can answer. The calls still out are cancelled.
   */
  <T> List<Outcome<T>> fanOutQuorum(
      List<Integer> which, BiFunction<Integer, Repository, T> call, int needed) {
    List<Integer> targets = which != null ? which : allSlots();
    long start = System.nanoTime();
    long deadline = start + timeoutNanos;
    CompletionService<T> done = new ExecutorCompletionService<>(executor);
    Map<Future<T>, Integer> pending = new HashMap<>();
    for (int slot : targets) {
      Repository repository = slots.get(slot);
      pending.put(done.submit(() -> call.apply(slot, repository)), slot);
    }
    Map<Integer, Outcome<T>> outcomes = new HashMap<>();
    int answered = 0;
    try {
      while (!pending.isEmpty()) {
        long now = System.nanoTime();
        long until = deadline;
        if (answered >= needed) {
          long quorumNanos = now - start;
          until = Math.min(deadline, now + Math.max(quorumNanos, HEDGE_MIN_MILLIS * 1_000_000L));
          deadline = until; // the hedge is set once, when the quorum is reached
        }
        Future<T> next = Waits.poll(done, Math.max(0, until - now));
        if (next == null) {
          break;
        }
        int slot = pending.remove(next);
        try {
          outcomes.put(slot, new Outcome<>(slot, next.get(), null));
          answered++;
        } catch (ExecutionException e) {
          outcomes.put(slot, new Outcome<>(slot, null, e.getCause()));
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StoreException(StoreException.Code.INSUFFICIENT_SHARDS, "interrupted", e);
    }
    for (Map.Entry<Future<T>, Integer> late : pending.entrySet()) {
      late.getKey().cancel(true);
      outcomes.put(
          late.getValue(),
          new Outcome<>(
              late.getValue(),
              null,
              new RepositoryException(
                  RepositoryException.Kind.TIMEOUT, "no answer while the others had")));
    }
    List<Outcome<T>> ordered = new ArrayList<>();
    for (int slot : targets) {
      ordered.add(outcomes.get(slot));
    }
    return ordered;
  }

  /** Runs {@code call} on every slot. */
  <T> List<Outcome<T>> fanOut(BiFunction<Integer, Repository, T> call) {
    return fanOut(null, call);
  }

  List<Integer> allSlots() {
    List<Integer> all = new ArrayList<>();
    for (int i = 0; i < slots.size(); i++) {
      all.add(i);
    }
    return all;
  }

  /** The failures among {@code outcomes}, as the store reports them. */
  List<StoreException.ShardFailure> failures(List<? extends Outcome<?>> outcomes) {
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

  static int successes(List<? extends Outcome<?>> outcomes) {
    int ok = 0;
    for (Outcome<?> outcome : outcomes) {
      ok += outcome.ok() ? 1 : 0;
    }
    return ok;
  }

  // ---- small helpers over one repository ----

  static void putBytes(Repository repository, String name, byte[] bytes) {
    repository.put(name, new ByteArrayInputStream(bytes), bytes.length);
  }

  static Optional<byte[]> getBytes(Repository repository, String name) {
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
  static List<ObjectInfo> listAll(Repository repository, String prefix) {
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
    executor.shutdownNow();
  }
}
