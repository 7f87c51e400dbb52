package io.racs.bench.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.racs.proxy.runtime.CoordinationConfig;
import io.racs.proxy.runtime.RacsServer;
import io.racs.proxy.runtime.ServerConfig;
import io.racs.proxy.s3.server.AccessLog;
import io.racs.proxy.store.ErasureStore;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The part of {@code racs demo --proxies N} (N &ge; 2) that is about several proxies: N proxies
 * over the same repositories, coordinated through ZooKeeper (an embedded server unless one is
 * given), each with its own store as separate processes would have. There is no load balancer in
 * front: the demo prints every endpoint and drives its own traffic round robin across them, as
 * {@code racs bench object --endpoint a,b,c} does (the Compose demo puts HAProxy in front instead,
 * docker/haproxy.cfg). Membership and the leader are read from each proxy's {@code /health/ready},
 * as an operator would read them; then the leader is stopped, and the demo shows another proxy
 * taking over and every object still served by the survivors.
 */
final class MultiProxyDemo implements AutoCloseable {
  /** How long membership and leadership may take to settle after a start or a stop. */
  private static final Duration SETTLE = Duration.ofSeconds(30);

  /** Opens one store over the array's repositories; called once per proxy. */
  @FunctionalInterface
  interface StoreFactory {
    ErasureStore open() throws IOException;
  }

  /** One running proxy of the demo. */
  record Proxy(String id, RacsServer server, URI endpoint, URI admin) {}

  private final PrintWriter out;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final ObjectMapper json = new ObjectMapper();
  private final List<Proxy> proxies = new ArrayList<>();

  MultiProxyDemo(PrintWriter out) {
    this.out = out;
  }

  /**
   * Starts {@code count} proxies, the first on {@code listen} and each next one on the next port
   * (all on ports the system picks when {@code listen}'s port is 0), coordinated through {@code
   * zookeeper}.
   */
  void start(
      int count,
      String listen,
      Map<String, String> credentials,
      String zookeeper,
      Path logs,
      StoreFactory stores)
      throws Exception {
    InetSocketAddress first = ServerConfig.address(listen, "--listen");
    for (int i = 0; i < count; i++) {
      String id = "proxy-" + (i + 1);
      int port = first.getPort() == 0 ? 0 : first.getPort() + i;
      RacsServer server =
          RacsServer.start(
              stores.open(),
              ServerConfig.defaults()
                  .with(first.getHostString() + ":" + port, credentials)
                  .withAdmin("127.0.0.1:0"),
              AccessLog.toFile(logs.resolve("access-" + id + ".log")),
              CoordinationConfig.of(zookeeper, id));
      Proxy proxy =
          new Proxy(
              id,
              server,
              URI.create("http://" + first.getHostString() + ":" + server.port()),
              URI.create("http://127.0.0.1:" + server.adminPort()));
      proxies.add(proxy);
      out.printf(
          "      %s  S3 at %s, health at %s/health/ready%n", id, proxy.endpoint(), proxy.admin());
    }
    out.println(
        "      front: no load balancer; the demo sends its requests round robin across these"
            + " endpoints");
  }

  /** The running proxies, in start order. */
  List<Proxy> running() {
    return List.copyOf(proxies);
  }

  /** The running proxies' S3 endpoints, comma-separated (for {@code --endpoint}). */
  String endpoints() {
    return String.join(",", proxies.stream().map(p -> p.endpoint().toString()).toList());
  }

  /**
   * Waits until every running proxy's {@code /health/ready} lists exactly the running proxies and
   * names one of them as leader, the same one everywhere, and returns that leader's id.
   */
  String awaitAgreement() throws Exception {
    List<String> ids = proxies.stream().map(Proxy::id).sorted().toList();
    long deadline = System.nanoTime() + SETTLE.toNanos();
    while (true) {
      Optional<String> leader = agreedLeader(ids);
      if (leader.isPresent()) {
        return leader.get();
      }
      if (System.nanoTime() - deadline > 0) {
        throw new IllegalStateException(
            "the proxies did not agree on members "
                + ids
                + " and one leader within "
                + SETTLE.toSeconds()
                + " s (last seen by "
                + proxies.getFirst().id()
                + ": "
                + ready(proxies.getFirst()).path("coordination")
                + ")");
      }
      // Polling the proxies' own reports until they agree, with a deadline: membership and
      // leadership change asynchronously (ZooKeeper watches), so there is nothing to wait on.
      Thread.sleep(50);
    }
  }

