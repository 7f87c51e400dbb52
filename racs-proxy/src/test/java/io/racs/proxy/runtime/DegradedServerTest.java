package io.racs.proxy.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.config.ArrayConfig;
import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.heal.HealOptions;
import io.racs.proxy.store.heal.HealReport;
import io.racs.proxy.store.heal.Healer;
import io.racs.proxy.testing.TestArray;
import io.racs.testkit.SeededBytes;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.model.S3Object;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/**
 * Proves, through the real S3 server on {@code fs} repositories, what a client sees when
 * repositories break under a running proxy: with more than m roots missing, replaced by a file or
 * by an empty directory (an unmounted disk), every GET of an existing key is a 503 {@code
 * ServiceUnavailable} with {@code Retry-After} (never a 404), and a listing names every key; a
 * proxy whose configured root is missing when it starts serves degraded, says which repository is
 * out and why in {@code /health/ready}, and takes it back once it returns.
 */
class DegradedServerTest {
  private static final String ACCESS = "test-access";
  private static final String SECRET = "test-secret-key";
  private static final long SEED = 0x5EED_0016L;

  @TempDir Path dir;
  private final List<Path> roots = new ArrayList<>();
  private RacsServer server;
  private S3Client s3;
  private S3Presigner presigner;
  private final HttpClient http = HttpClient.newHttpClient();

  private void start() throws Exception {
    TestArray array =
        TestArray.builder("4x2")
            .blockBytes(64 << 10)
            .slowShardTimeout(Duration.ofSeconds(5))
            .fs(dir)
            .open();
    for (int i = 0; i < array.base().size(); i++) {
      roots.add(dir.resolve("r" + i));
    }
    start(array.store());
  }

  /** A configuration file of six fs repositories r0..r5 under the test directory. */
  private Path config() throws IOException {
    StringBuilder yaml =
        new StringBuilder("array:\n  geometry: 4x2\n  blockSize: 64KiB\nrepositories:\n");
    for (int i = 0; i < 6; i++) {
      roots.add(dir.resolve("r" + i));
      yaml.append("  - name: r")
          .append(i)
          .append("\n    type: fs\n    path: ")
          .append(dir.resolve("r" + i))
          .append('\n');
    }
    return Files.writeString(dir.resolve("racs.yaml"), yaml);
  }

