package io.racs.proxy.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.coord.ZooKeeperCoordination;
import io.racs.proxy.store.RegisterLinearizability.Op;
import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.array.KeyStamps;
import io.racs.repos.RepositoryException;
import io.racs.repos.decorator.FaultyRepository;
import io.racs.testkit.Await;
import io.racs.testkit.TestSeed;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;

/**
 * Proves that each key behaves as one linearizable register when clients write and read it through
 * three proxies whose clocks are 30 s behind, right and 30 s ahead, over the same repositories:
 * several client threads PUT (inline and striped), GET and DELETE a few keys through random
 * proxies, their invocations and returns are recorded, and each key's history is checked by {@link
 * RegisterLinearizability}; then every proxy reads each key, and the value is one of the writes
 * that could be last (no acknowledged write lost). Seeded and bounded (a few hundred operations, a
 * few seconds). The second test does the same while two repositories (m) fail calls at random. The
 * seed replays every client's choices and the faults each repository draws; how the threads
 * interleave is up to the scheduler, so a failing seed is a strong hint rather than an exact
 * replay, and the failure message carries the operations that could not be linearized. The last two
 * tests run the same with the proxies coordinated through an in-process ZooKeeper and the version
 * cache on ({@link KeyStamps}): reads of keys unchanged since answer without a listing.
 */
class SkewedProxiesLinearizabilityTest {
  private static final int CLIENTS = 6;
  private static final int KEYS = 3;
  private static final int OPS_PER_CLIENT = 100;
  private static final long DEADLINE_NANOS = 4_000_000_000L;

  @Test
  void history_ofClientsOnThreeSkewedProxies_isLinearizablePerKey() throws InterruptedException {
    long seed = TestSeed.get();
    try (SharedArray array = new SharedArray(-30, 0, 30)) {
      run(array, seed);
    }
  }

  @Test
  void history_withTwoRepositoriesFailingCallsAtRandom_isLinearizablePerKey()
      throws InterruptedException {
    long seed = TestSeed.get();
    List<FaultyRepository> faulty = new ArrayList<>();
    try (SharedArray array = new SharedArray(firstTwoFaulty(faulty), -30, 0, 30)) {
      // Only once every store has opened: a store that cannot read a slot's identity keeps it out.
      Random faults = new Random(seed ^ 0x5DEECE66DL);
      for (FaultyRepository f : faulty) {
        f.failRandomly(0.2, faults.nextLong(), RepositoryException.Kind.UNAVAILABLE);
      }
      run(array, seed);
    }
  }

  @Test
  @SuppressWarnings("try") // the coordination is only to be closed
  void history_withTheVersionCacheOnZooKeeper_isLinearizablePerKey() throws Exception {
    long seed = TestSeed.get();
    try (TestingServer zookeeper = new TestingServer(true);
        SharedArray array = new SharedArray(-30, 0, 30);
        Coordinated coordinated = new Coordinated(array, zookeeper)) {
      run(array, seed, 0.15, 0.2); // mostly reads, so that many find their key unchanged
      long stamped = 0;
      for (ErasureStore store : array.stores) {
        stamped += store.stats().stampedReads();
      }
      System.out.println("seed " + seed + ": " + stamped + " reads answered without a listing");
      assertThat(stamped).as("seed %d: reads answered from the version cache", seed).isPositive();
    }
  }

  @Test
  @SuppressWarnings("try") // the coordination is only to be closed
  void history_withTheVersionCacheAndTwoRepositoriesFailingCallsAtRandom_isLinearizablePerKey()
      throws Exception {
    long seed = TestSeed.get();
    List<FaultyRepository> faulty = new ArrayList<>();
    try (TestingServer zookeeper = new TestingServer(true);
        SharedArray array = new SharedArray(firstTwoFaulty(faulty), -30, 0, 30);
        Coordinated coordinated = new Coordinated(array, zookeeper)) {
      Random faults = new Random(seed ^ 0x5DEECE66DL);
      for (FaultyRepository f : faulty) {
        f.failRandomly(0.2, faults.nextLong(), RepositoryException.Kind.UNAVAILABLE);
      }
      run(array, seed);
    }
  }

