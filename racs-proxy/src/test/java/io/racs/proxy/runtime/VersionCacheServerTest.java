package io.racs.proxy.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.testing.TestClients;
import io.racs.proxy.testing.TestProxies;
import io.racs.testkit.Await;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Two real proxies (RacsServer, the AWS SDK as client) over the same fs repositories with {@code
 * coordination: {versionCache: true}} on an in-process ZooKeeper: a GET repeated through one proxy
 * answers without a listing ({@code racs_store_stamped_reads_total}), a PUT through the other is
 * seen by the next GET, and with ZooKeeper gone a PUT answers 503 and changes nothing.
 */
class VersionCacheServerTest {
  @TempDir Path dir;
  private TestingServer zookeeper;
  private final List<RacsServer> servers = new ArrayList<>();
  private final List<S3Client> clients = new ArrayList<>();
  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeEach
  void start() throws Exception {
    zookeeper = new TestingServer(true);
    for (int p = 0; p < 2; p++) {
      RacsServer server =
          TestProxies.start(
              dir,
              new CoordinationConfig(
                  zookeeper.getConnectString(), "racs", "p" + p, Duration.ofSeconds(10), true));
      servers.add(server);
      clients.add(TestClients.s3(server.port(), TestProxies.ACCESS, TestProxies.SECRET));
    }
    Await.until(
        "both proxies connected",
        () -> servers.stream().allMatch(s -> s.coordination().connected()));
    clients.getFirst().createBucket(b -> b.bucket("bkt"));
  }

  @AfterEach
  void stop() throws Exception {
    clients.forEach(S3Client::close);
    servers.forEach(RacsServer::close);
    zookeeper.close();
  }

  @Test
  void get_throughOneProxy_usesTheCacheUntilAPutThroughTheOtherChangesTheKey() throws Exception {
    put(0, "k", "one");
    assertThat(get(1, "k")).isEqualTo("one"); // lists: proxy 1 has not read the key
    awaitReadFromCache(1, "k", "one");

    put(0, "k", "two");
    long stamped = stampedReads(1);
    assertThat(get(1, "k")).isEqualTo("two"); // lists: the PUT registered before it committed
    assertThat(stampedReads(1)).isEqualTo(stamped);
    awaitReadFromCache(1, "k", "two");
  }

  /**
   * Reads {@code key} through {@code proxy} until a read is answered from its version cache, each
   * read answering {@code value}. A write does not wait for its registration to be deleted, so the
   * other proxy may see it registered, and list, for a moment after it was answered.
   */
  private void awaitReadFromCache(int proxy, String key, String value) throws Exception {
    Await.until(
        "proxy " + proxy + " answers " + key + " from its cache",
        () -> {
          try {
            long before = stampedReads(proxy);
            assertThat(get(proxy, key)).isEqualTo(value);
            return stampedReads(proxy) == before + 1;
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        });
  }

  @Test
  void put_withZooKeeperGone_answers503AndChangesNothing() throws Exception {
    put(0, "k", "one");
    zookeeper.stop();
    Await.until(
        "both proxies disconnected",
        () -> servers.stream().noneMatch(s -> s.coordination().connected()));

    assertThatThrownBy(() -> put(0, "k", "two"))
        .isInstanceOfSatisfying(S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(503));
    assertThat(get(1, "k")).isEqualTo("one");
  }

  private void put(int proxy, String key, String value) {
    clients.get(proxy).putObject(b -> b.bucket("bkt").key(key), RequestBody.fromString(value));
  }

  private String get(int proxy, String key) {
    return clients.get(proxy).getObjectAsBytes(b -> b.bucket("bkt").key(key)).asUtf8String();
  }

  private long stampedReads(int proxy) throws Exception {
    String metrics =
        http.send(
                HttpRequest.newBuilder(
                        URI.create(
                            "http://127.0.0.1:" + servers.get(proxy).adminPort() + "/metrics"))
                    .build(),
                HttpResponse.BodyHandlers.ofString())
            .body();
    for (String line : metrics.split("\n")) {
      if (line.startsWith("racs_store_stamped_reads_total ")) {
        return (long) Double.parseDouble(line.substring(line.indexOf(' ') + 1));
      }
    }
    throw new AssertionError("no racs_store_stamped_reads_total in /metrics");
  }
}
