package io.racs.proxy.runtime.startup;

import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.api.StoreConfig;
import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.array.RepositoryHealth;
import io.racs.repos.Repository;
import io.racs.repos.RepositoryException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The array being opened at start-up: the store once it is open, and until then what the last
 * attempt found, which {@code /health/ready} reports.
 *
 * <p>{@link #begin} tries once, at once, and waits for that attempt up to {@code firstAttemptWait}
 * (5 s). A failure no wait would mend (a repository of another array or slot, a geometry the
 * markers or the array record contradict, data without a marker, a bad argument) that it sees in
 * that time is thrown from there, before the proxy listens, so {@code racs server} exits as it
 * always did. An attempt still running then (repositories that accept calls and never answer hold
 * it up to their timeouts, {@code slowShardTimeout} and more) goes on in the background while the
 * proxy listens not ready; what it finds ends as the retries' attempts do. A failure that only says
 * too few repositories answer ({@code INSUFFICIENT_SHARDS}, or a repository {@code UNAVAILABLE} or
 * timing out) makes the opening wait: a background thread tries again after 1 s, then at doubling
 * intervals up to 15 s, each attempt the whole identity check of {@link ErasureStore#open}, so the
 * rules for empty and foreign roots are exactly the ones a start-up applies (an unmarked empty root
 * is adopted only once k others carry the array's marker; a foreign marker that appears while
 * waiting ends the wait with that failure). The wait ends when the store opens ({@link #opened()}
 * completes), when an attempt fails in a way no wait would mend, when {@code startupWait} has
 * passed (both complete it exceptionally with that failure), or on {@link #close()}.
 *
 * <p>Thread-safe. The caller owns the store once it is open; until then, and when the wait ends
 * without one, this object owns the repositories and closes them.
 */
public final class ArrayOpening implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ArrayOpening.class);

  /**
   * How long to wait and how often to try.
   *
   * @param startupWait how long to keep trying; null for no limit, zero for not at all (the first
   *     attempt then runs to its end in {@link #begin}, however long it takes)
   * @param firstRetry the wait before the second attempt
   * @param maxRetry the longest wait between attempts (each doubles the last)
   * @param firstAttemptWait how long {@link #begin} waits for the first attempt before it lets it
   *     go on in the background
   */
  public record Settings(
      Duration startupWait, Duration firstRetry, Duration maxRetry, Duration firstAttemptWait) {
    /** How long {@link #begin} waits for the first attempt, unless told otherwise. */
    public static final Duration FIRST_ATTEMPT_WAIT = Duration.ofSeconds(5);

    /** Checks the values. */
    public Settings {
      if (startupWait != null && startupWait.isNegative()) {
        throw new IllegalArgumentException(
            "startupWait: " + startupWait + " (expected: zero or more, or unlimited)");
      }
      Objects.requireNonNull(firstRetry, "firstRetry");
      Objects.requireNonNull(maxRetry, "maxRetry");
      Objects.requireNonNull(firstAttemptWait, "firstAttemptWait");
      if (firstAttemptWait.isNegative()) {
        throw new IllegalArgumentException(
            "firstAttemptWait: " + firstAttemptWait + " (expected: zero or more)");
      }
      if (firstRetry.isNegative() || firstRetry.isZero() || maxRetry.compareTo(firstRetry) < 0) {
        throw new IllegalArgumentException(
            "retries: every "
                + firstRetry
                + " up to "
                + maxRetry
                + " (expected: 0 < first <= max)");
      }
    }

    /** {@code firstAttemptWait} {@link #FIRST_ATTEMPT_WAIT}. */
    public Settings(Duration startupWait, Duration firstRetry, Duration maxRetry) {
      this(startupWait, firstRetry, maxRetry, FIRST_ATTEMPT_WAIT);
    }

    /**
     * Waits up to {@code startupWait} (null: no limit), trying after 1 s, then up to every 15 s.
     */
    public static Settings of(Duration startupWait) {
      return new Settings(startupWait, Duration.ofSeconds(1), Duration.ofSeconds(15));
    }

    private boolean waits() {
      return startupWait == null || !startupWait.isZero();
    }
  }

  /**
   * What the opening reports.
   *
   * @param open whether the store is open
   * @param attempts how many attempts were made
   * @param waited how long since the first attempt began (while open: until it opened)
   * @param reason why the last attempt failed, in one line; empty once open
   * @param repositories each slot as the last failed attempt found it: kept out (unavailable, with
   *     its reason) or answering (up); empty once open, when the store reports them itself
   */
  public record Status(
      boolean open,
      int attempts,
      Duration waited,
      String reason,
      List<RepositoryHealth> repositories) {}

  private final StoreConfig config;
  private final List<Repository> repositories;
  private final BiFunction<StoreConfig, List<Repository>, ErasureStore> open;
  private final Settings settings;
  private final long startedNanos = System.nanoTime();
  private final CompletableFuture<ErasureStore> opened = new CompletableFuture<>();
  private volatile Status status;
  private Thread retries; // guarded by this
  private boolean closed; // guarded by this
  // The first attempt, as begin hands it over: guarded by this.
  private boolean firstDone;
  private boolean firstLetGo; // begin returned before the first attempt ended
  private ErasureStore firstStore;
  private RuntimeException firstFailure;

  private ArrayOpening(
      StoreConfig config,
      List<Repository> repositories,
      BiFunction<StoreConfig, List<Repository>, ErasureStore> open,
      Settings settings) {
    this.config = config;
    this.repositories = List.copyOf(repositories);
    this.open = open;
    this.settings = settings;
  }

  /** An opening that is over: {@code store} is open. */
  public static ArrayOpening of(ErasureStore store) {
    ArrayOpening opening =
        new ArrayOpening(
            store.config(), store.repositories(), (c, r) -> store, Settings.of(Duration.ZERO));
    opening.succeeded(store, 1);
    return opening;
  }

  /**
   * Opens the array ({@link ErasureStore#open}) over {@code repositories}, or begins waiting for it
   * as the class says.
   *
   * @throws RuntimeException what the first attempt threw, when no wait would mend it or {@code
   *     settings} say not to wait; the repositories are closed then
   */
  public static ArrayOpening begin(
      StoreConfig config, List<Repository> repositories, Settings settings) {
    return begin(config, repositories, ErasureStore::open, settings);
  }

  /** As {@link #begin(StoreConfig, List, Settings)}, each attempt made by {@code open}. */
  static ArrayOpening begin(
      StoreConfig config,
      List<Repository> repositories,
      BiFunction<StoreConfig, List<Repository>, ErasureStore> open,
      Settings settings) {
    ArrayOpening opening = new ArrayOpening(config, repositories, open, settings);
    if (!settings.waits()) {
      try {
        opening.succeeded(open.apply(config, opening.repositories), 1);
        return opening;
      } catch (RuntimeException e) {
        opening.closeRepositories();
        throw e;
      }
    }
    synchronized (opening) {
      opening.retries =
          Thread.ofPlatform().daemon().name("racs-array-opening").start(opening::attempts);
      long deadline = System.nanoTime() + settings.firstAttemptWait().toNanos();
      try {
        for (long left = deadline - System.nanoTime();
            !opening.firstDone && left > 0;
            left = deadline - System.nanoTime()) {
          // Woken by the first attempt's end (attempts), not a pause.
          TimeUnit.NANOSECONDS.timedWait(opening, left);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        opening.close();
        throw new CancellationException("interrupted while the array opened");
      }
      if (!opening.firstDone) {
        opening.firstLetGo = true;
        opening.status =
            new Status(
                false,
                0,
                Duration.ofNanos(System.nanoTime() - opening.startedNanos),
                "the first attempt to open the array has run for "
                    + settings.firstAttemptWait().toSeconds()
                    + " s and goes on (a repository may accept calls and not answer)",
                List.of());
        return opening;
      }
    }
    if (opening.firstStore != null) {
      opening.succeeded(opening.firstStore, 1);
    } else if (!waitable(opening.firstFailure)) {
      opening.closeRepositories();
      throw opening.firstFailure;
    }
    return opening; // waiting: attempts tries again
  }

  /**
   * The opening's thread: the first attempt, handed to {@link #begin} while it waits for it, then
   * the retries.
   */
  private void attempts() {
    ErasureStore store = null;
    RuntimeException failure = null;
    try {
      store = open.apply(config, repositories);
    } catch (RuntimeException e) {
      failure = e;
    }
    boolean letGo;
    synchronized (this) {
      letGo = firstLetGo;
      if (!letGo) {
        if (failure != null && waitable(failure)) {
          failed(failure, 1);
        }
        firstStore = store;
        firstFailure = failure;
        firstDone = true;
        notifyAll();
      } else if (closed) {
        if (store != null) {
          store.close();
        }
        return;
      }
    }
    if (!letGo) {
      if (failure != null && waitable(failure)) {
        retry();
      }
      return; // begin has the store, or throws what no wait mends
    }
    if (store != null) {
      LOG.info("the array is open after its first attempt");
      succeeded(store, 1);
    } else if (!waitable(failure)) {
      LOG.error("the array cannot be opened, and no wait will mend it: {}", failure.getMessage());
      giveUp(failure);
    } else {
      failed(failure, 1);
      retry();
    }
  }

  /**
   * Whether {@code failure} says only that too few repositories answer, which they may mend by
   * answering: then waiting is right. Everything else (a foreign or misplaced repository, a layout
   * the array record contradicts, bad arguments) is a mistake no wait mends.
   */
  static boolean waitable(RuntimeException failure) {
    if (failure instanceof StoreException e) {
      return e.code() == StoreException.Code.INSUFFICIENT_SHARDS;
    }
    if (failure instanceof RepositoryException e) {
      return e.kind() == RepositoryException.Kind.UNAVAILABLE
          || e.kind() == RepositoryException.Kind.TIMEOUT;
    }
    return false;
  }

  private void retry() {
    long deadline =
        settings.startupWait() == null ? Long.MAX_VALUE : settings.startupWait().toNanos();
    Duration delay = settings.firstRetry();
    for (int attempt = 2; ; attempt++) {
      long left = deadline - (System.nanoTime() - startedNanos);
      if (left <= 0) {
        giveUp(
            new StoreException(
                StoreException.Code.INSUFFICIENT_SHARDS,
                "the array did not open within startupWait ("
                    + settings.startupWait()
                    + ", "
                    + (attempt - 1)
                    + " attempts): "
                    + status.reason()));
        return;
      }
      try {
        // Not synchronisation: the pause between attempts, cut short by close().
        Thread.sleep(Math.min(delay.toMillis(), Math.max(1, left / 1_000_000)));
      } catch (InterruptedException e) {
        return; // closed
      }
      synchronized (this) {
        if (closed) {
          return;
        }
      }
      ErasureStore store;
      try {
        store = open.apply(config, repositories);
      } catch (RuntimeException e) {
        synchronized (this) {
          if (closed) {
            return; // the failure may be the close's own doing
          }
        }
        if (!waitable(e)) {
          LOG.error("the array cannot be opened, and no wait will mend it: {}", e.getMessage());
          giveUp(e);
          return;
        }
        failed(e, attempt);
        delay =
            delay.multipliedBy(2).compareTo(settings.maxRetry()) > 0
                ? settings.maxRetry()
                : delay.multipliedBy(2);
        continue;
      }
      synchronized (this) {
        if (closed) {
          store.close();
          return;
        }
      }
      LOG.info("the array is open after {} attempts", attempt);
      succeeded(store, attempt);
      return;
    }
  }

  private void succeeded(ErasureStore store, int attempts) {
    status =
        new Status(
            true, attempts, Duration.ofNanos(System.nanoTime() - startedNanos), "", List.of());
    opened.complete(store);
  }

  private void failed(RuntimeException failure, int attempts) {
    String reason = oneLine(failure.getMessage());
    Status last = status;
    if (last == null || !last.reason().equals(reason)) {
      LOG.warn("the array is not open yet (attempt {}); trying again: {}", attempts, reason);
    } else {
      LOG.debug("the array is not open yet (attempt {}): {}", attempts, reason);
    }
    status =
        new Status(
            false,
            attempts,
            Duration.ofNanos(System.nanoTime() - startedNanos),
            reason,
            slots(failure));
  }

  private void giveUp(RuntimeException failure) {
    synchronized (this) {
      closed = true;
    }
    closeRepositories();
    opened.completeExceptionally(failure);
  }

  /** Each slot as {@code failure} found it: kept out with its reason, or answering. */
  private List<RepositoryHealth> slots(RuntimeException failure) {
    Map<Integer, String> out = new TreeMap<>();
    if (failure instanceof StoreException e) {
      for (StoreException.ShardFailure f : e.failures()) {
        out.merge(f.slot(), f.cause(), (a, b) -> a + "; " + b);
      }
    }
    List<RepositoryHealth> slots = new ArrayList<>();
    for (int slot = 0; slot < repositories.size(); slot++) {
      String reason = out.get(slot);
      slots.add(
          new RepositoryHealth(
              slot,
              repositories.get(slot).name(),
              reason == null ? RepositoryHealth.State.UP : RepositoryHealth.State.UNAVAILABLE,
              reason));
    }
    return slots;
  }

  private static String oneLine(String message) {
    return message == null ? "" : message.replaceAll("\\s*[\\r\\n]+\\s*", " ").strip();
  }

  private void closeRepositories() {
    for (Repository repository : repositories) {
      try {
        repository.close();
      } catch (RuntimeException e) {
        LOG.debug("closing {}: {}", repository.name(), e.toString());
      }
    }
  }

  /** The configuration the array is opened with. */
  public StoreConfig config() {
    return config;
  }

  /** What the opening reports now. */
  public Status status() {
    return status;
  }

  /** The store, once open. */
  public Optional<ErasureStore> store() {
    return opened.isDone() && !opened.isCompletedExceptionally()
        ? Optional.of(opened.join())
        : Optional.empty();
  }

  /**
   * Completes with the store once it is open; exceptionally with the failure that ended the wait (a
   * mistake no wait mends, or {@code startupWait} passed), or a {@link CancellationException} when
   * closed first.
   */
  public CompletableFuture<ErasureStore> opened() {
    return opened.copy();
  }

  /**
   * Stops waiting: no attempt starts after this, and a store an attempt running now opens is closed
   * again. Does not close a store that was open before.
   */
  @Override
  public void close() {
    Thread running;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      running = retries;
    }
    if (opened.isDone()) {
      return;
    }
    if (running != null) {
      running.interrupt();
    }
    closeRepositories();
    opened.completeExceptionally(new CancellationException("closed before the array opened"));
  }
}
