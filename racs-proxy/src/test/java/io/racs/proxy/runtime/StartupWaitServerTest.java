package io.racs.proxy.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.codec.Geometry;
import io.racs.proxy.config.EncryptionConfig;
import io.racs.proxy.runtime.startup.ArrayOpening;
import io.racs.proxy.s3.server.AccessLog;
import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.api.StoreConfig;
import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.testing.TestClients;
import io.racs.repos.Repository;
import io.racs.repos.decorator.FaultyRepository;
import io.racs.repos.fs.FsRepository;
import io.racs.testkit.SeededBytes;
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
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/**
 * Proves, through the real S3 and admin servers on {@code fs} repositories, that a proxy started
 * while more than m of its roots are missing (unmounted disks) does not give up: it listens,
 * answers every S3 request 503 {@code ServiceUnavailable} in S3 error XML with {@code Retry-After},
 * reports {@code ready:false} in {@code /health/ready} with each root's state and why the array is
 * not open, and once the roots are back opens the array and serves the objects written before,
 * byte-exact, without a restart. A foreign repository still fails the start at once, as does one
 * that turns up while the proxy waits, and a bounded {@code startupWait} ends the wait with the
 * failure.
 */
class StartupWaitServerTest {
  private static final String ACCESS = "test-access";
  private static final String SECRET = "test-secret-key";
  private static final long SEED = 0x5EED_0043L;
  private static final int SIZE = 300_000; // five stripes of 64 KiB
  private static final StoreConfig CONFIG =
      StoreConfig.builder(Geometry.parse("4x2"))
          .blockBytes(64 << 10)
          .slowShardTimeout(Duration.ofSeconds(5))
          .build();

  /** Quick retries, so the test waits milliseconds for the array, not seconds. */
  private static final ArrayOpening.Settings QUICK =
      new ArrayOpening.Settings(null, Duration.ofMillis(20), Duration.ofMillis(100));

  @TempDir Path dir;
  private final HttpClient http = HttpClient.newHttpClient();
  private RacsServer server;
  private S3Client s3;

  @AfterEach
  void stop() {
    if (s3 != null) {
      s3.close();
    }
    if (server != null) {
      server.close();
    }
  }