  /**
   * Wraps slots 0 and 1 (m of them) of every store in a FaultyRepository, collected in {@code
   * faulty}.
   */
  private static java.util.function.BiFunction<
          Integer, io.racs.repos.Repository, io.racs.repos.Repository>
      firstTwoFaulty(List<FaultyRepository> faulty) {
    return (slot, repository) -> {
      if (slot >= 2) {
        return repository;
      }
      FaultyRepository f = new FaultyRepository(repository);
      faulty.add(f);
      return f;
    };
  }

  /** Every store of an array joined to ZooKeeper, with key stamps; closing leaves. */
  private static final class Coordinated implements AutoCloseable {
    private final List<ZooKeeperCoordination> joined = new ArrayList<>();

    Coordinated(SharedArray array, TestingServer zookeeper) throws InterruptedException {
      for (int i = 0; i < array.stores.size(); i++) {
        ErasureStore store = array.stores.get(i);
        ZooKeeperCoordination c =
            ZooKeeperCoordination.start(
                new ZooKeeperCoordination.Settings(
                    zookeeper.getConnectString(), "racs", "p" + i, "p" + i, Duration.ofSeconds(10)),
                store::bucketChanged,
                store::bucketsChanged);
        joined.add(c);
        store.coordinate(c);
        store.coordinateKeys(c);
      }
      for (ZooKeeperCoordination c : joined) {
        Await.until("proxy connected to ZooKeeper", c::connected);
      }
    }

    @Override
    public void close() {
      joined.forEach(ZooKeeperCoordination::close);
    }
  }

  private void run(SharedArray array, long seed) throws InterruptedException {
    run(array, seed, 0.45, 0.6);
  }

  /**
   * As above, an operation being a PUT with probability {@code puts}, a DELETE with {@code
   * deletesAndPuts - puts}, and a GET otherwise.
   */
  private void run(SharedArray array, long seed, double puts, double deletesAndPuts)
      throws InterruptedException {
    Random master = new Random(seed);
    Map<String, List<Op>> histories = new ConcurrentHashMap<>();
    for (int k = 0; k < KEYS; k++) {
      histories.put(key(k), Collections.synchronizedList(new ArrayList<>()));
    }
    AtomicInteger errors = new AtomicInteger();
    List<Throwable> unexpected = Collections.synchronizedList(new ArrayList<>());
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> clients = new ArrayList<>();
    long deadline = System.nanoTime() + DEADLINE_NANOS;
    for (int c = 0; c < CLIENTS; c++) {
      String client = "c" + c;
      Random random = new Random(master.nextLong());
      clients.add(
          Thread.ofPlatform()
              .name("client-" + c)
              .start(
                  () -> {
                    try {
                      start.await();
                      for (int i = 0; i < OPS_PER_CLIENT && System.nanoTime() < deadline; i++) {
                        step(array, client, i, random, histories, errors, puts, deletesAndPuts);
                      }
                    } catch (Throwable t) {
                      unexpected.add(t);
                    }
                  }));
    }
    start.countDown();
    for (Thread client : clients) {
      client.join();
    }
    assertThat(unexpected).as("seed %d", seed).isEmpty();
    int operations = 0;
    long slowestNanos = 0;
    for (int k = 0; k < KEYS; k++) {
      String key = key(k);
      List<Op> history = new ArrayList<>(histories.get(key));
      operations += history.size();
      for (Op op : history) {
        if (op.returnNanos() != RegisterLinearizability.PENDING) {
          slowestNanos = Math.max(slowestNanos, op.returnNanos() - op.invokeNanos());
        }
      }
      List<Optional<String>> finals = new ArrayList<>();
      for (int s = 0; s < array.stores.size(); s++) {
        long invoked = System.nanoTime();
        Optional<String> value = read(array.stores.get(s), key);
        history.add(Op.read("final" + s, value.orElse(null), invoked, System.nanoTime()));
        finals.add(value);
      }
      assertThat(RegisterLinearizability.check(history, null, 2_000_000))
          .as("seed %d, key %s", seed, key)
          .isEmpty();
      assertThat(couldBeLast(histories.get(key)))
          .as("seed %d, key %s: the value every proxy reads at the end", seed, key)
          .contains(finals.getFirst().orElse(null));
    }
    System.out.println(
        "seed "
            + seed
            + ": "
            + operations
            + " operations checked, "
            + errors.get()
            + " refused (503, unknown outcome), slowest "
            + slowestNanos / 1_000_000
            + " ms");
  }

