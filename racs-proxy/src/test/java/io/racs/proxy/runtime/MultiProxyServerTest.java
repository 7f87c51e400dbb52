package io.racs.proxy.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.store.heal.HealReport;
import io.racs.proxy.testing.TestClients;
import io.racs.proxy.testing.TestProxies;
import io.racs.testkit.Await;
import io.racs.testkit.SeededBytes;
import io.racs.testkit.TestSeed;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Proves, with three real proxies (RacsServer, S3 over HTTP, the AWS SDK as client) over the same
 * fs repositories and a real in-process ZooKeeper: every proxy shows all three members and the one
 * leader in {@code /health/ready} and {@code /metrics}; only the leader scrubs; a leader whose
 * ZooKeeper client is closed in the middle of a scrub stops before its next object, and the proxy
 * that leads next resumes the scrub from the checkpoint the first left in ZooKeeper (not from the
 * start); a bucket deleted through one proxy is refused by another at once.
 */
class MultiProxyServerTest {
  private static final String ACCESS = TestProxies.ACCESS;
  private static final String SECRET = TestProxies.SECRET;

  @TempDir Path dir;
  private TestingServer zookeeper;
  private final List<RacsServer> servers = new ArrayList<>();
  private final List<S3Client> clients = new ArrayList<>();
  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeEach
  void start() throws Exception {
    zookeeper = new TestingServer(true);
    for (int p = 0; p < 3; p++) {
      RacsServer server =
          TestProxies.start(dir, CoordinationConfig.of(zookeeper.getConnectString(), "p" + p));
      servers.add(server);
      clients.add(TestClients.s3(server.port(), ACCESS, SECRET));
    }
    Await.until(
        "every proxy sees three members",
        () -> servers.stream().allMatch(s -> s.coordination().members().size() == 3));
    Await.until("one leader", () -> leaders().size() == 1);
  }

  @AfterEach
  void stop() throws Exception {
    clients.forEach(S3Client::close);
    servers.forEach(RacsServer::close);
    zookeeper.close();
  }

  private List<RacsServer> leaders() {
    return servers.stream().filter(s -> s.coordination().leader()).toList();
  }

  private String admin(RacsServer server, String path) throws Exception {
    return http.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.adminPort() + path))
                .build(),
            HttpResponse.BodyHandlers.ofString())
        .body();
  }

  @Test
  void membership_whenThreeProxiesRun_eachShowsAllOfThemAndTheOneLeader() throws Exception {
    String leader = leaders().getFirst().coordination().id();
    for (RacsServer server : servers) {
      String ready = admin(server, "/health/ready");
      assertThat(ready)
          .contains("\"connected\":true")
          .contains("\"leaderId\":\"" + leader + "\"")
          .contains("{\"id\":\"p0\",\"address\":\"127.0.0.1:")
          .contains("{\"id\":\"p1\",")
          .contains("{\"id\":\"p2\",")
          .contains("\"leader\":" + server.coordination().id().equals(leader));
      String metrics = admin(server, "/metrics");
      assertThat(MetricFamiliesTest.families(metrics))
          .containsAllEntriesOf(MetricFamiliesTest.COORDINATION);
      assertThat(metrics)
          .contains("racs_coordination_connected 1.0\n")
          .contains("racs_coordination_members 3.0\n")
          .contains(
              "racs_coordination_leader "
                  + (server.coordination().id().equals(leader) ? "1.0" : "0.0")
                  + "\n");
    }
    for (RacsServer server : servers) {
      if (!server.coordination().leader()) {
        assertThat(server.scrubOnce(0)).isNull(); // only the leader scrubs
      }
    }
  }

  @Test
  void scrub_whenTheLeaderDiesMidScrub_theNextLeaderResumesFromTheCheckpoint() throws Exception {
    long seed = TestSeed.get();
    Random random = new Random(seed);
    S3Client s3 = clients.getFirst();
    s3.createBucket(b -> b.bucket("scrubbed"));
    int objects = 24;
    for (int i = 0; i < objects; i++) {
      byte[] data = SeededBytes.bytes(random.nextLong(), 20_000 + random.nextInt(10_000));
      String key = String.format("k%02d", i);
      s3.putObject(b -> b.bucket("scrubbed").key(key), RequestBody.fromBytes(data));
    }
    RacsServer first = leaders().getFirst();
    try (CuratorFramework observer =
        CuratorFrameworkFactory.newClient(zookeeper.getConnectString(), new RetryOneTime(100))) {
      observer.start();
      // Throttled, so that the scrub is still running when its leader goes.
      CompletableFuture<HealReport> running =
          CompletableFuture.supplyAsync(() -> first.scrubOnce(0.1));
      Await.until(
          "the scrub has checkpointed an object",
          () -> {
            try {
              byte[] data = observer.getData().forPath("/racs/scrub");
              return new String(data, StandardCharsets.UTF_8).contains("scrubbed");
            } catch (Exception e) {
              return false;
            }
          });
      first.coordination().close(); // the leader's ZooKeeper client goes, as when it dies

      HealReport stopped = running.join();
      assertThat(stopped.stopped()).as("seed %d", seed).isTrue();
      assertThat(stopped.objectsScanned()).isBetween(1L, objects - 1L);

      Await.until(
          "another proxy leads",
          () -> servers.stream().anyMatch(s -> s != first && s.coordination().leader()));
      RacsServer next =
          servers.stream().filter(s -> s != first && s.coordination().leader()).findFirst().get();
      HealReport resumed = next.scrubOnce(0);
      assertThat(resumed.stopped()).isFalse();
      assertThat(resumed.notDone()).isEmpty();
      // Resumed from the checkpoint, not from the start, and skipping nothing the first leader did
      // not finish (its last checkpoint write may be lost with its client: then one is redone).
      assertThat(resumed.objectsScanned())
          .as("seed %d", seed)
          .isBetween(objects - stopped.objectsScanned(), objects - 1L);
      assertThat(new String(observer.getData().forPath("/racs/scrub"), StandardCharsets.UTF_8))
          .isEmpty(); // done: the next scrub is a whole one
      assertThat(next.scrubOnce(0).objectsScanned()).isEqualTo(objects);
    }
  }

  @Test
  void bucketDelete_throughOneProxy_isRefusedAtOnceThroughTheOthers() {
    for (int round = 0; round < 3; round++) {
      String bucket = "gone-" + round;
      clients.get(0).createBucket(b -> b.bucket(bucket));
      for (S3Client other : clients.subList(1, 3)) {
        other.putObject(b -> b.bucket(bucket).key("k"), RequestBody.fromString("v"));
        other.deleteObject(b -> b.bucket(bucket).key("k"));
      }
      clients.get(0).deleteBucket(b -> b.bucket(bucket));
      for (S3Client other : clients.subList(1, 3)) {
        assertThatThrownBy(
                () ->
                    other.putObject(b -> b.bucket(bucket).key("late"), RequestBody.fromString("x")))
            .isInstanceOfSatisfying(
                S3Exception.class,
                e -> {
                  assertThat(e.statusCode()).isEqualTo(404);
                  assertThat(e.awsErrorDetails().errorCode()).isEqualTo("NoSuchBucket");
                });
      }
    }
  }
}
