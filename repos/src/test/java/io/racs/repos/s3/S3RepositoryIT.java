package io.racs.repos.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.repos.KeyCodec;
import io.racs.repos.ObjectStream;
import io.racs.repos.Repository;
import io.racs.repos.RepositoryContract;
import io.racs.repos.RepositoryException;
import io.racs.repos.RepositoryException.Kind;
import io.racs.repos.config.RepositoryConfigLoader;
import io.racs.repos.config.RepositoryFactory;
import io.racs.repos.config.RepositorySetConfig;
import io.racs.repos.minio.MinioServer;
import io.racs.testkit.MinioExtension;
import io.racs.testkit.SeededBytes;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Proves the {@code s3} backend keeps the whole repository contract on a real MinIO server (each
 * test in a fresh bucket), and what only it must: a stopped server gives {@code UNAVAILABLE} within
 * the configured timeouts and the repository works again once the server is back, a server that
 * never answers gives {@code TIMEOUT}, bad credentials give {@code ACCESS_DENIED}, a 64 MiB upload
 * of unknown length holds at most one part in memory, and stored names are the escaped safe names
 * (or the raw keys when asked), under the configured prefix; and {@code create: true} creates a
 * missing bucket on the first call, once only.
 */
class S3RepositoryIT extends RepositoryContract {
  @RegisterExtension static final MinioExtension MINIO = MinioExtension.servers(1);

  private static final AtomicInteger BUCKETS = new AtomicInteger();
  private static final int PART_SIZE_BYTES = S3Options.MIN_PART_SIZE_BYTES;

  private String bucket;

  @Override
  protected Repository createRepository() {
    bucket = "contract-" + BUCKETS.incrementAndGet();
    MINIO.client(0).createBucket(b -> b.bucket(bucket));
    return S3Repository.create("s3-test", options(MINIO.server(0), bucket).build());
  }

  /** Deletes the test's bucket (emptied first, as S3 requires). */
  @Override
  protected boolean loseStorage() {
    S3Client client = MINIO.client(0);
    for (S3Object object : client.listObjectsV2Paginator(b -> b.bucket(bucket)).contents()) {
      client.deleteObject(b -> b.bucket(bucket).key(object.key()));
    }
    client.deleteBucket(b -> b.bucket(bucket));
    return true;
  }

  @Override
  protected String lostStorageNamed() {
    return "bucket " + bucket + " does not exist";
  }

  /**
   * The rule {@link S3Repository} documents: a key is refused when its stored name (the escaped
   * form, as no prefix is configured here) exceeds S3's own 1024-byte limit.
   */
  @Override
  protected boolean mustRefuse(String key) {
    return KeyCodec.encode(key).getBytes(StandardCharsets.UTF_8).length
        > S3Options.MAX_STORED_KEY_BYTES;
  }

  @Test
  void mustRefuse_whenAwkwardMaxLengthKeys_refusesEveryOne() {
    // Otherwise the contract's refusal checks would not run against this backend at all. Escaping
    // ends every name with a terminator, so no 1024-byte key fits once escaped.
    assertThat(awkwardMaxLengthKeys()).allMatch(this::mustRefuse);
  }

  private static S3Options.Builder options(MinioServer server, String bucket) {
    return S3Options.builder(bucket)
        .endpoint(server.endpoint())
        .region(server.region())
        .credentials(S3Credentials.of(server.accessKey(), server.secretKey()))
        .pathStyle(true)
        .partSizeBytes(PART_SIZE_BYTES);
  }