  /** One random operation through a random proxy, recorded. */
  private static void step(
      SharedArray array,
      String client,
      int i,
      Random random,
      Map<String, List<Op>> histories,
      AtomicInteger errors,
      double puts,
      double deletesAndPuts) {
    String key = key(random.nextInt(KEYS));
    ObjectStore store = array.stores.get(random.nextInt(array.stores.size()));
    double kind = random.nextDouble();
    List<Op> history = histories.get(key);
    if (kind < puts) {
      String value = client + "-" + i;
      byte[] body =
          body(
              value,
              random.nextBoolean() ? 50 + random.nextInt(900) : 2000 + random.nextInt(8000),
              random);
      long invoked = System.nanoTime();
      try {
        CrossProxyOrderingTest.put(store, key, body);
        history.add(Op.write(client, value, invoked, System.nanoTime()));
      } catch (StoreException e) {
        errors.incrementAndGet();
        history.add(Op.write(client, value, invoked, RegisterLinearizability.PENDING));
      }
    } else if (kind < deletesAndPuts) {
      long invoked = System.nanoTime();
      try {
        store.delete(SharedArray.BUCKET, key);
        history.add(Op.write(client, null, invoked, System.nanoTime()));
      } catch (StoreException e) {
        errors.incrementAndGet();
        history.add(Op.write(client, null, invoked, RegisterLinearizability.PENDING));
      }
    } else {
      long invoked = System.nanoTime();
      try {
        Optional<String> value = read(store, key);
        history.add(Op.read(client, value.orElse(null), invoked, System.nanoTime()));
      } catch (StoreException e) {
        errors.incrementAndGet(); // a refused read tells nothing
      }
    }
  }

  /**
   * The values the key may hold after every operation ended: those of the writes (acknowledged or
   * of unknown outcome) that no acknowledged write followed (began after it returned), and absent
   * too when no write was acknowledged.
   */
  private static List<String> couldBeLast(List<Op> history) {
    List<String> values = new ArrayList<>();
    boolean anyAcknowledged = false;
    for (Op w : history) {
      if (!w.write()) {
        continue;
      }
      anyAcknowledged |= w.returnNanos() != RegisterLinearizability.PENDING;
      boolean followed = false;
      for (Op later : history) {
        followed |=
            later.write()
                && later.returnNanos() != RegisterLinearizability.PENDING
                && later.invokeNanos() > w.returnNanos();
      }
      if (!followed) {
        values.add(w.value());
      }
    }
    if (!anyAcknowledged) {
      values.add(null); // nothing acknowledged: still absent is possible
    }
    return values;
  }

  private static String key(int k) {
    return "key" + k;
  }

  /** {@code value}, a separator, then filler up to {@code size} bytes. */
  private static byte[] body(String value, int size, Random random) {
    byte[] head = (value + "|").getBytes(StandardCharsets.UTF_8);
    byte[] body = Arrays.copyOf(head, Math.max(size, head.length));
    for (int i = head.length; i < body.length; i++) {
      body[i] = (byte) ('a' + random.nextInt(26));
    }
    return body;
  }

  /** The value a key reads as through {@code store}, empty when absent. */
  private static Optional<String> read(ObjectStore store, String key) {
    try (ObjectStore.ObjectReader reader = store.get(SharedArray.BUCKET, key, 0, -1, 0)) {
      String text = new String(reader.body().readAllBytes(), StandardCharsets.UTF_8);
      int end = text.indexOf('|');
      assertThat(end).as("a body as written: %s", text).isPositive();
      return Optional.of(text.substring(0, end));
    } catch (StoreException e) {
      if (e.code() == StoreException.Code.NO_SUCH_KEY) {
        return Optional.empty();
      }
      throw e;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