  private Optional<String> agreedLeader(List<String> ids) throws Exception {
    String agreed = null;
    for (Proxy proxy : proxies) {
      JsonNode c = ready(proxy).path("coordination");
      List<String> members = new ArrayList<>();
      c.path("members").forEach(m -> members.add(m.path("id").asText()));
      members.sort(null);
      String leader = c.path("leaderId").isTextual() ? c.path("leaderId").asText() : null;
      if (!c.path("connected").asBoolean()
          || !members.equals(ids)
          || leader == null
          || !ids.contains(leader)
          || (agreed != null && !agreed.equals(leader))) {
        return Optional.empty();
      }
      agreed = leader;
    }
    return Optional.ofNullable(agreed);
  }

  /** Prints the membership and the leader as {@code proxy}'s {@code /health/ready} reports them. */
  void printMembership(Proxy proxy) throws Exception {
    JsonNode c = ready(proxy).path("coordination");
    List<String> members = new ArrayList<>();
    c.path("members")
        .forEach(m -> members.add(m.path("id").asText() + " (" + m.path("address").asText() + ")"));
    out.printf(
        "      members, from %s's /health/ready: %s%n", proxy.id(), String.join(", ", members));
    out.printf("      leader (runs scrub and heal): %s%n", c.path("leaderId").asText());
  }

  private JsonNode ready(Proxy proxy) throws Exception {
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(proxy.admin().resolve("/health/ready"))
                .timeout(Duration.ofSeconds(10))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    return json.readTree(response.body());
  }

  /**
   * Writes {@code bodies} round robin through the proxies' clients and reads each back through the
   * next proxy, so that no object is read through the proxy that wrote it; returns how many came
   * back byte-exact.
   */
  static int writeAndCrossRead(List<S3Client> clients, String bucket, List<byte[]> bodies) {
    for (int i = 0; i < bodies.size(); i++) {
      int n = i;
      clients
          .get(i % clients.size())
          .putObject(b -> b.bucket(bucket).key("photo-" + n), RequestBody.fromBytes(bodies.get(n)));
    }
    return readRoundRobin(clients, bucket, bodies, 1);
  }

  /**
   * Reads every object of {@code bodies}, the i-th through client {@code i + offset} (round robin),
   * and returns how many came back byte-exact.
   */
  static int readRoundRobin(
      List<S3Client> clients, String bucket, List<byte[]> bodies, int offset) {
    int good = 0;
    for (int i = 0; i < bodies.size(); i++) {
      int n = i;
      byte[] got =
          clients
              .get((i + offset) % clients.size())
              .getObjectAsBytes(b -> b.bucket(bucket).key("photo-" + n))
              .asByteArray();
      good += Arrays.equals(got, bodies.get(i)) ? 1 : 0;
    }
    return good;
  }

  /** Stops the proxy {@code id} (its store, its S3 port and its ZooKeeper session). */
  Proxy stop(String id) {
    Proxy proxy =
        proxies.stream()
            .filter(p -> p.id().equals(id))
            .findFirst()
            .orElseThrow(() -> new IllegalStateException("no running proxy " + id));
    proxies.remove(proxy);
    proxy.server().close();
    return proxy;
  }

  /** Objects of {@code count} random sizes from 256 KiB, from {@code seed}. */
  static List<byte[]> bodies(int count, long seed) {
    Random random = new Random(seed);
    List<byte[]> bodies = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      byte[] body = new byte[256 * 1024 + random.nextInt(64 * 1024)];
      random.nextBytes(body);
      bodies.add(body);
    }
    return bodies;
  }

  @Override
  public void close() {
    for (Proxy proxy : proxies) {
      proxy.server().close();
    }
    proxies.clear();
  }
}
