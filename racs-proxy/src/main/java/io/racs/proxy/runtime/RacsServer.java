package io.racs.proxy.runtime;

import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.racs.proxy.admin.AdminActions;
import io.racs.proxy.admin.AdminServer;
import io.racs.proxy.admin.AdminSources;
import io.racs.proxy.config.EncryptionConfig;
import io.racs.proxy.coord.ZooKeeperCoordination;
import io.racs.proxy.s3.auth.S3Authenticator;
import io.racs.proxy.s3.auth.StaticCredentialStore;
import io.racs.proxy.s3.bridge.StoreBridge;
import io.racs.proxy.s3.handler.S3Dispatcher;
import io.racs.proxy.s3.handler.SsePolicy;
import io.racs.proxy.s3.route.S3Router;
import io.racs.proxy.s3.server.AccessLog;
import io.racs.proxy.s3.server.S3Server;
import io.racs.proxy.s3.server.ServerMetrics;
import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.heal.AbandonedUploads;
import io.racs.proxy.store.heal.HealLease;
import io.racs.proxy.store.heal.HealReport;
import java.io.IOException;
import java.net.InetSocketAddress;
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
 */
public final class RacsServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RacsServer.class);

  private final ErasureStore store;
  private final S3Server s3;
  private final ServerMetrics metrics;
  private final AccessLog accessLog;
  private AdminServer admin;
  private ZooKeeperCoordination coordination;
  private BackgroundWork work;
  private final boolean lifecycleOn;

  private RacsServer(
      ErasureStore store,
      S3Server s3,
      ServerMetrics metrics,
      AccessLog accessLog,
      boolean lifecycleOn) {
    this.store = store;
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
    if (config.credentials().isEmpty()) {
      throw new IllegalArgumentException(
          "server: no credentials (expected: at least one access key)");
    }
    ServerMetrics metrics = new ServerMetrics();
    InetSocketAddress listen = ServerConfig.address(config.listen(), "listen");
    S3Authenticator authenticator =
        S3Authenticator.builder(StaticCredentialStore.of(config.credentials()))
            .region(config.region())
            .build();
    S3Server s3 =
        S3Server.start(
            new S3Server.Settings(
                listen.getHostString(),
                listen.getPort(),
                config.baseDomain() == null
                    ? S3Router.pathStyle()
                    : S3Router.withBaseDomain(config.baseDomain()),
                authenticator,
                new S3Dispatcher(
                    new StoreBridge(store),
                    config.region(),
                    authenticator,
                    new SsePolicy(
                        encryption.customerKeysOverHttp() && loopback(listen),
                        encryption.encryptByDefault(),
                        encryption.keys() != null),
                    config.lifecycleOn()),
                ssl(config),
                config.maxHeaderBytes(),
                config.idleTimeout(),
                config.drainTimeout(),
                metrics,
                accessLog));
    RacsServer server = new RacsServer(store, s3, metrics, accessLog, config.lifecycleOn());
    if (coordination != null) {
      server.coordination = join(store, coordination, listen.getHostString(), s3.port());
    }
    if (config.adminListen() != null) {
      server.admin = server.startAdmin(config);
    }
    server.work = new BackgroundWork(store, server.coordination, config.abandonedUploadAge());
    server.work.start(
        config.scrubInterval(), config.lifecycleInterval(), hostName() + ":" + s3.port());
    return server;
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
   * and makes {@code store} coordinate through that session: its bucket creates and deletes, and,
   * when {@link CoordinationConfig#versionCache()}, its key stamps. Does not wait for the session
   * (a ZooKeeper unreachable yet only means not connected); the caller closes the coordination.
   * Shared by the server and the bench's in-process array, so that the bench measures the store as
   * a proxy runs it.
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

  /** The coordination with the other proxies, or null when there is none. */
  ZooKeeperCoordination coordination() {
    return coordination;
  }

  private AdminServer startAdmin(ServerConfig config) throws IOException {
    return AdminServer.start(
        ServerConfig.address(config.adminListen(), "adminListen"),
        new AdminSources(
            store,
            metrics,
            coordination,
            () -> work == null ? null : work.lastScrub(),
            lifecycleOn,
            config.credentials(),
            accessLog,
            new Actions(),
            config.consoleReadOnly()));
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
    work.close();
    s3.close();
    if (coordination != null) {
      coordination.close();
    }
    // After the drain, so the requests it let finish are logged too.
    accessLog.close();
    if (admin != null) {
      admin.close();
    }
    store.close();
  }
}