  private List<Repository> repositories() {
    List<Repository> repositories = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      repositories.add(FsRepository.builder(dir.resolve("r" + i)).name("r" + i).build());
    }
    return repositories;
  }

  private static ServerConfig serverConfig() {
    return ServerConfig.defaults()
        .with("127.0.0.1:0", Map.of(ACCESS, SECRET))
        .withAdmin("127.0.0.1:0");
  }

  /** Makes the array on r0..r5 and writes bucket b, key k through a proxy, then stops it. */
  private void populate() throws Exception {
    for (int i = 0; i < 6; i++) {
      Files.createDirectories(dir.resolve("r" + i));
    }
    try (RacsServer first =
            RacsServer.start(ErasureStore.open(CONFIG, repositories()), serverConfig());
        S3Client client = TestClients.s3(first.port(), ACCESS, SECRET)) {
      client.createBucket(b -> b.bucket("boot"));
      client.putObject(
          p -> p.bucket("boot").key("k"), RequestBody.fromBytes(SeededBytes.bytes(SEED, SIZE)));
    }
  }

  /** Moves roots away (an unmounted disk's mount point gone) or back. */
  private void move(boolean away, int... slots) throws Exception {
    for (int slot : slots) {
      Path root = dir.resolve("r" + slot);
      Path parked = dir.resolve("r" + slot + ".away");
      Files.move(away ? root : parked, away ? parked : root);
    }
  }

  private void start(ArrayOpening opening) throws Exception {
    server =
        RacsServer.start(opening, serverConfig(), EncryptionConfig.NONE, AccessLog.off(), null);
    s3 = TestClients.s3(server.port(), ACCESS, SECRET);
  }

  private HttpResponse<String> admin(String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.adminPort() + path)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> presignedGet() throws Exception {
    try (S3Presigner presigner =
        S3Presigner.builder()
            .endpointOverride(URI.create("http://127.0.0.1:" + server.port()))
            .region(software.amazon.awssdk.regions.Region.US_EAST_1)
            .credentialsProvider(
                software.amazon.awssdk.auth.credentials.StaticCredentialsProvider.create(
                    software.amazon.awssdk.auth.credentials.AwsBasicCredentials.create(
                        ACCESS, SECRET)))
            .serviceConfiguration(
                software.amazon.awssdk.services.s3.S3Configuration.builder()
                    .pathStyleAccessEnabled(true)
                    .build())
            .build()) {
      URI url =
          presigner
              .presignGetObject(
                  p ->
                      p.signatureDuration(Duration.ofMinutes(10))
                          .getObjectRequest(g -> g.bucket("boot").key("k")))
              .url()
              .toURI();
      return http.send(HttpRequest.newBuilder(url).build(), HttpResponse.BodyHandlers.ofString());
    }
  }

  @Test
  void start_whenMoreThanMRootsAreMissing_answers503UntilTheyReturnThenServes() throws Exception {
    populate();
    move(true, 0, 2, 4);

    ArrayOpening opening = ArrayOpening.begin(CONFIG, repositories(), QUICK);
    assertThat(opening.store()).isEmpty();
    start(opening);
    assertThat(server.open()).isFalse();

    HttpResponse<String> get = presignedGet();
    assertThat(get.statusCode()).isEqualTo(503);
    assertThat(get.headers().firstValue("Retry-After")).isPresent();
    assertThat(get.body()).contains("<Code>ServiceUnavailable</Code>", "<RequestId>");
    assertThatThrownBy(
            () ->
                s3.putObject(p -> p.bucket("boot").key("new"), RequestBody.fromBytes(new byte[10])))
        .isInstanceOfSatisfying(S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(503));
    assertThatThrownBy(() -> s3.listBuckets())
        .isInstanceOfSatisfying(S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(503));

    HttpResponse<String> ready = admin("/health/ready");
    assertThat(ready.statusCode()).isEqualTo(503);
    assertThat(ready.body())
        .contains("\"ready\":false", "\"array\":{\"open\":false", "\"reason\":\"not open yet: only")
        .contains("{\"slot\":0,\"name\":\"r0\",\"state\":\"unavailable\",\"reason\":")
        .contains("{\"slot\":1,\"name\":\"r1\",\"state\":\"up\"}")
        .contains("{\"slot\":4,\"name\":\"r4\",\"state\":\"unavailable\",\"reason\":");
    // Before the array opens: the S3 server's families and racs_array_open, nothing of the store.
    assertThat(admin("/metrics").body())
        .contains("racs_array_open 0.0\n")
        .doesNotContain("racs_store_")
        .doesNotContain("racs_repository_")
        .doesNotContain("racs_reshape_");

    move(false, 0, 2, 4);
    server.serving().get(30, TimeUnit.SECONDS);

    assertThat(server.open()).isTrue();
    assertThat(s3.getObjectAsBytes(g -> g.bucket("boot").key("k")).asByteArray())
        .isEqualTo(SeededBytes.bytes(SEED, SIZE));
    s3.putObject(p -> p.bucket("boot").key("after"), RequestBody.fromString("written after"));
    assertThat(s3.getObjectAsBytes(g -> g.bucket("boot").key("after")).asUtf8String())
        .isEqualTo("written after");
    ready = admin("/health/ready");
    assertThat(ready.statusCode()).isEqualTo(200);
    assertThat(ready.body()).contains("\"ready\":true", "\"array\":{\"open\":true}");
    assertThat(admin("/metrics").body()).contains("racs_array_open 1.0\n");
  }

  @Test
  void start_whenMoreThanMRepositoriesHang_answers503UntilTheyAnswerThenServes() throws Exception {
    populate();
    List<FaultyRepository> faulty = new ArrayList<>();
    for (Repository r : repositories()) {
      faulty.add(new FaultyRepository(r));
    }
    // Three repositories that accept calls and never answer (a stalled provider), not ones that
    // fail fast: each attempt is bounded by the slow-shard timeout, and the proxy still starts.
    for (int slot : new int[] {1, 3, 5}) {
      faulty.get(slot).freeze();
    }
    try {
      ArrayOpening opening = ArrayOpening.begin(CONFIG, List.copyOf(faulty), QUICK);
      assertThat(opening.store()).isEmpty();
      start(opening);
      assertThat(server.open()).isFalse();
      assertThatThrownBy(() -> s3.listBuckets())
          .isInstanceOfSatisfying(
              S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(503));
      HttpResponse<String> ready = admin("/health/ready");
      assertThat(ready.statusCode()).isEqualTo(503);
      assertThat(ready.body()).contains("\"ready\":false", "\"array\":{\"open\":false");
    } finally {
      faulty.forEach(FaultyRepository::thaw);
    }
    server.serving().get(60, TimeUnit.SECONDS);

    assertThat(server.open()).isTrue();
    assertThat(s3.getObjectAsBytes(g -> g.bucket("boot").key("k")).asByteArray())
        .isEqualTo(SeededBytes.bytes(SEED, SIZE));
  }

  @Test
  void begin_whenMoreThanMRepositoriesHangAsShipped_listensBeforeTheFirstAttemptEnds()
      throws Exception {
    populate();
    List<FaultyRepository> faulty = new ArrayList<>();
    for (Repository r : repositories()) {
      faulty.add(new FaultyRepository(r));
    }
    // The shipped timeouts: a slow-shard timeout of 30 s bounds the first attempt, and begin
    // waits for it FIRST_ATTEMPT_WAIT (5 s) only; the proxy must not wait for the former to listen.
    StoreConfig shipped = StoreConfig.builder(Geometry.parse("4x2")).blockBytes(64 << 10).build();
    for (int slot : new int[] {0, 2, 4}) {
      faulty.get(slot).freeze();
    }
    try {
      ArrayOpening opening =
          ArrayOpening.begin(shipped, List.copyOf(faulty), ArrayOpening.Settings.of(null));
      assertThat(opening.store()).isEmpty();
      assertThat(opening.status().attempts()).as("the first attempt still runs").isZero();
      assertThat(opening.status().reason()).contains("first attempt", "goes on");
      start(opening);
      assertThatThrownBy(() -> s3.listBuckets())
          .isInstanceOfSatisfying(
              S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(503));
      assertThat(admin("/health/ready").body()).contains("\"array\":{\"open\":false");
    } finally {
      faulty.forEach(FaultyRepository::thaw);
    }
    server.serving().get(120, TimeUnit.SECONDS);

    assertThat(s3.getObjectAsBytes(g -> g.bucket("boot").key("k")).asByteArray())
        .isEqualTo(SeededBytes.bytes(SEED, SIZE));
  }

  @Test
  void begin_whenARepositoryBelongsToAnotherArray_failsAtOnceEvenWithOthersMissing()
      throws Exception {
    populate();
    // r1 becomes slot 1 of another array; three other roots are missing, which alone would wait.
    Path other = otherArray();
    swapIn(other.resolve("o1"), 1);
    move(true, 0, 2, 4);

    long started = System.nanoTime();
    assertThatThrownBy(() -> ArrayOpening.begin(CONFIG, repositories(), QUICK))
        .isInstanceOfSatisfying(
            StoreException.class,
            e -> assertThat(e.code()).isEqualTo(StoreException.Code.INCONSISTENT));
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
  }

  @Test
  void opened_whenAForeignRepositoryAnswersWhileWaiting_endsTheWaitWithTheRefusal()
      throws Exception {
    populate();
    Path other = otherArray();
    move(true, 0, 2, 4);
    ArrayOpening opening = ArrayOpening.begin(CONFIG, repositories(), QUICK);
    start(opening);

    // Slot 0 comes back as another array's slot 0 (the wrong disk mounted): never adopted.
    Files.move(other.resolve("o0"), dir.resolve("r0"));
    assertThatThrownBy(() -> server.serving().get(30, TimeUnit.SECONDS))
        .isInstanceOf(ExecutionException.class)
        .cause()
        .isInstanceOfSatisfying(
            StoreException.class,
            e -> {
              assertThat(e.code()).isEqualTo(StoreException.Code.INCONSISTENT);
              assertThat(e.getMessage()).contains("different arrays");
            });
    assertThat(server.open()).isFalse();
    assertThat(opening.store()).isEmpty();
  }

  @Test
  void opened_whenStartupWaitPasses_failsWithTheLastReason() throws Exception {
    populate();
    move(true, 0, 2, 4);
    ArrayOpening opening =
        ArrayOpening.begin(
            CONFIG,
            repositories(),
            new ArrayOpening.Settings(
                Duration.ofMillis(300), Duration.ofMillis(20), Duration.ofMillis(50)));

    assertThatThrownBy(() -> opening.opened().get(30, TimeUnit.SECONDS))
        .isInstanceOf(ExecutionException.class)
        .cause()
        .isInstanceOfSatisfying(
            StoreException.class,
            e ->
                assertThat(e.getMessage())
                    .contains("did not open within startupWait (PT0.3S", "only 3 of 6"));
    assertThat(opening.status().attempts()).isGreaterThan(1);
  }

  @Test
  void begin_whenStartupWaitIsZero_failsAtOnceAsBefore() throws Exception {
    populate();
    move(true, 0, 2, 4);
    assertThatThrownBy(
            () ->
                ArrayOpening.begin(
                    CONFIG,
                    repositories(),
                    new ArrayOpening.Settings(
                        Duration.ZERO, Duration.ofMillis(20), Duration.ofMillis(50))))
        .isInstanceOfSatisfying(
            StoreException.class,
            e -> assertThat(e.code()).isEqualTo(StoreException.Code.INSUFFICIENT_SHARDS));
  }

  /** Makes another array on o0..o5 under the returned directory. */
  private Path otherArray() throws Exception {
    Path other = Files.createDirectories(dir.resolve("other"));
    List<Repository> foreign = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      Path root = Files.createDirectories(other.resolve("o" + i));
      foreign.add(FsRepository.builder(root).name("o" + i).build());
    }
    ErasureStore.open(CONFIG, foreign).close();
    return other;
  }

  /** Puts {@code root} in the place of slot {@code slot}'s root, which is kept aside. */
  private void swapIn(Path root, int slot) throws Exception {
    Files.move(dir.resolve("r" + slot), dir.resolve("r" + slot + ".mine"));
    Files.move(root, dir.resolve("r" + slot));
  }
}
