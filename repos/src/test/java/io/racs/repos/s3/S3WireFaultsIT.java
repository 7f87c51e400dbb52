package io.racs.repos.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.repos.ObjectStream;
import io.racs.repos.RepositoryException;
import io.racs.repos.RepositoryException.Kind;
import io.racs.repos.emulator.Toxic;
import io.racs.repos.emulator.Toxiproxy;
import io.racs.repos.minio.MinioServer;
import io.racs.testkit.MinioExtension;
import io.racs.testkit.SeededBytes;
import io.racs.testkit.TestSeed;
import io.racs.testkit.ToxiproxyExtension;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Proves the {@code s3} repository's SDK settings hold on real TCP, with a real MinIO server behind
 * Toxiproxy: a half-open link (accepted, then silent) ends in {@code TIMEOUT} within the read
 * timeout times the attempts; a connection reset in the middle of a GET's body or a PUT's body, and
 * a connection closed after part of a body, are errors, never a short or wrong answer, and nothing
 * partial is stored; pooled connections that the far side closed while they sat idle are used again
 * without the caller seeing a failure; a refused connection is {@code UNAVAILABLE} at once, not
 * after the connect timeout; a slow or slowly closing link answers correctly. Each fault is lifted
 * before the next test (the extension resets Toxiproxy), and after each the repository answers
 * again over the same proxy.
 *
 * <p>Bodies come from the printed seed.
 */
class S3WireFaultsIT {
  @RegisterExtension static final MinioExtension MINIO = MinioExtension.servers(1);
  @RegisterExtension static final ToxiproxyExtension TOXIPROXY = new ToxiproxyExtension();

  private static final String BUCKET = "wire";
  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(1);
  private static final Duration READ_TIMEOUT = Duration.ofSeconds(1);
  private static final int ATTEMPTS = 2;
  private static final int BODY_BYTES = 1024 * 1024;
  private static final AtomicInteger KEYS = new AtomicInteger();

  private static Toxiproxy.Proxy link;
  private static long seed;
  private S3Repository repository;

  @BeforeAll
  static void start() {
    MINIO.client(0).createBucket(b -> b.bucket(BUCKET));
    link = TOXIPROXY.proxyTo("minio", MINIO.server(0).endpoint());
    seed = TestSeed.get();
  }

  @BeforeEach
  void open() {
    repository = S3Repository.create("wire", options(link.httpEndpoint()).build());
  }

  @AfterEach
  void close() {
    repository.close();
  }

  private static S3Options.Builder options(URI endpoint) {
    MinioServer server = MINIO.server(0);
    return S3Options.builder(BUCKET)
        .endpoint(endpoint)
        .region(server.region())
        .credentials(S3Credentials.of(server.accessKey(), server.secretKey()))
        .pathStyle(true)
        .connectTimeout(CONNECT_TIMEOUT)
        .readTimeout(READ_TIMEOUT)
        .maxAttempts(ATTEMPTS)
        .backoff(Duration.ofMillis(20), Duration.ofMillis(50));
  }

  /** A fresh key holding a seeded body of {@code bytes}, written before any fault. */
  private String stored(byte[] body) {
    String key = "k" + KEYS.incrementAndGet();
    repository.put(key, new ByteArrayInputStream(body), body.length);
    return key;
  }

  private static byte[] body(int bytes) {
    return SeededBytes.bytes(seed + KEYS.get(), bytes);
  }

  private byte[] read(String key) throws IOException {
    try (ObjectStream in = repository.get(key)) {
      return in.readAllBytes();
    }
  }

  /** After a fault is lifted, the same repository answers over the same proxy. */
  private void assertAnswersAgain(String key, byte[] expected) throws IOException {
    TOXIPROXY.client().reset();
    assertThat(read(key)).isEqualTo(expected);
  }

  private static Duration since(long startedNanos) {
    return Duration.ofNanos(System.nanoTime() - startedNanos);
  }

  /** Fails without the socket (read) timeout: the GET would wait as long as the link is silent. */
  @Test
  void get_whenLinkIsHalfOpen_timesOutWithinReadTimeoutTimesAttempts() throws IOException {
    byte[] body = body(4096);
    String key = stored(body);
    link.add(Toxic.halfOpen());
    long started = System.nanoTime();
    assertThatThrownBy(() -> read(key))
        .isInstanceOfSatisfying(
            RepositoryException.class, e -> assertThat(e.kind()).isEqualTo(Kind.TIMEOUT));
    Duration took = since(started);
    System.out.println("half-open GET: " + took.toMillis() + " ms to TIMEOUT");
    assertThat(took).isGreaterThanOrEqualTo(READ_TIMEOUT);
    assertThat(took).isLessThan(READ_TIMEOUT.multipliedBy(ATTEMPTS).plusSeconds(2));
    assertAnswersAgain(key, body);
  }

