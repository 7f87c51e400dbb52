package io.racs.bench.demo;

import io.racs.bench.report.Compare;
import io.racs.proxy.cli.ExitCodes;
import io.racs.proxy.cli.VersionProvider;
import io.racs.proxy.codec.Geometry;
import io.racs.proxy.runtime.RacsServer;
import io.racs.proxy.runtime.ServerConfig;
import io.racs.proxy.s3.server.AccessLog;
import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.api.StoreConfig;
import io.racs.proxy.store.heal.HealOptions;
import io.racs.proxy.store.heal.HealReport;
import io.racs.proxy.store.heal.Healer;
import io.racs.repos.Repository;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * {@code racs demo}: the main job, end to end on one machine. It starts the proxy over six
 * repositories in 4x2 (local directories, or with {@code --minio 6} real MinIO processes — the
 * Compose topology without Docker), runs a short object bench against the repositories directly and
 * through the proxy, takes two repositories away and shows that reads and writes go on, replaces
 * them with empty ones and heals, and leaves the proxy serving with an {@code aws} command line to
 * try (Ctrl-C stops it). With {@code --clouds} the six are on four storage APIs ({@link
 * CloudRepositories}): two MinIO servers, Azurite, fake-gcs-server, an SFTP server and a directory.
 *
 * <p>With {@code --proxies N} (N &ge; 2) it shows several proxies over the same repositories
 * instead ({@link MultiProxyDemo}): coordinated through ZooKeeper (an embedded server unless {@code
 * --zookeeper} names one), their membership and leader as {@code /health/ready} reports them, the
 * bench and the demo's own requests sent round robin across them, and the leader stopped while the
 * others take over and keep serving every object.
 */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = "Run the proxy over local repositories, bench it, break two repositories, heal.")
public final class DemoCommand implements Callable<Integer> {
  private static final String ACCESS_KEY = "racs-demo";
  private static final int OBJECTS = 16;

  /** Measured iterations per point: enough for a 95% interval narrower than the mean. */
  private static final int ITERATIONS = 5;

  /** More proxies than this on one machine demonstrate nothing more. */
  private static final int MAX_PROXIES = 9;

  /** Measured iterations of the multi-proxy bench: it shows the round robin, not a result. */
  private static final int MULTI_ITERATIONS = 3;

  @Spec CommandSpec spec;

  @Option(
      names = "--dir",
      paramLabel = "DIR",
      description = "demo directory, recreated each run (default: ./racs-demo)")
  Path dir = Path.of("racs-demo");

  @Option(
      names = "--minio",
      paramLabel = "N",
      description = "run N (= 6) real MinIO servers as the repositories")
  int minio;

  @Option(
      names = "--clouds",
      description =
          "run the repositories on four storage APIs: two MinIO servers, Azurite, fake-gcs-server,"
              + " an SFTP server and a local directory")
  boolean clouds;

  @Option(
      names = "--listen",
      paramLabel = "HOST:PORT",
      description = "S3 address of the proxy (default: 127.0.0.1:9000)")
  String listen = "127.0.0.1:9000";

  @Option(
      names = "--duration",
      paramLabel = "D",
      description =
          "bench iteration length (default: 2s; with 8 clients through the proxy on two cores,"
              + " 1s can leave an iteration no window longer than a request)")
  String duration = "2s";

  @Option(
      names = "--proxies",
      paramLabel = "N",
      description =
          "run N proxies (1 to 9) over the same repositories, coordinated through ZooKeeper"
              + " (default: 1)")
  int proxies = 1;

  @Option(
      names = "--zookeeper",
      paramLabel = "HOST:PORT[,...]",
      description =
          "ZooKeeper ensemble for --proxies 2 or more (default: an embedded server on 127.0.0.1)")
  String zookeeper;

  @Option(
      names = "--no-wait",
      description = "stop when the demo is done instead of serving until Ctrl-C")
  boolean noWait;

  private final BenchLauncher bench;
  private PrintWriter out;
  private DemoPrinter printer;
  private DemoSlots repositories;

