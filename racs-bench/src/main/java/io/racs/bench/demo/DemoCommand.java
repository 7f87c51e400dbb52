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
import io.racs.proxy.store.heal.Healer;
import io.racs.repos.Repository;
import io.racs.repos.fs.FsRepository;
import io.racs.repos.minio.MinioServer;
import io.racs.repos.s3.S3Credentials;
import io.racs.repos.s3.S3Options;
import io.racs.repos.s3.S3Repository;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Stream;
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
 * try (Ctrl-C stops it).
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
  private static final String BUCKET = "racs";
  private static final int OBJECTS = 16;

  /** Measured iterations per point: enough for a 95% interval narrower than the mean. */
  private static final int ITERATIONS = 5;

  private static final int WIDTH = 100;

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
  private int steps = 6;
  private final List<MinioServer> servers = new ArrayList<>();

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
    if (proxies > 1) {
      return multiProxy(geometry);
    }
    long started = System.nanoTime();
    prepareDirectory();
    String secret = "demo-" + Long.toHexString(new Random().nextLong() | 1L << 62);
    step(
        1,
        minio > 0
            ? "starting 6 MinIO servers as repositories"
            : "creating 6 local-directory repositories");
    List<Repository> repositories = minio > 0 ? minioRepositories() : fsRepositories();
    Path config = writeConfig(geometry);
    step(2, "starting the proxy (" + geometry + ")");
    ErasureStore store =
        ErasureStore.open(
            StoreConfig.builder(geometry)
                .slowShardTimeout(Duration.ofSeconds(5))
                .gcGrace(Duration.ZERO)
                .build(),
            repositories);
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
      step(
          3,
          "object bench: repo-0 directly and the array through the proxy (1 MiB mix, 1 and 8"
              + " clients, "
              + ITERATIONS
              + " iterations of "
              + duration
              + ", 95% CI)");
      Path report = dir.resolve("report");
      int code =
          bench.run(
              out,
              spec.commandLine().getErr(),
              "object",
              "--config",
              config.toString(),
              "--repository",
              "repo-0",
              "--endpoint",
              endpoint.toString(),
              "--access-key",
              ACCESS_KEY,
              "--secret-key",
              secret,
              "--name",
              "racs-proxy",
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
              "racs-proxy/repo-0",
              "--quiet",
              "--out",
              report.toString());
      if (code != ExitCodes.OK) {
        throw new IllegalStateException("the object bench failed (exit " + code + ")");
      }
      for (String line :
          RedundancySummary.lines(
              Compare.read(report.resolve("results.json")),
              geometry,
              "racs-proxy",
              "repo-0",
              Runtime.getRuntime().availableProcessors())) {
        printWrapped(line);
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
        step(4, "taking two repositories away (slots 1 and 4)");
        breakSlots(1, 4);
        int good = verify(s3, bodies);
        out.printf("      %d/%d GETs byte-exact with 2 of 6 repositories gone%n", good, OBJECTS);
        byte[] extra = new byte[100_000];
        new Random(99).nextBytes(extra);
        s3.putObject(
            b -> b.bucket("demo").key("written-during-outage"), RequestBody.fromBytes(extra));
        out.println("      PUT during the outage: ok (a write quorum of 4 is up)");
        step(5, "replacing them with empty repositories and healing");
        replaceSlots(1, 4);
        if (minio == 0) {
          // A local directory re-created under a running repository is refused (an unmounted
          // disk's empty mount point looks just the same), so the new ones join as an operator's
          // would: the proxy restarts on the same address and adopts them when it opens, since
          // the four others prove which array and slots they belong to.
          int port = server.port();
          server.close(); // closes the store too
          store =
              ErasureStore.open(
                  StoreConfig.builder(geometry)
                      .slowShardTimeout(Duration.ofSeconds(5))
                      .gcGrace(Duration.ZERO)
                      .build(),
                  fsRepositories());
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
        Healer.Report healed = Healer.heal(store, Healer.Options.defaults());
        healed.lines().forEach(line -> out.println("      " + line));
        breakSlots(0, 5);
        int after = verify(s3, bodies);
        out.printf(
            "      %d/%d GETs byte-exact with two *other* repositories gone: redundancy restored%n",
            after, OBJECTS);
        restoreSlots(0, 5);
        if (good != OBJECTS || after != OBJECTS || !healed.unrecoverable().isEmpty()) {
          throw new IllegalStateException("the array lost data: see above");
        }
      }
      step(6, String.format("done in %.0f s", (System.nanoTime() - started) / 1e9));
      out.printf("      report: %s%n", report.resolve("report.html").toAbsolutePath());
      out.printf("      access log: %s%n", accessLog.toAbsolutePath());
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
      servers.forEach(MinioServer::kill);
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
    steps = 7;
    long started = System.nanoTime();
    prepareDirectory();
    String secret = "demo-" + Long.toHexString(new Random().nextLong() | 1L << 62);
    Map<String, String> credentials = Map.of(ACCESS_KEY, secret);
    step(
        1,
        minio > 0
            ? "starting 6 MinIO servers as repositories"
            : "creating 6 local-directory repositories");
    if (minio > 0) {
      minioRepositories().forEach(Repository::close);
    } else {
      fsRepositories().forEach(Repository::close);
    }
    writeConfig(geometry);
    EmbeddedZooKeeper embedded = null;
    try (MultiProxyDemo demo = new MultiProxyDemo(out)) {
      String connect = zookeeper;
      if (connect == null) {
        Path data = dir.resolve("zookeeper");
        embedded = EmbeddedZooKeeper.start(data);
        connect = embedded.connectString();
        step(2, "starting an embedded ZooKeeper at " + connect + " (data in " + data + ")");
      } else {
        step(2, "using the ZooKeeper ensemble at " + connect);
      }
      step(
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
          () ->
              ErasureStore.open(
                  StoreConfig.builder(geometry)
                      .slowShardTimeout(Duration.ofSeconds(5))
                      .gcGrace(Duration.ZERO)
                      .build(),
                  minio > 0 ? minioRepositories() : fsRepositories()));
      String leader = demo.awaitAgreement();
      demo.printMembership(demo.running().getFirst());

      step(
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
        step(5, OBJECTS + " objects written round robin, each read back through another proxy");
        clients.getFirst().createBucket(b -> b.bucket("demo"));
        int good = MultiProxyDemo.writeAndCrossRead(clients, "demo", bodies);
        out.printf(
            "      %d/%d GETs byte-exact, none through the proxy that wrote it%n", good, OBJECTS);

        step(6, "stopping the leader, " + leader + " (its S3 port and its ZooKeeper session)");
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

      step(7, String.format("done in %.0f s", (System.nanoTime() - started) / 1e9));
      out.printf("      report: %s%n", report.resolve("report.html").toAbsolutePath());
      out.printf("      access logs: %s%n", dir.resolve("access-proxy-*.log").toAbsolutePath());
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
      servers.forEach(MinioServer::kill);
    }
  }

  /** Prints {@code text} in the steps' indentation, wrapped at {@link #WIDTH} columns. */
  private void printWrapped(String text) {
    String indent = "      " + " ".repeat(text.length() - text.stripLeading().length());
    String continuation = indent + "  ";
    StringBuilder line = new StringBuilder(indent);
    for (String word : text.strip().split(" ")) {
      if (line.length() + 1 + word.length() > WIDTH && !line.toString().isBlank()) {
        out.println(line.toString().stripTrailing());
        line = new StringBuilder(continuation);
      }
      if (!line.toString().isBlank()) {
        line.append(' ');
      }
      line.append(word);
    }
    out.println(line);
  }

  private void step(int n, String what) {
    out.printf("[%d/%d] %s%n", n, steps, what);
    out.flush();
  }

  private void prepareDirectory() throws IOException {
    Path marker = dir.resolve(".racs-demo");
    if (Files.exists(dir)) {
      if (!Files.exists(marker)) {
        throw new IllegalArgumentException(
            "--dir: "
                + dir
                + " exists and is not a demo directory (expected: a new or earlier demo directory)");
      }
      deleteTree(dir);
    }
    Files.createDirectories(dir);
    Files.writeString(marker, "created by racs demo; deleted and recreated by each run\n");
  }

  private List<Repository> fsRepositories() throws IOException {
    List<Repository> repositories = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      Path root = Files.createDirectories(dir.resolve("repos").resolve("repo-" + i));
      repositories.add(FsRepository.builder(root).name("repo-" + i).build());
    }
    return repositories;
  }

  /**
   * Repositories over the MinIO servers, which the first call starts (later calls, one per proxy of
   * {@code --proxies}, open clients of their own to the same servers).
   */
  private List<Repository> minioRepositories() {
    if (servers.isEmpty()) {
      for (int i = 0; i < minio; i++) {
        MinioServer server = MinioServer.builder(dir.resolve("minio").resolve("node-" + i)).build();
        servers.add(server);
        server.start();
        createBucket(server);
      }
    }
    List<Repository> repositories = new ArrayList<>();
    for (int i = 0; i < minio; i++) {
      MinioServer server = servers.get(i);
      repositories.add(
          S3Repository.create(
              "repo-" + i,
              S3Options.builder(BUCKET)
                  .endpoint(server.endpoint())
                  .pathStyle(true)
                  .credentials(S3Credentials.of(server.accessKey(), server.secretKey()))
                  .connectTimeout(Duration.ofSeconds(1))
                  .maxAttempts(1)
                  .build()));
    }
    return repositories;
  }

  private static void createBucket(MinioServer server) {
    try (S3Client s3 =
        S3Client.builder()
            .endpointOverride(server.endpoint())
            .region(Region.US_EAST_1)
            .forcePathStyle(true)
            .credentialsProvider(
                StaticCredentialsProvider.create(
                    AwsBasicCredentials.create(server.accessKey(), server.secretKey())))
            .httpClientBuilder(Apache5HttpClient.builder())
            .build()) {
      s3.createBucket(b -> b.bucket(BUCKET));
    }
  }

  private Path writeConfig(Geometry geometry) throws IOException {
    StringBuilder yaml =
        new StringBuilder(
            "# Written by racs demo: the demo's array, for racs heal / recover / bench.\n");
    yaml.append("array:\n  geometry: ").append(geometry).append("\nrepositories:\n");
    for (int i = 0; i < 6; i++) {
      if (minio > 0) {
        MinioServer s = servers.get(i);
        yaml.append("  - {name: repo-")
            .append(i)
            .append(", type: minio, endpoint: ")
            .append(s.endpoint())
            .append(", bucket: ")
            .append(BUCKET)
            .append(", credentials: {accessKey: ")
            .append(s.accessKey())
            .append(", secretKey: ")
            .append(s.secretKey())
            .append("}}\n");
      } else {
        yaml.append("  - {name: repo-")
            .append(i)
            .append(", type: fs, path: ")
            .append(dir.resolve("repos").resolve("repo-" + i).toAbsolutePath())
            .append("}\n");
      }
    }
    Path file = dir.resolve("racs.yaml");
    Files.writeString(file, yaml);
    return file;
  }

  private void breakSlots(int... slots) throws IOException {
    for (int slot : slots) {
      if (minio > 0) {
        servers.get(slot).stop();
      } else {
        Path root = dir.resolve("repos").resolve("repo-" + slot);
        Files.move(
            root, root.resolveSibling("repo-" + slot + ".away"), StandardCopyOption.ATOMIC_MOVE);
      }
    }
  }

  private void restoreSlots(int... slots) throws IOException {
    for (int slot : slots) {
      if (minio > 0) {
        servers.get(slot).start();
      } else {
        Path root = dir.resolve("repos").resolve("repo-" + slot);
        Files.move(
            root.resolveSibling("repo-" + slot + ".away"), root, StandardCopyOption.ATOMIC_MOVE);
      }
    }
  }

  /** The slots' storage comes back empty, as a replaced disk or a new provider would. */
  private void replaceSlots(int... slots) throws IOException {
    for (int slot : slots) {
      if (minio > 0) {
        MinioServer server = servers.get(slot);
        for (Path drive : server.drives()) {
          deleteTree(drive);
        }
        server.start();
        createBucket(server);
      } else {
        Path root = dir.resolve("repos").resolve("repo-" + slot);
        deleteTree(root.resolveSibling("repo-" + slot + ".away"));
        Files.createDirectories(root);
      }
    }
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

  private static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> files = Files.walk(root)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
