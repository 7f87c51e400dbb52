package io.racs.proxy.runtime;

import io.racs.proxy.s3.server.Transport;
import io.racs.repos.config.ConfigSection;
import io.racs.repos.config.RepositorySetConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code server:} section of a RACS configuration file: how {@code racs server} listens and
 * whom it lets in. Credentials may (and should) come from {@code ${env:NAME}} references.
 *
 * <pre>{@code
 * server:
 *   listen: 127.0.0.1:9000      # a non-loopback address must be asked for explicitly
 *   adminListen: 127.0.0.1:9001 # /health/*, /metrics, /console (docs/console.md); off: none
 *   region: us-east-1
 *   baseDomain: s3.example.test # enables virtual-host style requests
 *   credentials:
 *     - {accessKey: admin, secretKey: ${env:RACS_SECRET}}
 *   tls: {cert: /etc/racs/cert.pem, key: /etc/racs/key.pem}
 *   maxHeaderSize: 16KiB
 *   idleTimeout: 60s
 *   drainTimeout: 30s
 *   scrubInterval: 24h          # background heal (0s: off, the default)
 *   abandonedUploadAge: 168h    # the scrub gives up uploads idle this long (0s: never)
 *   lifecycleInterval: 1h       # the buckets' lifecycle rules are carried out (0s: off)
 *   startupWait: unlimited      # how long to wait for the array to open (0s: exit at once)
 *   usersRefresh: 10s           # stored users are re-read this often (with coordination: 60s)
 *   consoleReadOnly: false      # true: the console shows, but starts or pauses nothing
 *   transport: auto             # epoll where available, else nio; or epoll, io_uring, nio
 * }</pre>
 *
 * @param listen host:port for S3
 * @param adminListen host:port for health and metrics, or null for none
 * @param region the region clients sign for
 * @param baseDomain virtual-host base domain, or null
 * @param credentials access key to secret key
 * @param tlsCert PEM certificate chain, or null for plain HTTP
 * @param tlsKey PEM private key, or null
 * @param maxHeaderBytes largest request head accepted
 * @param idleTimeout idle connections close after this
 * @param drainTimeout shutdown waits this long for requests in flight
 * @param scrubInterval background heal interval; zero for off
 * @param abandonedUploadAge the background scrub gives up multipart uploads with no activity for
 *     this long ({@link io.racs.proxy.store.heal.AbandonedUploads}); zero for never; default 7 days
 * @param lifecycleInterval how often the lifecycle scan carries out the buckets' lifecycle rules;
 *     zero for off (PutBucketLifecycleConfiguration is then refused); default {@link
 *     #DEFAULT_LIFECYCLE_INTERVAL}, whether or not the background heal is on
 * @param startupWait how long {@code racs server} waits, serving 503 and reporting not ready, for
 *     enough repositories to answer for the array to open before it exits 1; null for no limit (the
 *     default, as MinIO waits for its quorum), zero to exit at once as before the wait existed
 * @param usersRefresh how often the users stored in the array are re-read periodically (one listing
 *     of their records on each repository); null for the default, {@link #usersRefresh(boolean)};
 *     zero for never periodically. Without coordination this is how long a removed user or a
 *     changed policy may still be served here (a new key works within a second anyway: an unknown
 *     key makes the proxy re-read, {@link io.racs.proxy.users.UserDirectory}); with coordination
 *     every change is announced and seen at once, and this is only the backstop for an announcement
 *     lost with the ZooKeeper session
 * @param consoleReadOnly true when the admin console may not start or pause background work
 * @param transport the socket transport of the S3 server's event loops; {@link Transport#AUTO} (the
 *     default) is epoll where Netty's native library loads, else NIO; a native one named that the
 *     machine cannot run fails the start
 */
public record ServerConfig(
    String listen,
    String adminListen,
    String region,
    String baseDomain,
    Map<String, String> credentials,
    Path tlsCert,
    Path tlsKey,
    int maxHeaderBytes,
    Duration idleTimeout,
    Duration drainTimeout,
    Duration scrubInterval,
    Duration abandonedUploadAge,
    Duration lifecycleInterval,
    Duration startupWait,
    Duration usersRefresh,
    boolean consoleReadOnly,
    Transport transport) {
  /** The fields of the section, as written. */
  private record Section(
      String listen,
      String adminListen,
      String region,
      String baseDomain,
      List<Credential> credentials,
      Tls tls,
      String maxHeaderSize,
      String idleTimeout,
      String drainTimeout,
      String scrubInterval,
      String abandonedUploadAge,
      String lifecycleInterval,
      String startupWait,
      String usersRefresh,
      Boolean consoleReadOnly,
      String transport) {}

  private record Credential(String accessKey, String secretKey) {}

  private record Tls(String cert, String key) {}

  /** The word that turns the admin listener off, in the file and on the command line. */
  public static final String OFF = "off";

  /** The word for no limit on {@code startupWait}, its default. */
  public static final String UNLIMITED = "unlimited";

  /**
   * How often the lifecycle scan runs unless configured: lifecycle rules count in days, expire at
   * midnight UTC, and S3 itself carries them out some time after, so an hour is prompt enough; the
   * scan is throttled and runs on one proxy of the array at a time.
   */
  public static final Duration DEFAULT_LIFECYCLE_INTERVAL = Duration.ofHours(1);

  /**
   * How often stored users are re-read unless configured, without coordination. The trade-off: a
   * new key does not depend on it (an unknown key makes the proxy re-read within a second), but a
   * removed user or a changed policy is served for up to this long; one listing per repository
   * every 10 s costs about 0.1 LIST a second per repository per proxy (it was 2 at 500 ms). MinIO's
   * own IAM refresh is minutes.
   */
  public static final Duration DEFAULT_USERS_REFRESH = Duration.ofSeconds(10);

  /**
   * How often stored users are re-read unless configured, with coordination: every change is
   * announced through ZooKeeper and seen at once, so this only bounds how long a change announced
   * while a proxy's session was interrupted may go unseen there (it re-reads when its session is
   * back anyway).
   */
  public static final Duration COORDINATED_USERS_REFRESH = Duration.ofSeconds(60);

  /** The defaults: loopback, no credentials yet. */
  public static ServerConfig defaults() {
    return new ServerConfig(
        "127.0.0.1:9000",
        "127.0.0.1:9001",
        "us-east-1",
        null,
        Map.of(),
        null,
        null,
        16 * 1024,
        Duration.ofSeconds(60),
        Duration.ofSeconds(30),
        Duration.ZERO,
        io.racs.proxy.store.heal.AbandonedUploads.DEFAULT_AGE,
        DEFAULT_LIFECYCLE_INTERVAL,
        null,
        null,
        false,
        Transport.AUTO);
  }

  /** Reads the section (absent: the defaults) from a loaded file. */
  public static ServerConfig from(RepositorySetConfig file) {
    ServerConfig d = defaults();
    ConfigSection section = file.configSection("server");
    Section s = section.bind(Section.class);
    Map<String, String> credentials = new LinkedHashMap<>();
    for (Credential c : s.credentials() == null ? List.<Credential>of() : s.credentials()) {
      if (c == null || empty(c.accessKey()) || empty(c.secretKey())) {
        throw section.error("credentials", "each entry needs accessKey and secretKey");
      }
      if (credentials.put(c.accessKey(), c.secretKey()) != null) {
        throw section.error("credentials", "access key '" + c.accessKey() + "' listed twice");
      }
    }
    Path cert = null;
    Path key = null;
    if (s.tls() != null) {
      if (empty(s.tls().cert()) || empty(s.tls().key())) {
        throw section.error("tls", "expected {cert: FILE, key: FILE}");
      }
      cert = Path.of(s.tls().cert());
      key = Path.of(s.tls().key());
    }
    String adminListen = s.adminListen() == null ? d.adminListen() : s.adminListen();
    return new ServerConfig(
        s.listen() == null ? d.listen() : s.listen(),
        adminListen.equals(OFF) ? null : adminListen,
        s.region() == null ? d.region() : s.region(),
        s.baseDomain(),
        credentials,
        cert,
        key,
        (int)
            section
                .size("maxHeaderSize", s.maxHeaderSize(), 1024, 1 << 20, "a size from 1KiB to 1MiB")
                .orElse(d.maxHeaderBytes()),
        section.duration("idleTimeout", s.idleTimeout(), "30s").orElse(d.idleTimeout()),
        section.duration("drainTimeout", s.drainTimeout(), "30s").orElse(d.drainTimeout()),
        section.duration("scrubInterval", s.scrubInterval(), "30s").orElse(d.scrubInterval()),
        section
            .duration("abandonedUploadAge", s.abandonedUploadAge(), "168h")
            .orElse(d.abandonedUploadAge()),
        section
            .duration("lifecycleInterval", s.lifecycleInterval(), "1h")
            .orElse(d.lifecycleInterval()),
        s.startupWait() == null || s.startupWait().equals(UNLIMITED)
            ? null
            : section.duration("startupWait", s.startupWait(), "10m (or unlimited)").orElseThrow(),
        section.duration("usersRefresh", s.usersRefresh(), "1s").orElse(d.usersRefresh()),
        s.consoleReadOnly() != null && s.consoleReadOnly(),
        transport(section, s.transport()));
  }

  private static Transport transport(ConfigSection section, String word) {
    if (word == null) {
      return Transport.AUTO;
    }
    try {
      return Transport.of(word);
    } catch (IllegalArgumentException e) {
      throw section.error("transport", e.getMessage());
    }
  }

  /** Whether {@code racs server} waits for the array to open at all ({@link #startupWait}). */
  public boolean waitsForArray() {
    return startupWait == null || !startupWait.isZero();
  }

  /** A copy with another {@link #startupWait} (null: no limit; zero: exit at once). */
  public ServerConfig withStartupWait(Duration startupWait) {
    return copy(c -> c.startupWait = startupWait);
  }

  private static boolean empty(String value) {
    return value == null || value.isEmpty();
  }

  /** A copy with other fields. */
  public ServerConfig with(String listen, Map<String, String> credentials) {
    return copy(
        c -> {
          c.listen = listen;
          c.credentials = credentials;
        });
  }

  /** A copy with another background scrub interval (zero: off). */
  public ServerConfig withScrubInterval(Duration scrubInterval) {
    return copy(c -> c.scrubInterval = scrubInterval);
  }

  /** A copy with another age past which the scrub gives up idle uploads (zero: never). */
  public ServerConfig withAbandonedUploadAge(Duration abandonedUploadAge) {
    return copy(c -> c.abandonedUploadAge = abandonedUploadAge);
  }

  /** A copy with another lifecycle scan interval (zero: lifecycle off). */
  public ServerConfig withLifecycleInterval(Duration lifecycleInterval) {
    return copy(c -> c.lifecycleInterval = lifecycleInterval);
  }

  /** True when the lifecycle scan runs, so that lifecycle rules are carried out. */
  public boolean lifecycleOn() {
    return !lifecycleInterval.isZero();
  }

  /**
   * How often the stored users are re-read periodically: as configured, else {@link
   * #DEFAULT_USERS_REFRESH}, or {@link #COORDINATED_USERS_REFRESH} when the proxy is {@code
   * coordinated} (its configuration has a {@code coordination:} section). Zero: never periodically.
   */
  public Duration usersRefresh(boolean coordinated) {
    if (usersRefresh != null) {
      return usersRefresh;
    }
    return coordinated ? COORDINATED_USERS_REFRESH : DEFAULT_USERS_REFRESH;
  }

  /**
   * A copy with another interval of re-reading the stored users (zero: never periodically; null:
   * the default).
   */
  public ServerConfig withUsersRefresh(Duration usersRefresh) {
    return copy(c -> c.usersRefresh = usersRefresh);
  }

  /** A copy whose console may ({@code false}) or may not start or pause background work. */
  public ServerConfig withConsoleReadOnly(boolean consoleReadOnly) {
    return copy(c -> c.consoleReadOnly = consoleReadOnly);
  }

  /** A copy on another transport ({@link Transport#AUTO}: the default). */
  public ServerConfig withTransport(Transport transport) {
    return copy(c -> c.transport = transport);
  }

  /** A copy with another admin address (null: none). */
  public ServerConfig withAdmin(String adminListen) {
    return copy(c -> c.adminListen = adminListen);
  }

  /** The fields the {@code with} methods change, as this config has them until changed. */
  private static final class Changes {
    String listen;
    String adminListen;
    Map<String, String> credentials;
    Duration scrubInterval;
    Duration abandonedUploadAge;
    Duration lifecycleInterval;
    Duration startupWait;
    Duration usersRefresh;
    boolean consoleReadOnly;
    Transport transport;

    Changes(ServerConfig from) {
      listen = from.listen;
      adminListen = from.adminListen;
      credentials = from.credentials;
      scrubInterval = from.scrubInterval;
      abandonedUploadAge = from.abandonedUploadAge;
      lifecycleInterval = from.lifecycleInterval;
      startupWait = from.startupWait;
      usersRefresh = from.usersRefresh;
      consoleReadOnly = from.consoleReadOnly;
      transport = from.transport;
    }
  }

  /** A copy with what {@code change} does to the fields a copy may change. */
  private ServerConfig copy(java.util.function.Consumer<Changes> change) {
    Changes c = new Changes(this);
    change.accept(c);
    return new ServerConfig(
        c.listen,
        c.adminListen,
        region,
        baseDomain,
        c.credentials,
        tlsCert,
        tlsKey,
        maxHeaderBytes,
        idleTimeout,
        drainTimeout,
        c.scrubInterval,
        c.abandonedUploadAge,
        c.lifecycleInterval,
        c.startupWait,
        c.usersRefresh,
        c.consoleReadOnly,
        c.transport);
  }

  /** Host and port of a {@code host:port} text. */
  public static java.net.InetSocketAddress address(String hostPort, String what) {
    int colon = hostPort.lastIndexOf(':');
    if (colon <= 0) {
      throw new IllegalArgumentException(what + ": " + hostPort + " (expected: host:port)");
    }
    try {
      String host = hostPort.substring(0, colon);
      if (host.startsWith("[") && host.endsWith("]")) {
        host = host.substring(1, host.length() - 1);
      }
      return java.net.InetSocketAddress.createUnresolved(
          host, Integer.parseInt(hostPort.substring(colon + 1)));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(what + ": " + hostPort + " (expected: host:port)", e);
    }
  }

  @Override
  public String toString() {
    return "ServerConfig[listen="
        + listen
        + ", region="
        + region
        + ", credentials="
        + credentials.keySet()
        + " (secrets hidden)]";
  }
}