  /** A demo that runs its object bench through {@code bench}. */
  public DemoCommand(BenchLauncher bench) {
    this.bench = bench;
  }

  @Override
  public Integer call() throws Exception {
    out = spec.commandLine().getOut();
    Geometry geometry = Geometry.of(4, 2);
    if (minio != 0 && minio != geometry.totalShards()) {
      throw new IllegalArgumentException(
          "--minio: " + minio + " (expected: 6, one per shard of 4x2)");
    }
    checkProxies();
    if (clouds && minio != 0) {
      throw new IllegalArgumentException(
          "--minio: " + minio + " with --clouds (expected: one of --clouds and --minio)");
    }
    repositories = clouds ? new CloudRepositories(dir) : new DemoRepositories(dir, minio);
    printer = new DemoPrinter(out, proxies > 1 ? 7 : 6);
    if (proxies > 1) {
      return multiProxy(geometry);
    }
    try {
      return singleProxy(geometry);
    } finally {
      // Also when the store or the proxy fails to start: no server the demo started outlives it.
      repositories.close();
    }
  }

  private int singleProxy(Geometry geometry) throws Exception {
    long started = System.nanoTime();
    repositories.prepareDirectory();
    Path proxyLog = DemoLog.toFile(dir.resolve("proxy.log"));
    String secret = "demo-" + Long.toHexString(new Random().nextLong() | 1L << 62);
    printer.step(1, repositories.startStep());
    List<Repository> opened = repositories.open();
    repositories.lines().forEach(printer::wrapped);
    Path config = repositories.writeConfig(geometry);
    printer.step(2, "starting the proxy (" + geometry + ")");
    ErasureStore store = openStore(geometry, opened);
    Path accessLog = dir.resolve("access.log");
    RacsServer server =
        RacsServer.start(
            store,
            ServerConfig.defaults()
                .with(listen, Map.of(ACCESS_KEY, secret))
                .withAdmin("127.0.0.1:0"),
            AccessLog.toFile(accessLog));
    URI endpoint =
        URI.create(
            "http://"
                + ServerConfig.address(listen, "--listen").getHostString()
                + ":"
                + server.port());
    out.printf(
        "      S3 at %s, health at http://127.0.0.1:%d/health/ready%n",
        endpoint, server.adminPort());
    try {
      printer.step(
          3,
          "object bench: one directory and the array, both behind the S3 front end (1 MiB mix,"
              + " 1 and 8 clients, "
              + ITERATIONS
              + " iterations of "
              + duration
              + ", 95% CI)");
      Path report = dir.resolve("report");
      int code;
      try (OneDirectoryProxy baseline =
          OneDirectoryProxy.start(
              dir.resolve(OneDirectoryProxy.NAME), Map.of(ACCESS_KEY, secret))) {
        code = bench(report, endpoint, baseline.endpoint(), secret);
      }
      if (code != ExitCodes.OK) {
        throw new IllegalStateException("the object bench failed (exit " + code + ")");
      }
      for (String line :
          RedundancySummary.lines(
              Compare.read(report.resolve("results.json")),
              geometry,
              "racs-proxy",
              OneDirectoryProxy.NAME,
              Runtime.getRuntime().availableProcessors())) {
        printer.wrapped(line);
      }
      try (S3Client s3 = client(endpoint, secret)) {
        s3.createBucket(b -> b.bucket("demo"));
        List<byte[]> bodies = new ArrayList<>();
        for (int i = 0; i < OBJECTS; i++) {
          byte[] body = new byte[256 * 1024 + i];
          new Random(i).nextBytes(body);
          bodies.add(body);
          int n = i;
          s3.putObject(b -> b.bucket("demo").key("photo-" + n), RequestBody.fromBytes(body));
        }
        printer.step(4, "taking two repositories away (" + repositories.describe(1, 4) + ")");
        repositories.breakSlots(1, 4);
        int good = verify(s3, bodies);
        out.printf("      %d/%d GETs byte-exact with 2 of 6 repositories gone%n", good, OBJECTS);
        byte[] extra = new byte[100_000];
        new Random(99).nextBytes(extra);
        s3.putObject(
            b -> b.bucket("demo").key("written-during-outage"), RequestBody.fromBytes(extra));
        out.println("      PUT during the outage: ok (a write quorum of 4 is up)");
        printer.step(5, repositories.comeBackStep());
        repositories.comeBack(1, 4);
        if (repositories.reopenAfterComeBack()) {
          // A local directory re-created under a running repository is refused (an unmounted
          // disk's empty mount point looks just the same), so the new ones join as an operator's
          // would: the proxy restarts on the same address and adopts them when it opens, since
          // the four others prove which array and slots they belong to.
          int port = server.port();
          server.close(); // closes the store too
          store = openStore(geometry, repositories.open());
          server =
              RacsServer.start(
                  store,
                  ServerConfig.defaults()
                      .with(
                          ServerConfig.address(listen, "--listen").getHostString() + ":" + port,
                          Map.of(ACCESS_KEY, secret))
                      .withAdmin("127.0.0.1:0"),
                  AccessLog.toFile(accessLog));
          out.println("      proxy restarted: the two empty repositories adopted into their slots");
        }
        HealReport healed = Healer.heal(store, HealOptions.defaults());
        healed.lines().forEach(line -> out.println("      " + line));
        repositories.breakSlots(0, 5);
        int after = verify(s3, bodies);
        out.printf(
            "      %d/%d GETs byte-exact with two *other* repositories gone: redundancy restored%n",
            after, OBJECTS);
        repositories.restoreSlots(0, 5);
        if (good != OBJECTS || after != OBJECTS || !healed.unrecoverable().isEmpty()) {
          throw new IllegalStateException("the array lost data: see above");
        }
      }
      printer.step(6, String.format("done in %.0f s", (System.nanoTime() - started) / 1e9));
      out.printf("      report: %s%n", report.resolve("report.html").toAbsolutePath());
      out.printf("      access log: %s%n", accessLog.toAbsolutePath());
      out.printf("      proxy log:  %s%n", proxyLog.toAbsolutePath());
      out.printf("      heal:    ./racs heal --config %s%n", config.toAbsolutePath());
      out.printf(
          "      recover: ./racs recover --config %s --bucket demo --key photo-0 --out photo-0%n",
          config.toAbsolutePath());
      out.printf(
          "      try: AWS_ACCESS_KEY_ID=%s AWS_SECRET_ACCESS_KEY=%s aws --endpoint-url %s s3 ls s3://demo%n",
          ACCESS_KEY, secret, endpoint);
      if (noWait) {
        return ExitCodes.OK;
      }
      out.println("      serving until Ctrl-C");
      out.flush();
      CountDownLatch stop = new CountDownLatch(1);
      Runtime.getRuntime().addShutdownHook(new Thread(stop::countDown));
      stop.await();
      return ExitCodes.OK;
    } finally {
      server.close();
      repositories.close();
    }
  }

