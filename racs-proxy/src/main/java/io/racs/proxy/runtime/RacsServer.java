package io.racs.proxy.runtime;

import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.racs.proxy.admin.AdminActions;
import io.racs.proxy.admin.AdminServer;
import io.racs.proxy.admin.AdminSources;
import io.racs.proxy.config.EncryptionConfig;
import io.racs.proxy.coord.ZooKeeperCoordination;
import io.racs.proxy.runtime.startup.ArrayOpening;
import io.racs.proxy.s3.auth.S3Authenticator;
import io.racs.proxy.s3.bridge.StoreBridge;
import io.racs.proxy.s3.handler.S3Dispatcher;
import io.racs.proxy.s3.handler.SsePolicy;
import io.racs.proxy.s3.policy.Principals;
import io.racs.proxy.s3.route.S3Router;
import io.racs.proxy.s3.server.AccessLog;
import io.racs.proxy.s3.server.S3Server;
import io.racs.proxy.s3.server.ServerMetrics;
import io.racs.proxy.s3.server.ServiceGate;
import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.heal.AbandonedUploads;
import io.racs.proxy.store.heal.HealLease;
import io.racs.proxy.store.heal.HealReport;
import io.racs.proxy.store.reshape.Mover;
import io.racs.proxy.store.users.UserRecords;
import io.racs.proxy.users.StoredSecrets;
import io.racs.proxy.users.UserAccounts;
import io.racs.proxy.users.UserChanges;
import io.racs.proxy.users.UserDirectory;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Function;
import javax.net.ssl.SSLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running proxy: the store, the S3 server in front of it, the admin endpoints (health and
 * Prometheus metrics) and the background work ({@link BackgroundWork}: the heal scrub, off by
 * default, and the lifecycle scan, on by default). Closing it drains requests, then closes the
 * repositories.
 *
 * <p>With coordination ({@link CoordinationConfig}) the proxy joins the other proxies of the array
 * in ZooKeeper: it shows them in {@code /health/ready} and {@code /metrics}, runs the background
 * scrub and the lifecycle scan only while it is their leader (stopping before the next object when
 * it is no longer, with the checkpoint in ZooKeeper so that the next leader resumes there), and
 * creates and deletes buckets only in step with them. ZooKeeper being unreachable costs only those:
 * the data path needs no coordination.
 *
 * <p>Without coordination, a proxy with background work (the scrub or the lifecycle scan) takes a
 * {@link HealLease} on the repositories before each run and gives it up after, renewing it
 * meanwhile, so that two proxies over one array never run it at once; one that cannot renew it in
 * time stops before the next object, as a leader that lost its latch does.
 *
 * <p>Started with an {@link ArrayOpening} that is still waiting for its repositories, the proxy
 * listens at once but serves nothing: every S3 request is answered 503 ({@link ServiceGate}), and
 * {@code /health/ready} says not ready, with what the last attempt to open the array found. Once
 * the array opens, the proxy joins the coordination, starts the background work and serves ({@link
 * #serving()}).
 */
public final class RacsServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RacsServer.class);

  private final ArrayOpening opening;
  private final ServiceGate gate;
  private final S3Server s3;
  private final ServerMetrics metrics;
  private final AccessLog accessLog;
  private final UserDirectory users;
  private AdminServer admin;
  private final boolean lifecycleOn;
  // Set once the array is open (serve), under this lock; read by the admin endpoints at any time.
  private volatile ErasureStore store;
  private volatile ZooKeeperCoordination coordination;
  private volatile BackgroundWork work;
  private volatile UserAccounts accounts; // the admin API's, once the array is open
  private boolean closed; // guarded by this
  private final CompletableFuture<Void> serving = new CompletableFuture<>();

  private RacsServer(
      ArrayOpening opening,
      ServiceGate gate,
      S3Server s3,
      ServerMetrics metrics,
      AccessLog accessLog,
      UserDirectory users,
      boolean lifecycleOn) {
    this.opening = opening;
    this.gate = gate;
    this.users = users;
    this.lifecycleOn = lifecycleOn;
    this.s3 = s3;
    this.metrics = metrics;
    this.accessLog = accessLog;
  }

  /** Starts serving {@code store} as configured, without an access log. */
  public static RacsServer start(ErasureStore store, ServerConfig config)
      throws InterruptedException, IOException {
    return start(store, config, AccessLog.off());
  }

  /**
   * Starts serving {@code store} as configured, writing one line per request to {@code accessLog}
   * ({@link AccessLog#off()} for none), which the server closes when it stops.
   */
  public static RacsServer start(ErasureStore store, ServerConfig config, AccessLog accessLog)
      throws InterruptedException, IOException {
    return start(store, config, EncryptionConfig.NONE, accessLog, null);
  }

  /**
   * Starts serving {@code store} as configured, with the {@code encryption} settings (the store was
   * opened with its keys). SSE-C keys over plain HTTP are accepted only when the settings allow it
   * and the proxy listens on a loopback address.
   */
  public static RacsServer start(
      ErasureStore store, ServerConfig config, EncryptionConfig encryption, AccessLog accessLog)
      throws InterruptedException, IOException {
    return start(store, config, encryption, accessLog, null);
  }

  /**
   * Starts serving {@code store} as configured, coordinated with the other proxies of the array
   * through ZooKeeper when {@code coordination} is not null.
   */
  public static RacsServer start(
      ErasureStore store, ServerConfig config, AccessLog accessLog, CoordinationConfig coordination)
      throws InterruptedException, IOException {
    return start(store, config, EncryptionConfig.NONE, accessLog, coordination);
  }

  /**
   * Starts serving {@code store} as configured, with the {@code encryption} settings and, when
   * {@code coordination} is not null, coordinated with the other proxies through ZooKeeper.
   */
  public static RacsServer start(
      ErasureStore store,
      ServerConfig config,
      EncryptionConfig encryption,
      AccessLog accessLog,
      CoordinationConfig coordination)
      throws InterruptedException, IOException {
    return start(ArrayOpening.of(store), config, encryption, accessLog, coordination);
  }

  /**
   * Starts the proxy over the array {@code opening} opens, as {@link #start(ErasureStore,
   * ServerConfig, EncryptionConfig, AccessLog, CoordinationConfig)} starts it over an open store;
   * while it is not open yet the proxy listens and answers 503, and it serves once it is ({@link
   * #serving()}). Closing the server closes the opening.
   */
  public static RacsServer start(
      ArrayOpening opening,
      ServerConfig config,
      EncryptionConfig encryption,
      AccessLog accessLog,
      CoordinationConfig coordination)
      throws InterruptedException, IOException {
    if (config.credentials().isEmpty()) {
      throw new IllegalArgumentException(
          "server: no credentials (expected: at least one access key)");
    }
    ServerMetrics metrics = new ServerMetrics();
    InetSocketAddress listen = ServerConfig.address(config.listen(), "listen");
    // The configuration's keys are the administrators; the users stored in the array join them
    // once it is open (serve).
    UserDirectory users = UserDirectory.of(config.credentials());
    S3Authenticator authenticator = S3Authenticator.builder(users).region(config.region()).build();
    Function<ErasureStore, S3Dispatcher> dispatcher =
        store ->
            new S3Dispatcher(
                new StoreBridge(store),
                config.region(),
                authenticator,
                new SsePolicy(
                    encryption.customerKeysOverHttp() && loopback(listen),
                    encryption.encryptByDefault(),
                    encryption.keys() != null),
                config.lifecycleOn(),
                users);
    ServiceGate gate = ServiceGate.closed();
    S3Server s3 =
        S3Server.start(
            new S3Server.Settings(
                listen.getHostString(),
                listen.getPort(),
                config.baseDomain() == null
                    ? S3Router.pathStyle()
                    : S3Router.withBaseDomain(config.baseDomain()),
                authenticator,
                gate,
                ssl(config),
                config.maxHeaderBytes(),
                config.idleTimeout(),
                config.drainTimeout(),
                metrics,
                accessLog,
                config.transport()));
    RacsServer server =
        new RacsServer(opening, gate, s3, metrics, accessLog, users, config.lifecycleOn());
    if (config.adminListen() != null) {
      server.admin = server.startAdmin(config);
    }
    Consumer<ErasureStore> serve =
        store -> {
          if (coordination != null) {
            server.coordination = join(store, coordination, listen.getHostString(), s3.port());
          }
          server.work = new BackgroundWork(store, server.coordination, config.abandonedUploadAge());
          server.work.start(
              config.scrubInterval(), config.lifecycleInterval(), hostName() + ":" + s3.port());
          server.store = store;
          UserRecords records = new UserRecords(store);
          StoredSecrets secrets = new StoredSecrets(store.config().keys());
          users.attach(records, secrets, config.usersRefresh(server.coordination != null));
          if (server.coordination != null) {
            // Changes of the users made anywhere are re-read at once (docs/access.md).
            server.coordination.listen(users::changed);
          }
          // The admin API's changes are announced to the other proxies as the CLI's are.
          server.accounts =
              new UserAccounts(
                  records,
                  secrets,
                  config.credentials().keySet(),
                  server.coordination != null ? server.coordination : UserChanges.NONE);
          gate.openTo(dispatcher.apply(store));
        };
    Optional<ErasureStore> open = opening.store();
    if (open.isPresent()) {
      server.serve(open.get(), serve); // a failure here fails the start, as it always did
    } else {
      opening
          .opened()
          .whenComplete(
              (store, failure) -> {
                if (failure != null) {
                  server.serving.completeExceptionally(failure);
                  return;
                }
                try {
                  server.serve(store, serve);
                } catch (RuntimeException e) {
                  LOG.error("the array opened, but the proxy cannot serve it: {}", e.toString());
                  server.serving.completeExceptionally(e);
                }
              });
    }
    return server;
  }

  /** Serves {@code store}, now open, with {@code serve}; closes it when the server closed first. */
  private void serve(ErasureStore store, Consumer<ErasureStore> serve) {
    synchronized (this) {
      if (closed) {
        store.close();
        return;
      }
      serve.accept(store);
    }
    serving.complete(null);
  }

  /**
   * Completes once the proxy serves its array (at once when it was started over an open store);
   * exceptionally when the opening gave up ({@link ArrayOpening#opened()}) or serving failed.
   */
  public CompletableFuture<Void> serving() {
    return serving.copy();
  }

  /** Whether the array is open and served. */
  public boolean open() {
    return gate.isOpen();
  }

  /** True when the proxy listens on a loopback address only. */
  private static boolean loopback(InetSocketAddress listen) {
    try {
      return java.net.InetAddress.getByName(listen.getHostString()).isLoopbackAddress();
    } catch (java.net.UnknownHostException e) {
      return false;
    }
  }

  private static ZooKeeperCoordination join(
      ErasureStore store, CoordinationConfig config, String host, int port) {
    return join(
        store,
        config,
        config.id() != null ? config.id() : hostName() + ":" + port,
        host + ":" + port);
  }

  /**
   * Joins the other proxies of the array in ZooKeeper as {@code id}, reached at {@code address},
   * and makes {@code store} coordinate through that session: its bucket creates and deletes, the
   * announcements and acknowledgements of changes of the array record, and, when {@link
   * CoordinationConfig#versionCache()}, its key stamps. Does not wait for the session (a ZooKeeper
   * unreachable yet only means not connected); the caller closes the coordination. Shared by the
   * server and the bench's in-process array, so that the bench measures the store as a proxy runs
   * it.
   */
  public static ZooKeeperCoordination join(
      ErasureStore store, CoordinationConfig config, String id, String address) {
    ZooKeeperCoordination coordination =
        ZooKeeperCoordination.start(
            new ZooKeeperCoordination.Settings(
                config.zookeeper(), config.namespace(), id, address, config.sessionTimeout()),
            store::bucketChanged,
            store::bucketsChanged);
    store.coordinate(coordination);
    store.coordinateLayout(coordination.layoutChanges());
    if (config.versionCache()) {
      store.coordinateKeys(coordination);
    }
    return coordination;
  }

  /** This machine's host name, or "localhost" when it has none that resolves. */
  public static String hostName() {
    try {
      return java.net.InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      return "localhost";
    }
  }

  private static SslContext ssl(ServerConfig config) {
    if (config.tlsCert() == null) {
      return null;
    }
    try {
      return SslContextBuilder.forServer(config.tlsCert().toFile(), config.tlsKey().toFile())
          .build();
    } catch (SSLException | IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "tls: cannot load " + config.tlsCert() + " and its key: " + e.getMessage(), e);
    }
  }

  /**
   * Runs the background scrub once if this proxy may (it is the leader, or it takes the heal lease,
   * or there is neither coordination nor a lease), and returns its report; null when it may not.
   */
  HealReport scrubOnce(double megabytesPerSecond) {
    return work.scrubOnce(megabytesPerSecond);
  }

  /**
   * Runs the lifecycle scan once, as its schedule does, if this proxy may (as {@link #scrubOnce}),
   * at most {@code versionsPerSecond} versions a second (0: no limit); null when it may not.
   */
  LifecycleScrub.Report lifecycleOnce(double versionsPerSecond) {
    return work.lifecycleOnce(versionsPerSecond);
  }

  /** What the last scrub did with abandoned uploads; null before one ran. */
  AbandonedUploads.Report lastUploads() {
    return work.lastUploads();
  }

  /** The heal lease of a proxy without coordination that runs background work; null otherwise. */
  HealLease lease() {
    return work.lease();
  }

  /** Runs the reshape's mover once, as its schedule does, if a reshape runs and this proxy may. */
  Mover.Report reshapeOnce() {
    return work.reshapeOnce();
  }

  /** The coordination with the other proxies, or null when there is none. */
  ZooKeeperCoordination coordination() {
    return coordination;
  }

  private AdminServer startAdmin(ServerConfig config) throws IOException {
    return AdminServer.start(
        ServerConfig.address(config.adminListen(), "adminListen"),
        new AdminSources(
            () -> store,
            () -> {
              ArrayOpening.Status status = opening.status();
              return new AdminSources.Opening(
                  opening.config(),
                  status.attempts(),
                  status.waited(),
                  status.reason(),
                  status.repositories());
            },
            metrics,
            () -> coordination,
            () -> work == null ? null : work.lastScrub(),
            lifecycleOn,
            config.credentials(),
            accessLog,
            new Actions(),
            config.consoleReadOnly(),
            json -> {
              BackgroundWork w = work;
              if (w != null) {
                w.reshape().appendReady(json);
              }
            },
            () -> {
              BackgroundWork w = work;
              return w == null ? MetricSnapshots.of() : w.reshape().metrics();
            },
            () -> accounts,
            users::refresh));
  }

  /** The console's actions, on the background work (which starts after the admin port). */
  private final class Actions implements AdminActions {
    @Override
    public boolean startScrub() {
      return work != null && work.startScrub();
    }

    @Override
    public void pauseScrub(boolean paused) {
      if (work != null) {
        work.pauseScrub(paused);
      }
    }

    @Override
    public boolean scrubPaused() {
      return work != null && work.scrubPaused();
    }

    @Override
    public boolean scrubRunning() {
      return work != null && work.scrubRunning();
    }
  }

  /**
   * Who each access key belongs to (the configuration's administrators, then the users stored in
   * the array), for the policy decision.
   */
  public Principals principals() {
    return users;
  }

  /** The users this proxy serves (for re-reading them at once after a change made here). */
  public UserDirectory users() {
    return users;
  }

  /** The S3 port. */
  public int port() {
    return s3.port();
  }

  /** The admin port, or -1 when there is none. */
  public int adminPort() {
    return admin == null ? -1 : admin.port();
  }

  @Override
  public void close() {
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true; // a store the opening opens from now on is closed at once (serve)
    }
    opening.close();
    if (work != null) {
      work.close();
    }
    s3.close();
    users.close();
    if (coordination != null) {
      coordination.close();
    }
    // After the drain, so the requests it let finish are logged too.
    accessLog.close();
    if (admin != null) {
      admin.close();
    }
    if (store != null) {
      store.close();
    }
  }
}
