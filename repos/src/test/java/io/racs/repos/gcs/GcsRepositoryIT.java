package io.racs.repos.gcs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.cloud.storage.Blob;
import com.google.cloud.storage.BucketInfo;
import com.google.cloud.storage.Storage;
import com.google.cloud.storage.Storage.BlobListOption;
import io.racs.repos.KeyCodec;
import io.racs.repos.ObjectStream;
import io.racs.repos.Repository;
import io.racs.repos.RepositoryContract;
import io.racs.repos.RepositoryException;
import io.racs.repos.RepositoryException.Kind;
import io.racs.repos.config.RepositoryConfigLoader;
import io.racs.repos.config.RepositoryFactory;
import io.racs.repos.config.RepositorySetConfig;
import io.racs.testkit.FakeGcsExtension;
import io.racs.testkit.SeededBytes;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.StreamSupport;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Proves the {@code gcs} backend keeps the whole repository contract on a real fake-gcs-server
 * (each test in a fresh bucket), and what only it must: a bucket that was never created is {@code
 * UNAVAILABLE} for every call; "create if absent" ({@code ifGenerationMatch=0}) refuses an existing
 * object with {@code PRECONDITION_FAILED} and leaves it unchanged, in one request and resumable
 * alike; listings after an existing key skip it although the service's {@code startOffset} returns
 * it; object names sit under the configured prefix, unescaped; failures of the network map to their
 * kinds (refused: {@code UNAVAILABLE}, silent: {@code TIMEOUT}); {@code create: true} creates a
 * missing bucket at the first request; and a YAML {@code type: gcs} entry builds a working
 * repository.
 *
 * <p>What fake-gcs-server cannot show, compared with GCS itself (see also the package's
 * documentation): it checks generation preconditions on uploads only, so the pinned-generation
 * reads are not tested against a precondition failure; without versioning it drops an overwritten
 * generation at once and serves a download it has started whole, so a read cannot be made to break
 * off mid-stream; it answers every 404 with a bare "Not Found"; it never throttles or fails (no
 * 429, 503 or retries) and takes any credentials, so 401/403 are covered by {@code GcsErrorsTest}
 * only; it does not check resumable chunk offsets nor expire sessions, and creates a missing bucket
 * when a resumable upload started before the bucket was deleted is finalised; it refuses to delete
 * a bucket that is not empty with 412 where GCS answers 409; and it enforces no object-name limits,
 * so {@link #mustRefuse} checks the repository's own rule.
 */
class GcsRepositoryIT extends RepositoryContract {
  @RegisterExtension static final FakeGcsExtension GCS = new FakeGcsExtension();

  private static final AtomicInteger BUCKETS = new AtomicInteger();

  /**
   * A small block, so that resumable uploads are cheap to reach, but not the smallest: the emulator
   * hashes the whole upload again at every chunk, so a 64 MiB body in 256 KiB chunks takes a
   * minute.
   */
  private static final int BLOCK = 8 * GcsOptions.CHUNK_UNIT_BYTES;

  private String bucket;

  @Override
  protected Repository createRepository() {
    bucket = newBucket();
    return GcsRepository.create("gcs-test", options(bucket).build());
  }

  /** Deletes the test's bucket, objects and all (the service deletes only empty buckets). */
  @Override
  protected boolean loseStorage() {
    Storage service = GCS.service();
    for (Blob blob : service.list(bucket).iterateAll()) {
      service.delete(blob.getBlobId());
    }
    assertThat(service.delete(bucket)).isTrue();
    return true;
  }

  /** The rule {@link GcsRepository} documents: GCS's limit on the object name's UTF-8 bytes. */
  @Override
  protected boolean mustRefuse(String key) {
    return KeyCodec.encodedLength(key) > ObjectNames.MAX_NAME_BYTES;
  }

  private static String newBucket() {
    String name = "contract-" + BUCKETS.incrementAndGet();
    GCS.service().create(BucketInfo.of(name));
    return name;
  }

  private static GcsOptions.Builder options(String bucket) {
    return GcsOptions.builder(bucket, GcsCredentials.none())
        .endpoint(URI.create(GCS.endpoint()))
        .blockSizeBytes(BLOCK);
  }

  private static ByteArrayInputStream bytes(int... values) {
    byte[] b = new byte[values.length];
    for (int i = 0; i < values.length; i++) {
      b[i] = (byte) values[i];
    }
    return new ByteArrayInputStream(b);
  }

  private static void assertKind(ThrowingCallable call, String what, Kind kind) {
    assertThatThrownBy(call)
        .as(what)
        .isInstanceOfSatisfying(
            RepositoryException.class, e -> assertThat(e.kind()).as(what).isEqualTo(kind));
  }

  @Test
  void everyCall_whenBucketNeverCreated_unavailable() {
    try (GcsRepository missing =
        GcsRepository.create("missing", options("never-created").build())) {
      Map<String, ThrowingCallable> calls = new LinkedHashMap<>();
      calls.put("probe", missing::probe);
      calls.put("get", () -> missing.get("k").close());
      calls.put("get range", () -> missing.get("k", 1, 2).close());
      calls.put("head", () -> missing.head("k"));
      calls.put("delete", () -> missing.delete("k"));
      calls.put("discard", () -> missing.discard("k"));
      calls.put("list", () -> missing.list("", "", 10));
      calls.put("list after", () -> missing.list("", "k", 10));
      calls.put("put", () -> missing.put("k", bytes(1), 1));
      calls.put("put unknown length", () -> missing.put("k", bytes(1), -1));
      calls.put(
          "put resumable",
          () -> missing.put("k", SeededBytes.stream(SEED, BLOCK * 2L + 5), BLOCK * 2L + 5));
      calls.put("put if absent", () -> missing.putIfAbsent("k", bytes(1), 1));
      calls.forEach((call, callable) -> assertKind(callable, call, Kind.UNAVAILABLE));
    }
    assertThat(GCS.service().get("never-created")).isNull();
  }

  @Test
  void probe_whenBucketMissing_namesItAndHowToCreateIt() {
    try (GcsRepository missing =
        GcsRepository.create("missing", options("never-created-2").build())) {
      assertThatThrownBy(missing::probe)
          .hasMessageContaining("bucket never-created-2 does not exist")
          .hasMessageContaining("create: true");
    }
  }

  @Test
  void firstRequest_whenCreateAndBucketMissing_createsIt() throws IOException {
    String name = "created-" + BUCKETS.incrementAndGet();
    try (GcsRepository created =
        GcsRepository.create("created", options(name).create(true).build())) {
      created.put("k", bytes(4, 2), 2);
      created.probe();
      try (ObjectStream in = created.get("k")) {
        assertThat(in.readAllBytes()).containsExactly(4, 2);
      }
    }
    assertThat(GCS.service().get(name)).isNotNull();
  }

  @Test
  void putIfAbsent_whenObjectExists_preconditionFailedAndUnchanged() throws IOException {
    GcsRepository gcs = (GcsRepository) repository;
    gcs.putIfAbsent("k", bytes(1, 2), 2);
    assertKind(() -> gcs.putIfAbsent("k", bytes(3), 1), "single", Kind.PRECONDITION_FAILED);
    long large = BLOCK * 2L + 7;
    assertKind(
        () -> gcs.putIfAbsent("k", SeededBytes.stream(SEED, large), large),
        "resumable",
        Kind.PRECONDITION_FAILED);
    assertKind(
        () -> gcs.putIfAbsent("k", SeededBytes.stream(SEED, large), -1),
        "resumable, unknown length",
        Kind.PRECONDITION_FAILED);
    try (ObjectStream in = gcs.get("k")) {
      assertThat(in.readAllBytes()).containsExactly(1, 2);
    }
  }

  @Test
  void putIfAbsent_whenAbsent_storesResumableBody() throws IOException {
    GcsRepository gcs = (GcsRepository) repository;
    long large = BLOCK * 3L + 1;
    gcs.putIfAbsent("big", SeededBytes.stream(SEED, large), -1);
    try (ObjectStream in = gcs.get("big")) {
      assertThat(in.info().sizeBytes()).isEqualTo(large);
      assertThat(SeededBytes.sha256(in)).isEqualTo(SeededBytes.sha256(SEED, large));
    }
  }

  @Test
  void list_whenStartAfterIsAnExistingKey_skipsItThoughStartOffsetIsInclusive() {
    putAll(List.of("a", "b", "b0", "c"));
    // The service itself returns the bound: startOffset is inclusive.
    String storedB = KeyCodec.encode("b");
    List<String> raw =
        StreamSupport.stream(
                GCS.service()
                    .list(bucket, BlobListOption.startOffset(storedB))
                    .iterateAll()
                    .spliterator(),
                false)
            .map(Blob::getName)
            .toList();
    assertThat(raw).first().isEqualTo(storedB);
    // The repository's listing is strictly after it, whole and paged.
    assertThat(keys(repository.list("", "b", 10))).containsExactly("b0", "c");
    assertThat(keys(repository.list("", "b", 1))).containsExactly("b0");
    assertThat(repository.list("", "b", 1).truncated()).isTrue();
    assertThat(keys(repository.list("", "b0", 1))).containsExactly("c");
    assertThat(repository.list("", "b0", 1).truncated()).isFalse();
    assertThat(keys(repository.list("b", "b", 10))).containsExactly("b0");
  }

  @Test
  void put_withKeyPrefix_storesUnescapedPrefixThenEscapedKey() {
    try (GcsRepository prefixed =
        GcsRepository.create("prefixed", options(bucket).keyPrefix("racs/a.b/").build())) {
      prefixed.put("x/.y", bytes(7), 1);
      assertThat(
              StreamSupport.stream(GCS.service().list(bucket).iterateAll().spliterator(), false)
                  .map(Blob::getName)
                  .toList())
          .containsExactly("racs/a.b/" + KeyCodec.encode("x/.y"));
      assertThat(keys(prefixed.list("", "", 10))).containsExactly("x/.y");
      assertThat(keys(repository.list("", "", 10))).isEmpty();
    }
  }

  @Test
  void everyCall_whenConnectionRefused_unavailable() throws IOException {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closedPort = socket.getLocalPort();
    }
    try (GcsRepository refused =
        GcsRepository.create(
            "refused",
            options(bucket)
                .endpoint(URI.create("http://127.0.0.1:" + closedPort))
                .maxAttempts(1)
                .build())) {
      assertKind(refused::probe, "probe", Kind.UNAVAILABLE);
      assertKind(() -> refused.head("k"), "head", Kind.UNAVAILABLE);
      assertKind(() -> refused.put("k", bytes(1), 1), "put", Kind.UNAVAILABLE);
      assertKind(() -> refused.list("", "", 1), "list", Kind.UNAVAILABLE);
    }
  }

  @Test
  void everyCall_whenServerNeverAnswers_timeout() throws IOException {
    // A socket that accepts connections (the kernel's backlog does) and never answers.
    try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        GcsRepository stalled =
            GcsRepository.create(
                "stalled",
                options(bucket)
                    .endpoint(URI.create("http://127.0.0.1:" + silent.getLocalPort()))
                    .readTimeout(Duration.ofMillis(200))
                    .maxAttempts(1)
                    .build())) {
      assertKind(stalled::probe, "probe", Kind.TIMEOUT);
      assertKind(() -> stalled.get("k").close(), "get", Kind.TIMEOUT);
      assertKind(() -> stalled.list("", "", 1), "list", Kind.TIMEOUT);
    }
  }

  @Test
  void firstRequest_whenCredentialsFileMissing_accessDeniedNamingIt() {
    Path nowhere = Path.of("/nonexistent/racs-sa.json");
    try (GcsRepository denied =
        GcsRepository.create(
            "denied",
            GcsOptions.builder(bucket, GcsCredentials.serviceAccountFile(nowhere))
                .endpoint(URI.create(GCS.endpoint()))
                .projectId("p")
                .build())) {
      assertThat(denied.describe())
          .containsEntry("credentials", "serviceAccountFile(" + nowhere + ")");
      assertThatThrownBy(() -> denied.head("k"))
          .isInstanceOfSatisfying(
              RepositoryException.class, e -> assertThat(e.kind()).isEqualTo(Kind.ACCESS_DENIED))
          .hasMessageContaining(nowhere.toString());
    }
  }

  @Test
  void loader_whenGcsEntry_buildsWorkingRepository() throws IOException {
    String yaml =
        """
        repositories:
          - name: gc
            type: gcs
            bucket: %s
            prefix: "yaml/"
            projectId: p
            endpoint: "${env:GCS_ENDPOINT}"
            blockSize: 256KiB
            decorators: [metered]
        """
            .formatted(bucket);
    RepositorySetConfig set =
        RepositoryConfigLoader.withEnvironment(
                name -> name.equals("GCS_ENDPOINT") ? GCS.endpoint() : null)
            .parse(yaml, "test.yaml");
    try (Repository gc = RepositoryFactory.create(set.repository("gc").orElseThrow())) {
      assertThat(gc.describe()).containsEntry("type", "gcs");
      gc.put("hello", new ByteArrayInputStream("hi".getBytes(StandardCharsets.UTF_8)), 2);
      try (ObjectStream in = gc.get("hello")) {
        assertThat(in.readAllBytes()).isEqualTo("hi".getBytes(StandardCharsets.UTF_8));
      }
      assertThat(GCS.service().get(bucket, "yaml/" + KeyCodec.encode("hello"))).isNotNull();
    }
  }
}
