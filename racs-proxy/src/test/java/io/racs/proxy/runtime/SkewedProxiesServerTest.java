package io.racs.proxy.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.s3.server.AccessLog;
import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.testing.TestArray;
import io.racs.proxy.testing.TestClients;
import io.racs.testkit.Await;
import io.racs.testkit.SeededBytes;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/**
 * Proves, through two real S3 servers in one JVM over the same six {@code fs} directories (as two
 * proxy processes over one array), that a write acknowledged through the proxy whose clock is 30 s
 * behind, after a write through the other, is what both proxies serve afterwards (issue #19): a PUT
 * over a PUT, inline and striped, a DELETE, a CopyObject and a CompleteMultipartUpload over a PUT;
 * each without coordination and with the proxies coordinated through a real ZooKeeper
 * (curator-test's {@code TestingServer}), which orders nothing on the data path and so must not
 * change the answer. Ordered by wall clock, both proxies served the earlier PUT.
 */
class SkewedProxiesServerTest {
  private static final String ACCESS = "test-access";
  private static final String SECRET = "test-secret-key";

  @TempDir Path dir;
  private final List<RacsServer> servers = new ArrayList<>();
  private final List<S3Client> clients = new ArrayList<>();
  private TestingServer zookeeper;

  /**
   * Proxy 0 on the system clock, proxy 1 thirty seconds behind it; coordinated through ZooKeeper
   * when {@code coordinated}.
   */
  private void start(boolean coordinated) throws Exception {
    if (coordinated) {
      zookeeper = new TestingServer(true);
    }
    for (int offset : new int[] {0, -30}) {
      ErasureStore store =
          TestArray.builder("4x2")
              .blockBytes(64 << 10)
              .clock(Clock.offset(Clock.systemUTC(), Duration.ofSeconds(offset)))
              .fs(dir)
              .open()
              .store();
      RacsServer server =
          RacsServer.start(
              store,
              ServerConfig.defaults()
                  .with("127.0.0.1:0", Map.of(ACCESS, SECRET))
                  .withAdmin("127.0.0.1:0"),
              AccessLog.off(),
              coordinated
                  ? CoordinationConfig.of(zookeeper.getConnectString(), "p" + servers.size())
                  : null);
      servers.add(server);
      clients.add(TestClients.s3(server.port(), ACCESS, SECRET));
    }
    if (coordinated) {
      // Bucket creation waits for ZooKeeper (503 until connected).
      Await.until(
          "the two proxies see each other",
          () -> servers.stream().allMatch(s -> s.coordination().members().size() == 2));
    }
    clients.getFirst().createBucket(b -> b.bucket("bkt"));
  }

  @AfterEach
  void stop() throws Exception {
    clients.forEach(S3Client::close);
    servers.forEach(RacsServer::close);
    if (zookeeper != null) {
      zookeeper.close();
    }
  }

  @ParameterizedTest(name = "coordinated: {0}")
  @ValueSource(booleans = {false, true})
  void put_throughTheProxyBehind_afterAPutThroughTheOther_isServedByBoth(boolean coordinated)
      throws Exception {
    start(coordinated);
    for (int size : new int[] {100, 200 << 10}) { // inline, striped
      String key = "k" + size;
      put(0, key, bytes(1, size));
      byte[] second = bytes(2, size);
      put(1, key, second);
      for (S3Client client : clients) {
        assertThat(client.getObjectAsBytes(b -> b.bucket("bkt").key(key)).asByteArray())
            .isEqualTo(second);
      }
    }
  }

  @ParameterizedTest(name = "coordinated: {0}")
  @ValueSource(booleans = {false, true})
  void delete_throughTheProxyBehind_afterAPutThroughTheOther_hidesTheKeyInBoth(boolean coordinated)
      throws Exception {
    start(coordinated);
    put(0, "k", bytes(3, 1000));
    clients.get(1).deleteObject(b -> b.bucket("bkt").key("k"));
    for (S3Client client : clients) {
      assertThatThrownBy(() -> client.getObjectAsBytes(b -> b.bucket("bkt").key("k")))
          .isInstanceOf(NoSuchKeyException.class);
    }
  }

  @ParameterizedTest(name = "coordinated: {0}")
  @ValueSource(booleans = {false, true})
  void copy_throughTheProxyBehind_afterAPutThroughTheOther_isServedByBoth(boolean coordinated)
      throws Exception {
    start(coordinated);
    byte[] source = bytes(4, 3000);
    put(1, "source", source); // written first, through the proxy behind
    put(0, "k", bytes(5, 2000));
    clients
        .get(1)
        .copyObject(
            b ->
                b.sourceBucket("bkt")
                    .sourceKey("source")
                    .destinationBucket("bkt")
                    .destinationKey("k"));
    for (S3Client client : clients) {
      assertThat(client.getObjectAsBytes(b -> b.bucket("bkt").key("k")).asByteArray())
          .isEqualTo(source);
    }
  }

  @ParameterizedTest(name = "coordinated: {0}")
  @ValueSource(booleans = {false, true})
  void completeMultipartUpload_throughTheProxyBehind_afterAPutThroughTheOther_isServedByBoth(
      boolean coordinated) throws Exception {
    start(coordinated);
    S3Client behind = clients.get(1);
    // The upload starts (and its part is written) before the PUT through the other proxy; it is
    // completed, and acknowledged, after it.
    String upload = behind.createMultipartUpload(b -> b.bucket("bkt").key("k")).uploadId();
    byte[] part = bytes(6, 7000);
    String etag =
        behind
            .uploadPart(
                b -> b.bucket("bkt").key("k").uploadId(upload).partNumber(1),
                RequestBody.fromBytes(part))
            .eTag();
    put(0, "k", bytes(7, 2000));
    behind.completeMultipartUpload(
        b ->
            b.bucket("bkt")
                .key("k")
                .uploadId(upload)
                .multipartUpload(
                    m -> m.parts(CompletedPart.builder().partNumber(1).eTag(etag).build())));
    for (S3Client client : clients) {
      assertThat(client.getObjectAsBytes(b -> b.bucket("bkt").key("k")).asByteArray())
          .isEqualTo(part);
    }
  }

  private void put(int proxy, String key, byte[] data) {
    clients.get(proxy).putObject(b -> b.bucket("bkt").key(key), RequestBody.fromBytes(data));
  }

  private static byte[] bytes(long seed, int size) {
    return SeededBytes.bytes(seed, size);
  }
}