  /**
   * Fails if a reset body were taken for a whole one: the reset comes while the body still flows
   * (the link sends 200 KB/s of a 1 MiB body), so the reader must see an error.
   */
  @Test
  void get_whenResetMidBody_failsAndNeverAnswersShort() throws IOException {
    byte[] body = body(BODY_BYTES);
    String key = stored(body);
    link.add(Toxic.bandwidth(200));
    link.add(Toxic.resetPeer(Duration.ofMillis(500)));
    assertThatThrownBy(() -> read(key))
        .isInstanceOfSatisfying(
            RepositoryException.class,
            e -> assertThat(e.kind()).isIn(Kind.UNAVAILABLE, Kind.TIMEOUT));
    assertAnswersAgain(key, body);
  }

  /** Fails if a body cut off by a clean close (FIN) were taken for a whole one. */
  @Test
  void get_whenLinkClosesAfterPartOfTheBody_failsAndNeverAnswersShort() throws IOException {
    byte[] body = body(BODY_BYTES);
    String key = stored(body);
    link.add(Toxic.limitData(BODY_BYTES / 4));
    assertThatThrownBy(() -> read(key))
        .isInstanceOfSatisfying(
            RepositoryException.class, e -> assertThat(e.kind()).isEqualTo(Kind.UNAVAILABLE));
    assertAnswersAgain(key, body);
  }

  /**
   * A PUT whose body is reset half-way fails, and stores nothing: the key keeps its earlier body.
   */
  @Test
  void put_whenResetMidBody_failsAndStoresNothingPartial() throws IOException {
    byte[] before = body(4096);
    String key = stored(before);
    link.add(Toxic.bandwidth(200).upstream());
    link.add(Toxic.resetPeer(Duration.ofMillis(500)).upstream());
    byte[] after = SeededBytes.bytes(seed ^ 0x5eed, BODY_BYTES);
    assertThatThrownBy(() -> repository.put(key, new ByteArrayInputStream(after), after.length))
        .isInstanceOfSatisfying(
            RepositoryException.class,
            e -> assertThat(e.kind()).isIn(Kind.UNAVAILABLE, Kind.TIMEOUT));
    assertAnswersAgain(key, before);
  }

  /**
   * Every connection in the pool was closed by the far side while idle, and the next calls must not
   * see it. What protects them is the SDK's retry: with one attempt (retries 0), the first call on
   * a closed pooled connection fails with "The target server failed to respond", because the SDK's
   * Apache 5 client does not check a pooled connection before it reuses it.
   */
  @Test
  void calls_whenPooledConnectionsWereClosedWhileIdle_succeed() throws IOException {
    byte[] body = body(4096);
    String key = stored(body);
    assertThat(read(key)).isEqualTo(body);
    link.disable(); // closes every connection of the proxy, both ways
    link.enable();
    for (int i = 0; i < 3; i++) {
      assertThat(read(key)).isEqualTo(body);
      assertThat(repository.head(key)).isPresent();
    }
  }

  /** Fails if a refused connection were retried until the connect timeout, or taken for a miss. */
  @Test
  void calls_whenConnectionRefused_unavailableWellBeforeTheConnectTimeout() throws IOException {
    byte[] body = body(4096);
    String key = stored(body);
    link.disable();
    long started = System.nanoTime();
    assertThatThrownBy(() -> read(key))
        .isInstanceOfSatisfying(
            RepositoryException.class, e -> assertThat(e.kind()).isEqualTo(Kind.UNAVAILABLE));
    assertThatThrownBy(() -> repository.head(key))
        .isInstanceOfSatisfying(
            RepositoryException.class, e -> assertThat(e.kind()).isEqualTo(Kind.UNAVAILABLE));
    Duration took = since(started);
    System.out.println("refused GET + HEAD: " + took.toMillis() + " ms to UNAVAILABLE");
    assertThat(took).isLessThan(CONNECT_TIMEOUT);
    link.enable();
    assertThat(read(key)).isEqualTo(body);
  }

  /** A name that does not resolve is {@code UNAVAILABLE}, not a miss. */
  @Test
  void calls_whenEndpointDoesNotResolve_unavailable() {
    try (S3Repository unresolvable =
        S3Repository.create(
            "unresolvable", options(URI.create("http://racs-wire-test.invalid:9000")).build())) {
      assertThatThrownBy(() -> unresolvable.head("k"))
          .isInstanceOfSatisfying(
              RepositoryException.class, e -> assertThat(e.kind()).isEqualTo(Kind.UNAVAILABLE));
    }
  }

  /**
   * A link of 20 ms ± 10 ms and 500 KB/s, closing slowly, still carries every byte: the read
   * timeout bounds a silence, not a whole body.
   */
  @Test
  void calls_whenLinkIsSlowAndClosesSlowly_answerCorrectly() throws IOException {
    byte[] body = body(BODY_BYTES);
    String key = stored(body);
    link.add(Toxic.latency(Duration.ofMillis(20), Duration.ofMillis(10)));
    link.add(Toxic.bandwidth(500));
    link.add(Toxic.slowClose(Duration.ofSeconds(2)));
    long started = System.nanoTime();
    assertThat(read(key)).isEqualTo(body);
    Duration took = since(started);
    System.out.println("1 MiB GET at 500 KB/s: " + took.toMillis() + " ms");
    assertThat(took).isGreaterThan(READ_TIMEOUT);
  }
}