  @Test
  void everyCall_whenServerStopped_unavailableWithinTimeoutThenRecovers() throws IOException {
    S3Options fast =
        options(MINIO.server(0), bucket)
            .connectTimeout(Duration.ofMillis(500))
            .readTimeout(Duration.ofSeconds(2))
            .maxAttempts(2)
            .backoff(Duration.ofMillis(20), Duration.ofMillis(50))
            .build();
    try (S3Repository repository = S3Repository.create("stopping", fast)) {
      repository.put("k", new ByteArrayInputStream(new byte[] {1, 2, 3}), 3);
      MINIO.server(0).stop();

      long started = System.nanoTime();
      assertThatThrownBy(() -> repository.get("k"))
          .isInstanceOfSatisfying(
              RepositoryException.class, e -> assertThat(e.kind()).isEqualTo(Kind.UNAVAILABLE));
      assertThatThrownBy(() -> repository.put("k2", new ByteArrayInputStream(new byte[1]), 1))
          .isInstanceOfSatisfying(
              RepositoryException.class, e -> assertThat(e.kind()).isEqualTo(Kind.UNAVAILABLE));
      assertThatThrownBy(repository::probe)
          .isInstanceOfSatisfying(
              RepositoryException.class, e -> assertThat(e.kind()).isEqualTo(Kind.UNAVAILABLE));
      // Three calls, each at most 2 attempts of a 500 ms connect plus 50 ms of backoff.
      assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(4));

      MINIO.server(0).start();
      repository.probe();
      try (ObjectStream in = repository.get("k")) {
        assertThat(in.readAllBytes()).containsExactly(1, 2, 3);
      }
    }
  }

  @Test
  void get_whenServerNeverAnswers_timeout() throws Exception {
    ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    List<Socket> accepted = new ArrayList<>();
    Thread acceptor =
        Thread.ofVirtual()
            .start(
                () -> {
                  try {
                    while (true) {
                      accepted.add(silent.accept()); // Accept, then never answer.
                    }
                  } catch (IOException e) {
                    // Closed at the end of the test.
                  }
                });
    try {
      S3Options options =
          options(MINIO.server(0), bucket)
              .endpoint(URI.create("http://127.0.0.1:" + silent.getLocalPort()))
              .readTimeout(Duration.ofMillis(300))
              .maxAttempts(2)
              .backoff(Duration.ofMillis(10), Duration.ofMillis(20))
              .build();
      long started = System.nanoTime();
      try (S3Repository repository = S3Repository.create("silent", options)) {
        assertThatThrownBy(() -> repository.get("k"))
            .isInstanceOfSatisfying(
                RepositoryException.class, e -> assertThat(e.kind()).isEqualTo(Kind.TIMEOUT));
      }
      assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
    } finally {
      silent.close();
      acceptor.join();
      for (Socket socket : accepted) {
        socket.close();
      }
    }
  }

  @Test
  void everyCall_whenSecretWrong_accessDenied() {
    S3Options wrong =
        options(MINIO.server(0), bucket)
            .credentials(S3Credentials.of(MINIO.server(0).accessKey(), "not-the-secret"))
            .build();
    try (S3Repository repository = S3Repository.create("wrong", wrong)) {
      assertThatThrownBy(() -> repository.put("k", new ByteArrayInputStream(new byte[1]), 1))
          .isInstanceOfSatisfying(
              RepositoryException.class, e -> assertThat(e.kind()).isEqualTo(Kind.ACCESS_DENIED));
      assertThatThrownBy(() -> repository.list("", "", 10))
          .isInstanceOfSatisfying(
              RepositoryException.class, e -> assertThat(e.kind()).isEqualTo(Kind.ACCESS_DENIED));
      assertThat(repository.describe().toString()).doesNotContain("not-the-secret");
      assertThat(wrong.toString()).doesNotContain("not-the-secret").contains("****");
    }
  }

  @Test
  void probeAndGet_whenBucketMissing_unavailable() {
    try (S3Repository repository =
        S3Repository.create("nobucket", options(MINIO.server(0), "no-such-bucket").build())) {
      assertThatThrownBy(repository::probe)
          .isInstanceOfSatisfying(
              RepositoryException.class, e -> assertThat(e.kind()).isEqualTo(Kind.UNAVAILABLE));
      assertThatThrownBy(() -> repository.get("k"))
          .isInstanceOfSatisfying(
              RepositoryException.class, e -> assertThat(e.kind()).isEqualTo(Kind.UNAVAILABLE));
    }
  }

  @Test
  void put_when64MiBOfUnknownLength_buffersAtMostOnePart() throws IOException {
    S3Repository s3 = (S3Repository) repository;
    long size = 64L << 20;
    s3.put("big", SeededBytes.stream(SEED, size), -1);
    assertThat(s3.maxBufferedBytes()).isPositive().isLessThanOrEqualTo(2L * PART_SIZE_BYTES);
    try (ObjectStream in = s3.get("big", 30L << 20, 10L << 20)) {
      assertThat(in.info().sizeBytes()).isEqualTo(size);
      assertThat(SeededBytes.sha256(in))
          .isEqualTo(SeededBytes.sha256(SEED, size, 30L << 20, 10L << 20));
    }
    // No multipart upload is left behind.
    assertThat(MINIO.client(0).listMultipartUploads(b -> b.bucket(bucket)).uploads()).isEmpty();
  }

  @Test
  void put_whenPrefixAndEncodings_storesExpectedNames() {
    String shared = bucket;
    try (S3Repository escaped =
            S3Repository.create(
                "escaped", options(MINIO.server(0), shared).keyPrefix("racs/e/").build());
        S3Repository raw =
            S3Repository.create(
                "raw",
                options(MINIO.server(0), shared)
                    .keyPrefix("racs/r/")
                    .keyEncoding(S3Options.KeyEncoding.RAW)
                    .build())) {
      escaped.put("a.b/../c", new ByteArrayInputStream(new byte[1]), 1);
      raw.put("photos/cat.jpg", new ByteArrayInputStream(new byte[1]), 1);
      List<String> names =
          MINIO.client(0).listObjectsV2(b -> b.bucket(shared).prefix("racs/")).contents().stream()
              .map(S3Object::key)
              .toList();
      assertThat(names).containsExactly("racs/e/a%2Eb/%2E%2E/c!", "racs/r/photos/cat.jpg");
      assertThat(escaped.list("", "", 10).objects()).hasSize(1);
      assertThat(raw.list("", "", 10).objects().getFirst().key()).isEqualTo("photos/cat.jpg");
    }
  }

  @Test
  void firstCall_whenCreateAndBucketMissing_createsItOnceOnly() throws IOException {
    String fresh = "created-" + BUCKETS.incrementAndGet();
    MinioServer server = MINIO.server(0);
    String yaml =
        """
        repositories:
          - name: m
            type: minio
            bucket: %s
            endpoint: %s
            region: %s
            credentials: {accessKey: %s, secretKey: %s}
            create: true
        """
            .formatted(
                fresh, server.endpoint(), server.region(), server.accessKey(), server.secretKey());
    RepositorySetConfig set = RepositoryConfigLoader.create().parse(yaml, "test.yaml");
    try (Repository m = RepositoryFactory.create(set.repository("m").orElseThrow())) {
      assertThat(m.head("k")).isEmpty(); // the first call, as the proxy's identity check makes
      MINIO.client(0).headBucket(b -> b.bucket(fresh));
      m.put("k", new ByteArrayInputStream(new byte[] {4}), 1);
      try (ObjectStream in = m.get("k")) {
        assertThat(in.readAllBytes()).containsExactly(4);
      }
      // Once settled, a bucket deleted later is missing storage, not silently made anew.
      m.delete("k");
      MINIO.client(0).deleteBucket(b -> b.bucket(fresh));
      assertThatThrownBy(m::probe)
          .isInstanceOfSatisfying(
              RepositoryException.class, e -> assertThat(e.kind()).isEqualTo(Kind.UNAVAILABLE))
          .hasMessageContaining("bucket " + fresh + " does not exist");
    }
  }
}
