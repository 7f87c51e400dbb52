package io.racs.repos.azure;

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
import io.racs.testkit.AzuriteExtension;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Proves the {@code azure} backend keeps the whole repository contract on a real Azurite blob
 * service (each test in a fresh container), and what only it must: a container that was never
 * created is {@code UNAVAILABLE} for every call, naming it, and {@code create: true} creates it on
 * the first call, once only, "create if absent" refuses an existing blob with {@code
 * PRECONDITION_FAILED} and leaves it unchanged, blob names sit under the configured prefix,
 * unescaped, and a YAML {@code type: azure} entry builds a working repository.
 *
 * <p>What Azurite cannot show, compared with Azure itself: throttling (503 {@code ServerBusy} and
 * the SDK's retries of it) never happens; conditional headers are checked less strictly than by the
 * service in some cases (Azurite answers a Put Blob with {@code If-None-Match: *} on an existing
 * blob as Azure does, but it does not model leases or every combination of conditions); {@code
 * startFrom} on List Blobs is not supported, which is why listings skip to their start (see {@link
 * AzureRepository#list}); a deleted container is gone at once, where Azure answers {@code
 * ContainerBeingDeleted} for a while; blob-name limits (1024 characters, 254 segments) are not
 * enforced, so {@link #mustRefuse} checks the repository's own rule; and shared-key signing is
 * checked against the well-known development account only.
 */
class AzureRepositoryIT extends RepositoryContract {
  @RegisterExtension static final AzuriteExtension AZURITE = new AzuriteExtension();

  private static final AtomicInteger CONTAINERS = new AtomicInteger();

  private String container;

  @Override
  protected Repository createRepository() {
    container = "contract-" + CONTAINERS.incrementAndGet();
    AZURITE.service().createBlobContainer(container);
    return AzureRepository.create("azure-test", options(container).build());
  }

  /** Deletes the test's container, blobs and all. */
  @Override
  protected boolean loseStorage() {
    AZURITE.service().deleteBlobContainer(container);
    return true;
  }

  @Override
  protected String lostStorageNamed() {
    return "container " + container + " does not exist";
  }

  /** The rule {@link AzureRepository} documents: Azure's limits on the blob name. */
  @Override
  protected boolean mustRefuse(String key) {
    String name = BlobNames.lift(KeyCodec.encode(key));
    return name.length() > BlobNames.MAX_NAME_CHARS
        || name.chars().filter(c -> c == '/').count() + 1 > BlobNames.MAX_SEGMENTS;
  }

  private static AzureOptions.Builder options(String container) {
    return AzureOptions.builder(
            container, AzureCredentials.connectionString(AZURITE.connectionString()))
        .serviceVersion(AzuriteExtension.SERVICE_VERSION)
        .blockSizeBytes(1 << 20);
  }

  @Test
  void everyCall_whenContainerNeverCreated_unavailableNamingIt() {
    try (AzureRepository missing =
        AzureRepository.create("missing", options("never-created").build())) {
      Map<String, ThrowingCallable> calls =
          Map.of(
              "probe", missing::probe,
              "get", () -> missing.get("k").close(),
              "head", () -> missing.head("k"),
              "delete", () -> missing.delete("k"),
              "list", () -> missing.list("", "", 10),
              "put", () -> missing.put("k", new ByteArrayInputStream(new byte[] {1}), 1));
      calls.forEach(
          (call, callable) ->
              assertThatThrownBy(callable)
                  .as(call)
                  .isInstanceOfSatisfying(
                      RepositoryException.class,
                      e -> {
                        assertThat(e.kind()).isEqualTo(Kind.UNAVAILABLE);
                        assertThat(e)
                            .hasMessageContaining("container never-created does not exist");
                      }));
    }
    assertThat(AZURITE.service().getBlobContainerClient("never-created").exists()).isFalse();
  }

  @Test
  void firstCall_whenCreateAndContainerMissing_createsItOnceOnly() throws IOException {
    String fresh = "created-" + CONTAINERS.incrementAndGet();
    String yaml =
        """
        repositories:
          - name: az
            type: azure
            container: %s
            connectionString: "${env:AZURE_CONN}"
            serviceVersion: %s
            create: true
        """
            .formatted(fresh, AzuriteExtension.SERVICE_VERSION);
    RepositorySetConfig set =
        RepositoryConfigLoader.withEnvironment(
                name -> name.equals("AZURE_CONN") ? AZURITE.connectionString() : null)
            .parse(yaml, "test.yaml");
    try (Repository az = RepositoryFactory.create(set.repository("az").orElseThrow())) {
      assertThat(az.head("k")).isEmpty(); // the first call, as the proxy's identity check makes
      assertThat(AZURITE.service().getBlobContainerClient(fresh).exists()).isTrue();
      az.put("k", new ByteArrayInputStream(new byte[] {4}), 1);
      try (ObjectStream in = az.get("k")) {
        assertThat(in.readAllBytes()).containsExactly(4);
      }
      // Once settled, a container deleted later is missing storage, not silently made anew.
      AZURITE.service().deleteBlobContainer(fresh);
      assertThatThrownBy(az::probe)
          .isInstanceOfSatisfying(
              RepositoryException.class, e -> assertThat(e.kind()).isEqualTo(Kind.UNAVAILABLE))
          .hasMessageContaining("container " + fresh + " does not exist");
    }
  }

  @Test
  void putIfAbsent_whenBlobExists_preconditionFailedAndUnchanged() throws IOException {
    AzureRepository azure = (AzureRepository) repository;
    azure.putIfAbsent("k", new ByteArrayInputStream(new byte[] {1, 2}), 2);
    assertThatThrownBy(() -> azure.putIfAbsent("k", new ByteArrayInputStream(new byte[] {3}), 1))
        .isInstanceOfSatisfying(
            RepositoryException.class,
            e -> assertThat(e.kind()).isEqualTo(Kind.PRECONDITION_FAILED));
    try (ObjectStream in = azure.get("k")) {
      assertThat(in.readAllBytes()).containsExactly(1, 2);
    }
  }

  @Test
  void put_withKeyPrefix_storesUnescapedPrefixThenEscapedKey() {
    try (AzureRepository prefixed =
        AzureRepository.create("prefixed", options(container).keyPrefix("racs/a.b/").build())) {
      prefixed.put("x/.y", new ByteArrayInputStream(new byte[] {7}), 1);
      assertThat(
              AZURITE.service().getBlobContainerClient(container).listBlobs().stream()
                  .map(b -> b.getName())
                  .toList())
          .containsExactly("racs/a.b/" + KeyCodec.encode("x/.y"));
      assertThat(prefixed.list("", "", 10).objects()).hasSize(1);
    }
  }

  @Test
  void loader_whenAzureEntry_buildsWorkingRepository() throws IOException {
    String yaml =
        """
        repositories:
          - name: az
            type: azure
            container: %s
            prefix: "yaml/"
            connectionString: "${env:AZURE_CONN}"
            serviceVersion: %s
        """
            .formatted(container, AzuriteExtension.SERVICE_VERSION);
    RepositorySetConfig set =
        RepositoryConfigLoader.withEnvironment(
                name -> name.equals("AZURE_CONN") ? AZURITE.connectionString() : null)
            .parse(yaml, "test.yaml");
    try (Repository az = RepositoryFactory.create(set.repository("az").orElseThrow())) {
      assertThat(az).isInstanceOf(AzureRepository.class);
      assertThat(az.describe()).containsEntry("type", "azure");
      az.put("hello", new ByteArrayInputStream("hi".getBytes(StandardCharsets.UTF_8)), 2);
      try (ObjectStream in = az.get("hello")) {
        assertThat(in.readAllBytes()).isEqualTo("hi".getBytes(StandardCharsets.UTF_8));
      }
    }
  }
}
