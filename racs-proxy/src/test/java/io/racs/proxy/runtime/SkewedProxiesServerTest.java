package io.racs.proxy.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.codec.Geometry;
import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.StoreConfig;
import io.racs.repos.Repository;
import io.racs.repos.fs.FsRepository;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/**
 * Proves, through two real S3 servers in one JVM over the same six {@code fs} directories (as two
 * proxy processes over one array), that a write acknowledged through the proxy whose clock is 30 s
 * behind, after a write through the other, is what both proxies serve afterwards (issue #19): a PUT
 * over a PUT, inline and striped, and a DELETE over a PUT. Ordered by wall clock, both proxies
 * served the earlier PUT.
 */
class SkewedProxiesServerTest {
  private static final String ACCESS = "test-access";
  private static final String SECRET = "test-secret-key";

  @TempDir Path dir;
  private final List<RacsServer> servers = new ArrayList<>();
  private final List<S3Client> clients = new ArrayList<>();

  /** Proxy 0 on the system clock, proxy 1 thirty seconds behind it. */
  private void start() throws Exception {
    for (int offset : new int[] {0, -30}) {
      Geometry geometry = Geometry.parse("4x2");
      List<Repository> repositories = new ArrayList<>();
      for (int i = 0; i < geometry.totalShards(); i++) {
        Path root = dir.resolve("r" + i);
        Files.createDirectories(root);
        repositories.add(FsRepository.builder(root).name("r" + i).durable(false).build());
      }
      ErasureStore store =
          ErasureStore.open(
              StoreConfig.builder(geometry)
                  .blockBytes(64 << 10)
                  .clock(Clock.offset(Clock.systemUTC(), Duration.ofSeconds(offset)))
                  .build(),
              repositories);
      RacsServer server =
          RacsServer.start(
              store,
              ServerConfig.defaults()
                  .with("127.0.0.1:0", Map.of(ACCESS, SECRET))
                  .withAdmin("127.0.0.1:0"));
      servers.add(server);
      clients.add(
          S3Client.builder()
              .endpointOverride(URI.create("http://127.0.0.1:" + server.port()))
              .region(Region.US_EAST_1)
              .forcePathStyle(true)
              .credentialsProvider(
                  StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS, SECRET)))
              .overrideConfiguration(o -> o.retryStrategy(b -> b.maxAttempts(1)))
              .build());
    }
    clients.getFirst().createBucket(b -> b.bucket("bkt"));
  }

  @AfterEach
  void stop() {
    clients.forEach(S3Client::close);
    servers.forEach(RacsServer::close);
  }

  @Test
  void put_throughTheProxyBehind_afterAPutThroughTheOther_isServedByBoth() throws Exception {
    start();
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

  @Test
  void delete_throughTheProxyBehind_afterAPutThroughTheOther_hidesTheKeyInBoth() throws Exception {
    start();
    put(0, "k", bytes(3, 1000));
    clients.get(1).deleteObject(b -> b.bucket("bkt").key("k"));
    for (S3Client client : clients) {
      assertThatThrownBy(() -> client.getObjectAsBytes(b -> b.bucket("bkt").key("k")))
          .isInstanceOf(NoSuchKeyException.class);
    }
  }

  private void put(int proxy, String key, byte[] data) {
    clients.get(proxy).putObject(b -> b.bucket("bkt").key(key), RequestBody.fromBytes(data));
  }

  private static byte[] bytes(long seed, int size) {
    byte[] data = new byte[size];
    new Random(seed).nextBytes(data);
    return data;
  }
}
