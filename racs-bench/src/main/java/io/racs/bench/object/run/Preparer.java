package io.racs.bench.object.run;

import io.racs.bench.object.target.ErrorKinds;
import io.racs.bench.object.target.Target;
import io.racs.bench.object.workload.Content;
import io.racs.bench.object.workload.KeySpace;
import io.racs.bench.object.workload.KeySpaces;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Stores every key of a key space at version 1 before measurement (for GET, HEAD, LIST, DELETE and
 * mixes), and removes them afterwards, on a few virtual threads with their own handles. Not timed.
 */
public final class Preparer {
  private static final int THREADS = 8;

  private Preparer() {}

  /**
   * Puts every key of every key space of {@code spaces}; a client's own key space (per client) is
   * written through that client's handle, so with sticky endpoints each client's objects are stored
   * through the endpoint that client uses.
   *
   * @throws IllegalStateException naming the first failure's kind and key
   */
  public static void prepare(Target target, KeySpaces spaces, Workload workload)
      throws InterruptedException {
    if (!spaces.perClient()) {
      prepare(target, spaces.of(0), workload, -1);
      return;
    }
    for (int c = 0; c < spaces.all().size(); c++) {
      prepare(target, spaces.of(c), workload, c);
    }
  }

  /**
   * Puts every key of {@code keys}.
   *
   * @throws IllegalStateException naming the first failure's kind and key
   */
  public static void prepare(Target target, KeySpace keys, Workload workload)
      throws InterruptedException {
    prepare(target, keys, workload, -1);
  }

  private static void prepare(Target target, KeySpace keys, Workload workload, int owner)
      throws InterruptedException {
    forEachKey(
        target,
        keys,
        owner,
        (client, i) -> {
          String key = keys.key(i);
          long size = workload.size().sizeOf(workload.seed(), key, 1);
          client.put(key, Content.stream(Content.seed(workload.seed(), key, 1), size), size);
          keys.prepared(i, 1);
        },
        "prepare");
  }

  /**
   * Deletes every key of {@code keys} that was ever written (prepared, or a put started; missing
   * ones are fine). Keys never written cannot exist, so a PUT workload over a large key space (one
   * that writes new objects, as warp does) cleans up only what it wrote.
   */
  public static void cleanUp(Target target, KeySpace keys) throws InterruptedException {
    cleanUp(target, keys, -1);
  }

  /** As {@link #cleanUp(Target, KeySpace)} for each key space, each through its own client. */
  public static void cleanUp(Target target, KeySpaces spaces) throws InterruptedException {
    if (!spaces.perClient()) {
      cleanUp(target, spaces.of(0), -1);
      return;
    }
    for (int c = 0; c < spaces.all().size(); c++) {
      cleanUp(target, spaces.of(c), c);
    }
  }

  private static void cleanUp(Target target, KeySpace keys, int owner) throws InterruptedException {
    forEachKey(
        target,
        keys,
        owner,
        (client, i) -> {
          if (keys.startedVersion(i) == 0) {
            return;
          }
          keys.beginDelete(i);
          try {
            client.delete(keys.key(i));
          } finally {
            keys.deleteDone(i);
          }
        },
        "clean up");
  }

  private interface KeyAction {
    void apply(Target.Client client, int index);
  }

  /**
   * Applies {@code action} to every key on a few threads, each with its own handle: of client
   * {@code owner} when it is not negative (a client's own key space), else of the thread's index.
   */
  private static void forEachKey(
      Target target, KeySpace keys, int owner, KeyAction action, String what)
      throws InterruptedException {
    AtomicInteger next = new AtomicInteger();
    AtomicReference<String> failure = new AtomicReference<>();
    List<Thread> threads = new ArrayList<>();
    int n = Math.min(THREADS, keys.size());
    for (int t = 0; t < n; t++) {
      int clientIndex = owner >= 0 ? owner : t;
      threads.add(
          Thread.ofVirtual()
              .start(
                  () -> {
                    try (Target.Client client = target.client(clientIndex)) {
                      for (int i = next.getAndIncrement();
                          i < keys.size() && failure.get() == null;
                          i = next.getAndIncrement()) {
                        try {
                          action.apply(client, i);
                        } catch (RuntimeException e) {
                          failure.compareAndSet(
                              null,
                              ErrorKinds.of(e) + " on " + keys.key(i) + ": " + e.getMessage());
                        }
                      }
                    } catch (RuntimeException e) {
                      failure.compareAndSet(null, ErrorKinds.of(e) + ": " + e.getMessage());
                    }
                  }));
    }
    for (Thread t : threads) {
      t.join();
    }
    if (failure.get() != null) {
      throw new IllegalStateException(
          target.name() + ": cannot " + what + " objects: " + failure.get());
    }
  }
}
