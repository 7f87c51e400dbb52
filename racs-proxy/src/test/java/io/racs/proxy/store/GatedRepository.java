package io.racs.proxy.store;

import io.racs.repos.ListPage;
import io.racs.repos.ObjectInfo;
import io.racs.repos.ObjectStream;
import io.racs.repos.Repository;
import io.racs.repos.decorator.ForwardingRepository;
import io.racs.repos.decorator.Operation;
import java.io.InputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * A repository whose calls of one operation on chosen keys (a listing's prefix) wait at a {@link
 * Gate} until it opens: the held write or read that forces a race into one order. Unlike {@code
 * FaultyRepository}'s stall, which holds the next call of an operation whatever its key, a gate
 * picks calls by key (a shard object, a version record) and spans every repository of an array, so
 * a test can hold, for example, every shard write of one PUT and nothing else.
 */
public final class GatedRepository extends ForwardingRepository {
  private final Gate gate;

  private GatedRepository(Repository delegate, Gate gate) {
    super(delegate);
    this.gate = gate;
  }

  /** {@code repositories}, each behind {@code gate}. */
  public static List<Repository> wrap(List<? extends Repository> repositories, Gate gate) {
    List<Repository> wrapped = new ArrayList<>();
    for (Repository repository : repositories) {
      wrapped.add(new GatedRepository(repository, gate));
    }
    return wrapped;
  }

  /**
   * Holds the next few calls of one operation on keys that match, until opened. A call holds before
   * it reaches the repository, so nothing it would change has changed while it waits; calls after
   * the armed number pass, so the store's own later work (a collection, a second read) is not held.
   */
  public static final class Gate {
    private final Operation operation;
    private final Predicate<String> keys;
    private final AtomicInteger toHold = new AtomicInteger();
    private final Semaphore held = new Semaphore(0);
    private final Semaphore completed = new Semaphore(0);
    private volatile CountDownLatch open = new CountDownLatch(1);

    public Gate(Operation operation, Predicate<String> keys) {
      this.operation = operation;
      this.keys = keys;
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
      if (!held.tryAcquire(calls, timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new AssertionError(
            "held calls: "
                + held.availablePermits()
                + " within "
                + timeout
                + " (expected: "
                + calls
                + ")");
      }
      held.release(calls);
    }

    /**
     * Waits until {@code calls} matching calls have returned from the repository (held ones count
     * once released), so a test knows the writes of a PUT that were not held have landed.
     *
     * @throws AssertionError if they have not within {@code timeout}
     */
    public void awaitCompleted(int calls, Duration timeout) throws InterruptedException {
      if (!completed.tryAcquire(calls, timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new AssertionError(
            "completed calls: "
                + completed.availablePermits()
                + " within "
                + timeout
                + " (expected: "
                + calls
                + ")");
      }
      completed.release(calls);
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
        Thread.currentThread().interrupt();
      }
    }
  }

  @Override
  public ObjectInfo put(String key, InputStream body, long lengthBytes) {
    gate.pass(Operation.PUT, key);
    ObjectInfo info = super.put(key, body, lengthBytes);
    gate.done(Operation.PUT, key);
    return info;
  }

  @Override
  public ObjectStream get(String key, long offset, long lengthBytes) {
    gate.pass(Operation.GET, key);
    ObjectStream stream = super.get(key, offset, lengthBytes);
    gate.done(Operation.GET, key);
    return stream;
  }

  @Override
  public ListPage list(String prefix, String startAfter, int maxKeys) {
    gate.pass(Operation.LIST, prefix);
    ListPage page = super.list(prefix, startAfter, maxKeys);
    gate.done(Operation.LIST, prefix);
    return page;
  }

  @Override
  public Optional<ObjectInfo> head(String key) {
    gate.pass(Operation.HEAD, key);
    Optional<ObjectInfo> info = super.head(key);
    gate.done(Operation.HEAD, key);
    return info;
  }

  @Override
  public void delete(String key) {
    gate.pass(Operation.DELETE, key);
    super.delete(key);
    gate.done(Operation.DELETE, key);
  }

  @Override
  public void discard(String key) {
    gate.pass(Operation.DELETE, key);
    super.discard(key);
    gate.done(Operation.DELETE, key);
  }
}