  /** Refuses a bad {@code --proxies} or {@code --zookeeper} before anything is created. */
  private void checkProxies() {
    if (proxies < 1 || proxies > MAX_PROXIES) {
      throw new IllegalArgumentException(
          "--proxies: " + proxies + " (expected: 1 to " + MAX_PROXIES + ")");
    }
    if (zookeeper != null && (proxies < 2 || zookeeper.isBlank())) {
      throw new IllegalArgumentException(
          "--zookeeper: "
              + zookeeper
              + " (expected: HOST:PORT[,HOST:PORT...], with --proxies 2 or more)");
    }
    if (proxies > 1) {
      int port = ServerConfig.address(listen, "--listen").getPort();
      if (port != 0 && port + proxies - 1 > 65_535) {
        throw new IllegalArgumentException(
            "--listen: "
                + listen
                + " (expected: room for "
                + proxies
                + " consecutive ports, or port 0 for any)");
      }
    }
  }

  /** {@code --proxies N}: N coordinated proxies over one array (see {@link MultiProxyDemo}). */
  private int multiProxy(Geometry geometry) throws Exception {
    long started = System.nanoTime();
    repositories.prepareDirectory();
    Path proxyLog = DemoLog.toFile(dir.resolve("proxy.log"));
    String secret = "demo-" + Long.toHexString(new Random().nextLong() | 1L << 62);
    Map<String, String> credentials = Map.of(ACCESS_KEY, secret);
    printer.step(1, repositories.startStep());
    repositories.open().forEach(Repository::close);
    repositories.writeConfig(geometry);
    EmbeddedZooKeeper embedded = null;
    try (MultiProxyDemo demo = new MultiProxyDemo(out)) {
      String connect = zookeeper;
      if (connect == null) {
        Path data = dir.resolve("zookeeper");
        embedded = EmbeddedZooKeeper.start(data);
        connect = embedded.connectString();
        printer.step(2, "starting an embedded ZooKeeper at " + connect + " (data in " + data + ")");
      } else {
        printer.step(2, "using the ZooKeeper ensemble at " + connect);
      }
      printer.step(
          3,
          "starting "
              + proxies
              + " proxies ("
              + geometry
              + ") over the same six repositories, coordinated through ZooKeeper");
      demo.start(
          proxies,
          listen,
          credentials,
          connect,
          dir,
          () -> openStore(geometry, repositories.open()));
      String leader = demo.awaitAgreement();
      demo.printMembership(demo.running().getFirst());

      printer.step(
          4,
          "object bench through all "
              + proxies
              + " proxies, round robin per request (1 MiB mix, 8 clients, "
              + MULTI_ITERATIONS
              + " iterations of "
              + duration
              + ")");
      Path report = dir.resolve("report");
      int code =
          bench.run(
              out,
              spec.commandLine().getErr(),
              "object",
              "--endpoint",
              demo.endpoints(),
              "--access-key",
              ACCESS_KEY,
              "--secret-key",
              secret,
              "--name",
              "racs-" + proxies + "-proxies",
              "--mix",
              "put=30,get=50,list=10,delete=10",
              "--sizes",
              "1MiB",
              "--objects",
              "32",
              "--clients",
              "8",
              "--warmup",
              "1",
              "--iterations",
              Integer.toString(MULTI_ITERATIONS),
              "--confidence",
              "95",
              "--duration",
              duration,
              "--out",
              report.toString());
      if (code != ExitCodes.OK) {
        throw new IllegalStateException("the object bench failed (exit " + code + ")");
      }

      List<byte[]> bodies = MultiProxyDemo.bodies(OBJECTS, 7);
      List<S3Client> clients = new ArrayList<>();
      try {
        for (MultiProxyDemo.Proxy proxy : demo.running()) {
          clients.add(client(proxy.endpoint(), secret));
        }
        printer.step(
            5, OBJECTS + " objects written round robin, each read back through another proxy");
        clients.getFirst().createBucket(b -> b.bucket("demo"));
        int good = MultiProxyDemo.writeAndCrossRead(clients, "demo", bodies);
        out.printf(
            "      %d/%d GETs byte-exact, none through the proxy that wrote it%n", good, OBJECTS);

        printer.step(
            6, "stopping the leader, " + leader + " (its S3 port and its ZooKeeper session)");
        int index = demo.running().stream().map(MultiProxyDemo.Proxy::id).toList().indexOf(leader);
        demo.stop(leader);
        clients.remove(index).close();
        String next = demo.awaitAgreement();
        out.printf("      leadership moved: %s -> %s%n", leader, next);
        demo.printMembership(demo.running().getFirst());
        int after = MultiProxyDemo.readRoundRobin(clients, "demo", bodies, 0);
        out.printf(
            "      %d/%d GETs byte-exact through the %d remaining proxies%n",
            after, OBJECTS, clients.size());
        byte[] extra = MultiProxyDemo.bodies(1, 99).getFirst();
        clients
            .getLast()
            .putObject(
                b -> b.bucket("demo").key("written-after-failover"), RequestBody.fromBytes(extra));
        byte[] back =
            clients
                .getFirst()
                .getObjectAsBytes(b -> b.bucket("demo").key("written-after-failover"))
                .asByteArray();
        out.printf(
            "      PUT after the failover: %s%n",
            Arrays.equals(back, extra) ? "ok (read back through another proxy)" : "WRONG BYTES");
        if (good != OBJECTS || after != OBJECTS || !Arrays.equals(back, extra)) {
          throw new IllegalStateException("the proxies lost data: see above");
        }
      } finally {
        clients.forEach(S3Client::close);
      }

      printer.step(7, String.format("done in %.0f s", (System.nanoTime() - started) / 1e9));
      out.printf("      report: %s%n", report.resolve("report.html").toAbsolutePath());
      out.printf("      access logs: %s%n", dir.resolve("access-proxy-*.log").toAbsolutePath());
      out.printf("      proxy log:   %s%n", proxyLog.toAbsolutePath());
      for (MultiProxyDemo.Proxy proxy : demo.running()) {
        out.printf(
            "      try: AWS_ACCESS_KEY_ID=%s AWS_SECRET_ACCESS_KEY=%s aws --endpoint-url %s s3 ls"
                + " s3://demo%n",
            ACCESS_KEY, secret, proxy.endpoint());
      }
      if (noWait) {
        return ExitCodes.OK;
      }
      out.println("      serving until Ctrl-C");
      out.flush();
      CountDownLatch stop = new CountDownLatch(1);
      Runtime.getRuntime().addShutdownHook(new Thread(stop::countDown));
      stop.await();
      return ExitCodes.OK;
    } finally {
      if (embedded != null) {
        embedded.close();
      }
      repositories.close();
    }
  }

