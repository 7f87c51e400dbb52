package io.racs.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.repos.minio.MinioServer;
import io.racs.testkit.MinioExtension;
import io.racs.testkit.SeededBytes;
import io.racs.testkit.TestSeed;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * The proxy process started over six real MinIO servers (4x2) of which m + 1 = 3 are stopped: it
 * does not exit, as it did before it waited, but listens not ready, an SDK client gets 503
 * ServiceUnavailable for reads, writes and listings, and {@code /health/ready} says not ready with
 * the stopped servers unavailable and why the array is not open; once the servers are started again
 * the proxy opens the array without a restart and serves the objects written before it was started,
 * byte-exact. Which servers are stopped, and the objects, come from the printed seed.
 */
@Isolated
class StartupWaitIT {
  @RegisterExtension static final MinioExtension MINIO = MinioExtension.servers(FaultConfig.N);
  private static final String REPOSITORY_BUCKET = "racs";
  private static final String BUCKET = "startup";
  private static final int OBJECTS = 4;

  /**
   * How long the proxy may take to open the array once the servers answer: its retries back off to
   * one every 15 s, and the servers take a few seconds to start.
   */
  private static final Duration OPEN_LIMIT = Duration.ofSeconds(60);

  @TempDir Path dir;

  @Test
  void start_whenMPlusOneServersAreStopped_answers503ThenServesOnceTheyStart() throws Exception {
    long seed = TestSeed.get();
    Random random = new Random(seed);
    for (int i = 0; i < FaultConfig.N; i++) {
      MINIO.client(i).createBucket(b -> b.bucket(REPOSITORY_BUCKET));
    }
    String config = FaultConfig.minio(MINIO.servers(), REPOSITORY_BUCKET);
    int[] sizes = new int[OBJECTS];
    try (ProxyProcess first =
            FaultConfig.startProxy(Files.createDirectories(dir.resolve("first")), config);
        S3Client s3 = FaultLoad.client(first.endpoint())) {
      s3.createBucket(b -> b.bucket(BUCKET));
      for (int i = 0; i < OBJECTS; i++) {
        sizes[i] = 1 + random.nextInt(3 << 20);
        int n = i;
        s3.putObject(
            p -> p.bucket(BUCKET).key("k" + n),
            RequestBody.fromBytes(SeededBytes.bytes(seed + n, sizes[n])));
      }
    }
    List<MinioServer> stopped =
        Faults.pick(random, FaultConfig.N, FaultConfig.M + 1).stream().map(MINIO::server).toList();
    stopped.forEach(MinioServer::stop);

    Path proxyDir = Files.createDirectories(dir.resolve("waiting"));
    try (ProxyProcess proxy =
            ProxyProcess.startListening(proxyDir, config, FaultConfig.proxyEnvironment(proxyDir));
        S3Client s3 = FaultLoad.client(proxy.endpoint());
        HttpClient http = HttpClient.newHttpClient()) {
      assertThat(proxy.log()).contains("not ready: the array is not open yet");
      assertThatThrownBy(() -> s3.getObjectAsBytes(g -> g.bucket(BUCKET).key("k0")))
          .isInstanceOfSatisfying(
              S3Exception.class,
              e -> {
                assertThat(e.statusCode()).isEqualTo(503);
                assertThat(e.awsErrorDetails().errorCode()).isEqualTo("ServiceUnavailable");
              });
      assertThatThrownBy(
              () -> s3.putObject(p -> p.bucket(BUCKET).key("new"), RequestBody.fromString("x")))
          .isInstanceOfSatisfying(
              S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(503));
      assertThatThrownBy(() -> s3.listObjectsV2(l -> l.bucket(BUCKET)))
          .isInstanceOfSatisfying(
              S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(503));
      HttpResponse<String> ready =
          http.send(
              HttpRequest.newBuilder(
                      URI.create("http://127.0.0.1:" + proxy.adminPort() + "/health/ready"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(ready.statusCode()).isEqualTo(503);
      assertThat(ready.body())
          .contains("\"ready\":false", "\"array\":{\"open\":false", "not open yet: only 3 of 6");
      for (MinioServer server : stopped) {
        int slot = MINIO.servers().indexOf(server);
        assertThat(ready.body())
            .contains(
                "{\"slot\":" + slot + ",\"name\":\"minio-" + slot + "\",\"state\":\"unavailable\"");
      }

      stopped.forEach(MinioServer::start);
      String report = proxy.awaitReady(OPEN_LIMIT);

      assertThat(report).contains("\"ready\":true", "\"array\":{\"open\":true}");
      for (int i = 0; i < OBJECTS; i++) {
        int n = i;
        assertThat(s3.getObjectAsBytes(g -> g.bucket(BUCKET).key("k" + n)).asByteArray())
            .as("k%d (%d bytes, seed %d)", n, sizes[n], seed)
            .isEqualTo(SeededBytes.bytes(seed + n, sizes[n]));
      }
    } finally {
      FaultScenario.keepLogs("StartupWaitIT", proxyDir);
    }
  }
}