  private void start(ErasureStore store) throws Exception {
    server =
        RacsServer.start(
            store,
            ServerConfig.defaults()
                .with("127.0.0.1:0", Map.of(ACCESS, SECRET))
                .withAdmin("127.0.0.1:0"));
    URI endpoint = URI.create("http://127.0.0.1:" + server.port());
    StaticCredentialsProvider credentials =
        StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS, SECRET));
    s3 =
        S3Client.builder()
            .endpointOverride(endpoint)
            .region(Region.US_EAST_1)
            .forcePathStyle(true)
            .credentialsProvider(credentials)
            .overrideConfiguration(o -> o.retryStrategy(b -> b.maxAttempts(1)))
            .build();
    presigner =
        S3Presigner.builder()
            .endpointOverride(endpoint)
            .region(Region.US_EAST_1)
            .credentialsProvider(credentials)
            .serviceConfiguration(S3Configuration.builder().pathStyleAccessEnabled(true).build())
            .build();
  }

  private HttpResponse<String> ready() throws Exception {
    return http.send(
        HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + server.adminPort() + "/health/ready"))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @AfterEach
  void stop() {
    if (presigner != null) {
      presigner.close();
    }
    if (s3 != null) {
      s3.close();
    }
    if (server != null) {
      server.close();
    }
  }

  private HttpResponse<String> get(String bucket, String key) throws Exception {
    URI url =
        presigner
            .presignGetObject(
                p ->
                    p.signatureDuration(Duration.ofMinutes(10))
                        .getObjectRequest(g -> g.bucket(bucket).key(key)))
            .url()
            .toURI();
    return http.send(
        HttpRequest.newBuilder(url).GET().build(), HttpResponse.BodyHandlers.ofString());
  }

  /** 20 objects, half small enough to live in their records, half striped. */
  private Map<String, byte[]> putObjects() {
    s3.createBucket(b -> b.bucket("bkt"));
    Map<String, byte[]> bodies = new TreeMap<>();
    Random random = new Random(SEED);
    for (int i = 0; i < 20; i++) {
      byte[] body = SeededBytes.bytes(random.nextLong(), i % 2 == 0 ? 1000 + i : 200_000 + i);
      String key = "obj-" + i;
      s3.putObject(b -> b.bucket("bkt").key(key), RequestBody.fromBytes(body));
      bodies.put(key, body);
    }
    return bodies;
  }

  /** Deletes r0's root, replaces r1's by a file, and r2's by an empty directory. */
  private void breakThreeRoots() throws IOException {
    Files.move(roots.get(0), dir.resolve("away0"));
    Files.move(roots.get(1), dir.resolve("away1"));
    Files.writeString(roots.get(1), "a file where the root was");
    Files.move(roots.get(2), dir.resolve("away2"));
    Files.createDirectory(roots.get(2));
  }

  @Test
  void getAndList_whenMoreThanMRootsBroken_503WithRetryAfterAndCompleteListing() throws Exception {
    start();
    Map<String, byte[]> bodies = putObjects();
    breakThreeRoots();

    for (String key : bodies.keySet()) {
      HttpResponse<String> response = get("bkt", key);
      assertThat(response.statusCode()).as("GET %s: %s", key, response.body()).isEqualTo(503);
      assertThat(response.headers().firstValue("Retry-After")).as(key).isPresent();
      assertThat(response.body()).contains("<Code>ServiceUnavailable</Code>");
    }
    List<String> listed =
        s3.listObjectsV2Paginator(b -> b.bucket("bkt").maxKeys(7)).contents().stream()
            .map(S3Object::key)
            .toList();
    assertThat(listed).containsExactlyElementsOf(bodies.keySet());
  }

  @Test
  void server_whenOneRootMissingAtStart_servesDegradedAndSaysWhyInHealthReady() throws Exception {
    Path config = config();
    for (int i = 0; i < 6; i++) {
      Files.createDirectories(roots.get(i));
    }
    ArrayConfig array = ArrayConfig.load(config);
    array.open().close(); // the array is made on all six
    Path away = Files.move(roots.get(1), dir.resolve("away1"));

    ErasureStore store = array.open();
    start(store);
    Map<String, byte[]> bodies = putObjects();
    for (Map.Entry<String, byte[]> e : bodies.entrySet()) {
      HttpResponse<byte[]> response = getBytes("bkt", e.getKey());
      assertThat(response.statusCode()).as(e.getKey()).isEqualTo(200);
      assertThat(response.body()).as("%s, seed %d", e.getKey(), SEED).isEqualTo(e.getValue());
    }
    HttpResponse<String> ready = ready();
    assertThat(ready.statusCode()).as(ready.body()).isEqualTo(200);
    assertThat(ready.body())
        .contains("\"name\":\"r0\",\"state\":\"up\"")
        .contains("\"name\":\"r1\",\"state\":\"unavailable\",\"reason\":\"")
        .contains("does not exist")
        .contains("\"healthy\":5", "\"ready\":true");

    // The disk is back; heal (or the scrub) sees its marker and takes it back in.
    Files.move(away, roots.get(1));
    HealReport report = Healer.heal(store, HealOptions.defaults());
    assertThat(report.unreachableSlots()).isEmpty();
    assertThat(ready().body()).contains("\"healthy\":6").doesNotContain("reason");
  }

  private HttpResponse<byte[]> getBytes(String bucket, String key) throws Exception {
    URI url =
        presigner
            .presignGetObject(
                p ->
                    p.signatureDuration(Duration.ofMinutes(10))
                        .getObjectRequest(g -> g.bucket(bucket).key(key)))
            .url()
            .toURI();
    return http.send(
        HttpRequest.newBuilder(url).GET().build(), HttpResponse.BodyHandlers.ofByteArray());
  }
}