  /**
   * The demo's object bench: the array's proxy and the one-directory proxy as two S3 targets, side
   * by side, with the array's overhead over the one directory.
   */
  private int bench(Path report, URI endpoint, URI baseline, String secret) throws Exception {
    return bench.run(
        out,
        spec.commandLine().getErr(),
        "object",
        "--endpoint",
        endpoint.toString(),
        "--access-key",
        ACCESS_KEY,
        "--secret-key",
        secret,
        "--name",
        "racs-proxy",
        "--endpoint",
        baseline.toString(),
        "--access-key",
        ACCESS_KEY,
        "--secret-key",
        secret,
        "--name",
        OneDirectoryProxy.NAME,
        "--mix",
        "put=30,get=50,list=10,delete=10",
        "--sizes",
        "1MiB",
        "--objects",
        "32",
        "--clients",
        "1,8",
        "--warmup",
        "1",
        "--iterations",
        Integer.toString(ITERATIONS),
        // Five iterations at 99.9% would multiply the spread by t = 8.6: 95% (t = 2.8) fits
        // a demo, and every table and report of the run names the level it used.
        "--confidence",
        "95",
        "--duration",
        duration,
        "--overhead",
        "racs-proxy/" + OneDirectoryProxy.NAME,
        "--quiet",
        "--out",
        report.toString());
  }

  /** The store every proxy of the demo opens: a short slow-shard timeout, garbage gone at once. */
  private static ErasureStore openStore(Geometry geometry, List<Repository> repositories) {
    return ErasureStore.open(
        StoreConfig.builder(geometry)
            .slowShardTimeout(Duration.ofSeconds(5))
            .gcGrace(Duration.ZERO)
            .build(),
        repositories);
  }

  private int verify(S3Client s3, List<byte[]> bodies) {
    int good = 0;
    for (int i = 0; i < bodies.size(); i++) {
      int n = i;
      byte[] got = s3.getObjectAsBytes(b -> b.bucket("demo").key("photo-" + n)).asByteArray();
      good += Arrays.equals(got, bodies.get(i)) ? 1 : 0;
    }
    return good;
  }

  private static S3Client client(URI endpoint, String secret) {
    return S3Client.builder()
        .endpointOverride(endpoint)
        .region(Region.US_EAST_1)
        .forcePathStyle(true)
        .credentialsProvider(
            StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS_KEY, secret)))
        .httpClientBuilder(Apache5HttpClient.builder())
        .build();
  }
}
