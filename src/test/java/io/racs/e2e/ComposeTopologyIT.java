package io.racs.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.repos.config.BackendConfig;
import io.racs.repos.config.RepositoryConfig;
import io.racs.repos.config.RepositoryConfigLoader;
import io.racs.repos.minio.MinioServer;
import io.racs.testkit.MinioExtension;
import io.racs.testkit.SeededBytes;
import io.racs.testkit.TestSeed;
import io.racs.testkit.TestTools;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The Compose demo's topology runs as processes, from its own files: three proxies, each on {@code
 * docker/racs.yaml} as it is with the environment {@code docker/compose.yml} gives that proxy, over
 * six real MinIO processes, coordinated through a real ZooKeeper (curator-test's in-process
 * server), behind a real {@code haproxy} process on {@code docker/haproxy.cfg}. Only addresses are
 * rewritten: the six repository endpoints, the proxies' listen addresses, the ZooKeeper address,
 * and HAProxy's binds and server addresses. Then an AWS SDK v2 client round-trips objects through
 * HAProxy, every proxy serves some of those requests (its {@code /metrics}), the shards land on all
 * six nodes, each proxy's {@code /health/ready} (asked directly and through the image's own {@code
 * docker/healthcheck.sh}) reports the six repositories up and the three members with one leader,
 * and the balancer's Compose health check passes.
 */
@Isolated
class ComposeTopologyIT {
  private static final ComposeFile COMPOSE = ComposeFile.load(Map.of());
  private static final Map<String, String> MINIO_ENV = COMPOSE.environment("minio-1");
  private static final List<String> PROXIES = List.of("proxy-1", "proxy-2", "proxy-3");
  private static final Map<String, String> PROXY_ENV = COMPOSE.environment(PROXIES.getFirst());
  private static final Duration SETTLE = Duration.ofSeconds(60);
  private static final Pattern ENV_REFERENCE =
      Pattern.compile("\\$\\{env:([A-Za-z_][A-Za-z0-9_]*)}");
  private static final Pattern LEADER = Pattern.compile("\"leaderId\":\"(proxy-\\d)\"");

  /** MinIO with the root credentials compose.yml gives its MinIO services. */
  @RegisterExtension
  static final MinioExtension MINIO =
      MinioExtension.servers(6)
          .env("MINIO_ROOT_USER", MINIO_ENV.get("MINIO_ROOT_USER"))
          .env("MINIO_ROOT_PASSWORD", MINIO_ENV.get("MINIO_ROOT_PASSWORD"));

  @TempDir static Path dir;
  private static TestingServer zookeeper;
  private static final List<ProxyProcess> proxies = new ArrayList<>();
  private static Process haproxy;
  private static int lbPort;
  private static int lbHealthPort;
  private static List<String> minioServices;
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  /** The servers by the root credentials of compose.yml (the test kit's clients use its own). */
  private static S3Client minioClient(MinioServer server) {
    return S3Client.builder()
        .endpointOverride(server.endpoint())
        .region(Region.of(server.region()))
        .forcePathStyle(true)
        .credentialsProvider(
            StaticCredentialsProvider.create(
                AwsBasicCredentials.create(
                    MINIO_ENV.get("MINIO_ROOT_USER"), MINIO_ENV.get("MINIO_ROOT_PASSWORD"))))
        .httpClientBuilder(Apache5HttpClient.builder())
        .build();
  }

