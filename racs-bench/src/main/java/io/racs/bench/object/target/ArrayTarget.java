package io.racs.bench.object.target;

import io.racs.proxy.config.ArrayConfig;
import io.racs.proxy.coord.ZooKeeperCoordination;
import io.racs.proxy.runtime.CoordinationConfig;
import io.racs.proxy.runtime.RacsServer;
import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.api.StoreConfig;
import io.racs.proxy.store.api.StoreException;
import io.racs.repos.Repository;
import io.racs.repos.RepositoryException;
import io.racs.repos.decorator.ForwardingRepository;
import io.racs.repos.decorator.LatencyRepository;
import io.racs.repos.decorator.MeteredRepository;
import io.racs.repos.decorator.Operation;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The array in process: the erasure-coded store over a repository-set file's {@code array} slots,
 * measured without the S3 front end, so that one run compares it with the same repositories
 * measured directly. {@link #withDelay(Duration)} puts the {@code latency} decorator (half the
 * round trip each way, as {@link RepositoryTarget} does) around every repository and opens a second
 * store over them, so the array pays the delay on each repository call, as it would over a WAN.
 *
 * <p>Every repository of a view is metered, so {@link #repositoryCalls()} says how many repository
 * requests, by operation, the clients' operations cost. The store is opened on first use (a view
 * built only to ask whether delays are possible opens nothing); the bucket {@code racs-bench} is
 * created when missing.
 *
 * <p>{@link #coordinated(CoordinationConfig)} makes each view's store join ZooKeeper as a proxy
 * does ({@link RacsServer#join}), so that a run measures what coordination costs and saves (with
 * {@code versionCache}, a GET or HEAD of a key unchanged since the view listed it lists nothing).
 * Each view is one more member, and its first client waits until its session is connected.
 */
public final class ArrayTarget implements Target {
  /** The bucket the benchmark's objects live in. */
  public static final String BUCKET = "racs-bench";

  /** How long a view waits for its ZooKeeper session at most (Curator's connection timeout). */
  private static final Duration CONNECT_WAIT = Duration.ofSeconds(15);

  private final String name;
  private final StoreConfig config;
  private final List<Repository> repositories;
  private final Duration delay;
  private final boolean owner;
  private final boolean coldReads;
  private final CoordinationConfig coordination;
  private final List<MeteredRepository> meters = new ArrayList<>();
  private ErasureStore store;
  private ZooKeeperCoordination session;
  private RuntimeException failed;

  private ArrayTarget(
      String name,
      StoreConfig config,
      List<Repository> repositories,
      Duration delay,
      boolean owner,
      boolean coldReads,
      CoordinationConfig coordination) {
    this.name = name;
    this.config = config;
    this.repositories = repositories;
    this.delay = delay;
    this.owner = owner;
    this.coldReads = coldReads;
    this.coordination = coordination;
  }

  /** A target named {@code name} over the array of {@code config}, whose repositories it opens. */
  public static ArrayTarget of(String name, ArrayConfig config) {
    return new ArrayTarget(
        name, config.store(), config.openRepositories(), Duration.ZERO, true, false, null);
  }

  /** A target over {@code repositories} in slot order, which {@link #close()} closes. */
  public static ArrayTarget of(String name, StoreConfig config, List<Repository> repositories) {
    return new ArrayTarget(
        name, config, List.copyOf(repositories), Duration.ZERO, true, false, null);
  }

  /**
   * This target with each view's store coordinated through ZooKeeper as {@code coordination} says,
   * as a proxy's is (see the class comment).
   */
  public ArrayTarget coordinated(CoordinationConfig coordination) {
    return new ArrayTarget(name, config, repositories, delay, owner, coldReads, coordination);
  }

  /**
   * This target with cold reads: before each GET and HEAD its store forgets the records it read or
   * wrote and the versions it served ({@link ErasureStore#forgetKeyCaches}), so that every read is
   * that of a proxy that has not read the key (another proxy wrote it, or it restarted).
   */
  public ArrayTarget coldReads() {
    return new ArrayTarget(name, config, repositories, delay, owner, true, coordination);
  }

  private synchronized ErasureStore store() {
    if (failed != null) {
      // Every client of a view asks: one wait for the session, not one per client.
      throw failed;
    }
    if (store == null) {
      List<Repository> view = new ArrayList<>();
      for (Repository repository : repositories) {
        Repository r = new Borrowed(repository);
        if (!delay.isZero()) {
          Duration in = delay.dividedBy(2);
          r =
              new LatencyRepository(
                  r,
                  new LatencyRepository.Delay(in, Duration.ZERO),
                  new LatencyRepository.Delay(delay.minus(in), Duration.ZERO),
                  1);
        }
        MeteredRepository metered = new MeteredRepository(r);
        meters.add(metered);
        view.add(metered);
      }
      store = ErasureStore.open(config, view);
      if (coordination != null) {
        join();
      }
      if (!store.bucketExists(BUCKET)) {
        try {
          store.createBucket(BUCKET);
        } catch (StoreException e) {
          if (e.code() != StoreException.Code.BUCKET_ALREADY_EXISTS) {
            throw e;
          }
        }
      }
    }
    return store;
  }

  /**
   * Joins ZooKeeper with this view's store and waits until the session is connected, for as long as
   * the session's connection may take ({@code sessionTimeout}, at most 15 s): before that every GET
   * lists and the bucket cannot be created. Each view is its own member, named after the process,
   * the target and the delay, so that views never share a member node.
   */
  private void join() {
    String id =
        (coordination.id() != null ? coordination.id() : "bench@" + hostName())
            + ":"
            + ProcessHandle.current().pid()
            + ":"
            + name.replace('/', '_')
            + ":"
            + delay.toMillis()
            + "ms";
    session = RacsServer.join(store, coordination, id, "in-process:" + name);
    Duration wait =
        coordination.sessionTimeout().compareTo(CONNECT_WAIT) < 0
            ? coordination.sessionTimeout()
            : CONNECT_WAIT;
    boolean connected;
    try {
      connected = session.awaitConnected(wait);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      connected = false;
    }
    if (!connected) {
      failed =
          new IllegalStateException(
              "coordination: not connected to ZooKeeper at "
                  + coordination.zookeeper()
                  + " within "
                  + wait.toMillis()
                  + " ms (expected: a reachable ensemble, or no coordination section)");
      store.close();
      store = null;
      session.close(); // not connected: returns at once, Curator's retries end in the background
      session = null;
      throw failed;
    }
  }

  private static String hostName() {
    try {
      return java.net.InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      return "localhost";
    }
  }

  /**
   * The repository calls this view made so far, by operation, summed over its repositories (none
   * before the first client).
   */
  public synchronized Map<Operation, Long> repositoryCalls() {
    Map<Operation, Long> calls = new EnumMap<>(Operation.class);
    for (MeteredRepository m : meters) {
      m.counts().forEach((op, stats) -> calls.merge(op, stats.calls(), Long::sum));
    }
    return calls;
  }

  /**
   * What one repository of a view did so far for one operation.
   *
   * @param calls the calls made
   * @param bytes the body bytes moved (put bodies sent, get bodies read)
   */
  public record Usage(long calls, long bytes) {}

  /**
   * The calls and bytes this view's repositories made so far, by repository name (in slot order)
   * and operation; empty before the first client. Prices differ per provider, so a cost needs each
   * repository's share, not only the sum {@link #repositoryCalls()} gives.
   */
  public synchronized Map<String, Map<Operation, Usage>> repositoryUsage() {
    Map<String, Map<Operation, Usage>> usage = new LinkedHashMap<>();
    for (int i = 0; i < meters.size(); i++) {
      Map<Operation, Usage> byOperation = new EnumMap<>(Operation.class);
      meters
          .get(i)
          .counts()
          .forEach((op, stats) -> byOperation.put(op, new Usage(stats.calls(), stats.bytes())));
      usage.put(repositories.get(i).name(), byOperation);
    }
    return usage;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public String kind() {
    return coldReads ? "array-cold" : "array";
  }

  @Override
  public Map<String, String> describe() {
    Map<String, String> d = new LinkedHashMap<>();
    d.put("type", "array (in process)");
    d.put("geometry", config.geometry().toString());
    d.put("blockBytes", Integer.toString(config.blockBytes()));
    List<String> names = new ArrayList<>();
    for (Repository r : repositories) {
      names.add(r.name());
    }
    d.put("repositories", String.join(",", names));
    if (!delay.isZero()) {
      d.put("injectedDelay", delay.toMillis() + "ms");
    }
    if (coordination != null) {
      d.put(
          "coordination",
          "zookeeper "
              + coordination.zookeeper()
              + (coordination.versionCache() ? ", version cache" : ""));
    }
    return d;
  }

  @Override
  public Optional<Target> withDelay(Duration delay) {
    if (delay.isZero()) {
      return Optional.of(this);
    }
    return Optional.of(
        new ArrayTarget(name, config, repositories, delay, false, coldReads, coordination));
  }

  @Override
  public Client client(int index) {
    ErasureStore s = store();
    return new Client() {
      @Override
      public void put(String key, InputStream body, long lengthBytes) {
        s.put(BUCKET, key, body, lengthBytes, ObjectStore.PutOptions.defaults());
      }

      @Override
      public InputStream get(String key, long offset, long lengthBytes) {
        if (coldReads) {
          s.forgetKeyCaches();
        }
        ObjectStore.ObjectReader reader;
        try {
          reader = s.get(BUCKET, key, offset, lengthBytes, 0);
        } catch (StoreException e) {
          throw notFound(e, key);
        }
        return new FilterInputStream(reader.body()) {
          @Override
          public void close() throws IOException {
            try {
              super.close();
            } finally {
              reader.close();
            }
          }
        };
      }

      @Override
      public boolean head(String key) {
        if (coldReads) {
          s.forgetKeyCaches();
        }
        try {
          s.head(BUCKET, key);
          return true;
        } catch (StoreException e) {
          if (e.code() == StoreException.Code.NO_SUCH_KEY) {
            return false;
          }
          throw e;
        }
      }

      @Override
      public int list(String prefix, int maxKeys) {
        return s.list(BUCKET, new ObjectStore.ListRequest(prefix, null, null, maxKeys))
            .objects()
            .size();
      }

      @Override
      public void delete(String key) {
        s.delete(BUCKET, key);
      }

      @Override
      public void close() {}
    };
  }

  /** A missing key as the repository kind the reports count as "not found". */
  private static RuntimeException notFound(StoreException e, String key) {
    if (e.code() == StoreException.Code.NO_SUCH_KEY) {
      return new RepositoryException(RepositoryException.Kind.NOT_FOUND, "array: " + key, e);
    }
    return e;
  }

  @Override
  public synchronized void close() {
    if (store != null) {
      store.close(); // closes only the borrowed views
    }
    if (session != null) {
      // After the store: the writes it finishes while closing leave their stamp slots first.
      session.close();
    }
    if (owner) {
      for (Repository r : repositories) {
        r.close();
      }
    }
  }

  /** A view that leaves the repository open when the store closes it: the target owns it. */
  private static final class Borrowed extends ForwardingRepository {
    Borrowed(Repository delegate) {
      super(delegate);
    }

    @Override
    public void close() {}
  }
}