  private static String bucket() {
    String text;
    try {
      text = Files.readString(ComposeFile.dockerDir().resolve("racs.yaml"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    RepositoryConfig first =
        RepositoryConfigLoader.withEnvironment(PROXY_ENV::get)
            .parse(text, "docker/racs.yaml")
            .repositories()
            .get(0);
    return ((BackendConfig.S3) first.backend()).options().bucket();
  }

  /**
   * Replaces the one line that is {@code field: VALUE} with {@code value} matching {@code
   * valueRegex}, keeping its indentation, by {@code field: replacement}.
   */
  private static String replaceLine(
      String text, String field, String valueRegex, String replacement) {
    Matcher m = Pattern.compile("(?m)^( +)" + field + ": " + valueRegex + "$").matcher(text);
    assertThat(m.results().count()).as("lines '%s: %s'", field, valueRegex).isEqualTo(1);
    return m.replaceFirst(r -> Matcher.quoteReplacement(r.group(1) + field + ": " + replacement));
  }

  @BeforeAll
  static void start() throws Exception {
    minioServices = new ArrayList<>();
    for (String name : COMPOSE.serviceNames()) {
      if (COMPOSE.service(name).path("image").asText().startsWith("minio/minio:")) {
        minioServices.add(name);
      }
    }
    assertThat(minioServices).hasSize(6);
    // What minio-init does in Compose.
    String bucket = bucket();
    for (int i = 0; i < 6; i++) {
      try (S3Client s3 = minioClient(MINIO.server(i))) {
        s3.createBucket(b -> b.bucket(bucket));
      }
    }

    zookeeper = new TestingServer(true);
    String original = Files.readString(ComposeFile.dockerDir().resolve("racs.yaml"));
    String yaml = original;
    for (int i = 0; i < 6; i++) {
      String service = minioServices.get(i);
      yaml =
          replaceLine(
              yaml,
              "endpoint",
              Pattern.quote(COMPOSE.minioEndpoint(service).toString()),
              MINIO.server(i).endpoint().toString());
    }
    // ProxyProcess needs free loopback ports, which it reads from the proxy's output.
    yaml = replaceLine(yaml, "listen", "\\S+", "127.0.0.1:0");
    yaml = replaceLine(yaml, "adminListen", "\\S+", "127.0.0.1:0");
    yaml = replaceLine(yaml, "zookeeper", "\\S+", zookeeper.getConnectString());
    for (String service : PROXIES) {
      // ProxyProcess passes no environment of its own, so the values Compose would put in this
      // proxy's environment are written in place of the ${env:...} references.
      Map<String, String> env = COMPOSE.environment(service);
      Matcher m = ENV_REFERENCE.matcher(yaml);
      StringBuilder resolved = new StringBuilder();
      int references = 0;
      while (m.find()) {
        String value = env.get(m.group(1));
        assertThat(value).as("compose.yml gives %s %s", service, m.group(1)).isNotNull();
        m.appendReplacement(resolved, Matcher.quoteReplacement(value));
        references++;
      }
      m.appendTail(resolved);
      assertThat(references).isPositive();
      assertThat(resolved.toString()).doesNotContain("${env:").contains("id: " + service);
      assertThat(resolved.toString().lines().count()).isEqualTo(original.lines().count());
      proxies.add(
          ProxyProcess.start(Files.createDirectories(dir.resolve(service)), resolved.toString()));
    }
    await(
        "every proxy lists the three members and the same leader",
        () -> {
          Set<String> leaders = new HashSet<>();
          for (ProxyProcess proxy : proxies) {
            String ready = admin(proxy, "/health/ready");
            for (String id : PROXIES) {
              if (!ready.contains("{\"id\":\"" + id + "\"")) {
                return false;
              }
            }
            Matcher leader = LEADER.matcher(ready);
            if (!leader.find()) {
              return false;
            }
            leaders.add(leader.group(1));
          }
          return leaders.size() == 1;
        });
    startHaproxy();
  }

  /** HAProxy on docker/haproxy.cfg with only its binds and server addresses rewritten. */
  private static void startHaproxy() throws Exception {
    HaproxyConfig template = HaproxyConfig.load();
    lbPort = freePort();
    lbHealthPort = freePort();
    Map<String, int[]> servers = new HashMap<>();
    for (int i = 0; i < PROXIES.size(); i++) {
      servers.put(
          PROXIES.get(i),
          new int[] {proxies.get(i).endpoint().getPort(), proxies.get(i).adminPort()});
    }
    String cfg =
        template.rewrite(
            Map.of(template.bindPort("s3"), lbPort, template.bindPort("health"), lbHealthPort),
            servers);
    Path file = dir.resolve("haproxy.cfg");
    Files.writeString(file, cfg);
    // -db: stay in the foreground, as in its container; the process is ours to stop.
    haproxy =
        new ProcessBuilder(TestTools.haproxy().toString(), "-db", "-f", file.toString())
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("haproxy.log").toFile())
            .start();
    await(
        "HAProxy answers its monitor URI with all three proxies up",
        () -> {
          if (!haproxy.isAlive()) {
            throw new AssertionError(
                "haproxy exited: " + Files.readString(dir.resolve("haproxy.log")));
          }
          return healthcheck(
                  ComposeFile.dockerDir().resolve("healthcheck.sh"), lbHealthPort, "/health")
              == 0;
        });
  }

  /** A port free on 127.0.0.1 a moment ago (HAProxy cannot report a port the system picked). */
  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  @FunctionalInterface
  private interface Condition {
    boolean holds() throws Exception;
  }

  private static void await(String what, Condition condition) throws Exception {
    long deadline = System.nanoTime() + SETTLE.toNanos();
    while (!condition.holds()) {
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError("not within " + SETTLE + ": " + what);
      }
      Thread.sleep(50); // polling a condition with a deadline, not waiting for a guessed time
    }
  }

  private static String admin(ProxyProcess proxy, String path) throws Exception {
    HttpResponse<String> response =
        HTTP.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + proxy.adminPort() + path))
                .timeout(Duration.ofSeconds(30))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    return response.body();
  }

  /** The S3 requests a proxy has answered so far, by its {@code racs_s3_requests_total}. */
  private static long requestsServed(ProxyProcess proxy) throws Exception {
    long total = 0;
    for (String line : admin(proxy, "/metrics").lines().toList()) {
      if (line.startsWith("racs_s3_requests_total{")) {
        total += (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
      }
    }
    return total;
  }

  @AfterAll
  static void stop() throws Exception {
    if (haproxy != null) {
      haproxy.destroy();
      if (!haproxy.waitFor(30, TimeUnit.SECONDS)) {
        haproxy.destroyForcibly();
      }
    }
    proxies.forEach(ProxyProcess::close);
    if (zookeeper != null) {
      zookeeper.close();
    }
  }

  /** A client of the one S3 endpoint: HAProxy. */
  private static S3Client lbClient() {
    return S3Client.builder()
        .endpointOverride(URI.create("http://127.0.0.1:" + lbPort))
        .region(Region.US_EAST_1)
        .forcePathStyle(true)
        .credentialsProvider(
            StaticCredentialsProvider.create(
                AwsBasicCredentials.create(
                    PROXY_ENV.get("RACS_ACCESS_KEY"), PROXY_ENV.get("RACS_SECRET_KEY"))))
        .httpClientBuilder(Apache5HttpClient.builder())
        .build();
  }

  @Test
  void putGet_roundTripsThroughHaproxy_withShardsOnAllSixNodes() {
    byte[] data = SeededBytes.bytes(9, 3 * 1024 * 1024 + 1);
    try (S3Client s3 = lbClient()) {
      s3.createBucket(b -> b.bucket("demo"));
      s3.putObject(b -> b.bucket("demo").key("compose/object.bin"), RequestBody.fromBytes(data));
      byte[] back =
          s3.getObjectAsBytes(b -> b.bucket("demo").key("compose/object.bin")).asByteArray();
      assertThat(back).isEqualTo(data);
      assertThat(s3.headObject(b -> b.bucket("demo").key("compose/object.bin")).contentLength())
          .isEqualTo(data.length);
    }
    String bucket = bucket();
    for (int i = 0; i < 6; i++) {
      try (S3Client s3 = minioClient(MINIO.server(i))) {
        assertThat(s3.listObjectsV2(b -> b.bucket(bucket)).keyCount())
            .as("objects in %s on %s", bucket, minioServices.get(i))
            .isPositive();
      }
    }
  }

  @Test
  void requestsThroughHaproxy_areServedByEveryProxy_andReadBackByteExact() throws Exception {
    List<Long> before = new ArrayList<>();
    for (ProxyProcess proxy : proxies) {
      before.add(requestsServed(proxy));
    }
    long seed = TestSeed.get();
    Random random = new Random(seed);
    try (S3Client s3 = lbClient()) {
      s3.createBucket(b -> b.bucket("spread"));
      for (int i = 0; i < 12; i++) {
        byte[] body = SeededBytes.bytes(random.nextLong(), 1 + random.nextInt(300_000));
        String key = "object-" + i;
        s3.putObject(b -> b.bucket("spread").key(key), RequestBody.fromBytes(body));
        assertThat(s3.getObjectAsBytes(b -> b.bucket("spread").key(key)).asByteArray())
            .as("%s (seed %d)", key, seed)
            .isEqualTo(body);
      }
    }
    for (int i = 0; i < proxies.size(); i++) {
      assertThat(requestsServed(proxies.get(i)))
          .as("S3 requests %s served through HAProxy", PROXIES.get(i))
          .isGreaterThan(before.get(i));
    }
  }

  @Test
  void healthReady_reportsTheSixRepositoriesUp_andTheThreeMembers() throws Exception {
    for (ProxyProcess proxy : proxies) {
      HttpResponse<String> ready =
          HTTP.send(
              HttpRequest.newBuilder(
                      URI.create("http://127.0.0.1:" + proxy.adminPort() + "/health/ready"))
                  .timeout(Duration.ofSeconds(30))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(ready.statusCode()).as(ready.body()).isEqualTo(200);
      for (String service : minioServices) {
        assertThat(ready.body()).contains("\"name\":\"" + service + "\",\"state\":\"up\"");
      }
      assertThat(ready.body()).contains("\"healthy\":6").contains("\"ready\":true");
      for (String id : PROXIES) {
        assertThat(ready.body()).contains("{\"id\":\"" + id + "\"");
      }
      assertThat(ready.body()).contains("\"connected\":true").containsPattern(LEADER);
    }
  }

  @Test
  void imageHealthCheckScript_passesForLiveAndReady_andForTheBalancer() throws Exception {
    Path script = ComposeFile.dockerDir().resolve("healthcheck.sh");
    for (ProxyProcess proxy : proxies) {
      for (String path : List.of("/health/live", "/health/ready")) {
        assertThat(healthcheck(script, proxy.adminPort(), path)).as(path).isZero();
      }
      assertThat(healthcheck(script, proxy.adminPort(), "/no-such-path")).isEqualTo(1);
    }
    // The lb service's health check: the same script on HAProxy's monitor URI.
    assertThat(healthcheck(script, lbHealthPort, "/health")).isZero();
  }

  private static int healthcheck(Path script, int port, String path) throws Exception {
    ProcessBuilder pb = new ProcessBuilder("bash", script.toString(), path);
    pb.environment().put("RACS_ADMIN_PORT", String.valueOf(port));
    pb.redirectErrorStream(true).redirectOutput(dir.resolve("healthcheck.log").toFile());
    Process process = pb.start();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("healthcheck.sh " + path + " did not finish");
    }
    return process.exitValue();
  }
}
