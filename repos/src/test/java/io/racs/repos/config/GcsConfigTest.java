package io.racs.repos.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.repos.Repository;
import io.racs.repos.gcs.GcsCredentials;
import io.racs.repos.gcs.GcsOptions;
import io.racs.repos.gcs.GcsRepository;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Proves the loader reads a {@code type: gcs} entry into its options (the issue's example, each way
 * to authenticate, the endpoint override, create, the timeouts, retries and block size), refuses an
 * entry without a bucket or with a bad one or a block size GCS cannot chunk, and that the factory
 * builds a {@link GcsRepository} from it without I/O (no key file is read).
 */
class GcsConfigTest {
  private final RepositoryConfigLoader loader =
      RepositoryConfigLoader.withEnvironment(Map.of("GCS_KEY", "/run/secrets/sa.json")::get);

  private GcsOptions options(String entry) {
    String yaml = "repositories:\n  - " + entry + "\n";
    BackendConfig backend = loader.parse(yaml, "gc.yaml").repository("gc").orElseThrow().backend();
    assertThat(backend.type()).isEqualTo("gcs");
    return ((BackendConfig.Gcs) backend).options();
  }

  @Test
  void parse_whenIssueExample_readsBucketProjectAndKeyFile() {
    GcsOptions o =
        options(
            "{name: gc, type: gcs, bucket: racs, prefix: \"\", projectId: p, credentialsFile:"
                + " /etc/racs/sa.json}");
    assertThat(o.bucket()).isEqualTo("racs");
    assertThat(o.keyPrefix()).isEmpty();
    assertThat(o.projectId()).contains("p");
    assertThat(o.credentials())
        .isEqualTo(GcsCredentials.serviceAccountFile(Path.of("/etc/racs/sa.json")));
    assertThat(o.endpoint()).isEmpty();
    assertThat(o.create()).isFalse();
    assertThat(o.maxAttempts()).isEqualTo(3);
    assertThat(o.blockSizeBytes()).isEqualTo(8 << 20);
  }

  @Test
  void parse_whenNoKeyFile_applicationDefaultForGcsAndNoneForAnEndpoint() {
    assertThat(options("{name: gc, type: gcs, bucket: racs}").credentials())
        .isEqualTo(GcsCredentials.applicationDefault());
    GcsOptions emulator =
        options("{name: gc, type: gcs, bucket: racs, endpoint: \"http://127.0.0.1:4443\"}");
    assertThat(emulator.credentials()).isEqualTo(GcsCredentials.none());
    assertThat(emulator.endpoint()).contains(URI.create("http://127.0.0.1:4443"));
    assertThat(emulator.projectId()).isEmpty();
  }

  @Test
  void parse_whenEveryOption_readsEach() {
    GcsOptions o =
        options(
            "{name: gc, type: gcs, bucket: my.racs.bucket, prefix: racs/, credentialsFile:"
                + " \"${env:GCS_KEY}\", endpoint: \"https://storage.example\", create: yes,"
                + " connectTimeout: 2s, readTimeout: 10s, retries: 4, backoff: 10ms, backoffMax: 1s,"
                + " blockSize: 4MiB}");
    assertThat(o.bucket()).isEqualTo("my.racs.bucket");
    assertThat(o.keyPrefix()).isEqualTo("racs/");
    assertThat(o.credentials())
        .isEqualTo(GcsCredentials.serviceAccountFile(Path.of("/run/secrets/sa.json")));
    assertThat(o.endpoint()).isEqualTo(Optional.of(URI.create("https://storage.example")));
    assertThat(o.create()).isTrue();
    assertThat(o.connectTimeout()).isEqualTo(Duration.ofSeconds(2));
    assertThat(o.readTimeout()).isEqualTo(Duration.ofSeconds(10));
    assertThat(o.maxAttempts()).isEqualTo(5);
    assertThat(o.retryDelay()).isEqualTo(Duration.ofMillis(10));
    assertThat(o.maxRetryDelay()).isEqualTo(Duration.ofSeconds(1));
    assertThat(o.blockSizeBytes()).isEqualTo(4 << 20);
  }

  @Test
  void parse_whenBucketMissingOrBadOrBlockNotChunkable_failsNamingTheField() {
    assertThatThrownBy(() -> options("{name: gc, type: gcs, projectId: p}"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("repository 'gc'")
        .hasMessageContaining("field 'bucket': missing");
    assertThatThrownBy(() -> options("{name: gc, type: gcs, bucket: Bad_Name}"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("bucket: Bad_Name");
    assertThatThrownBy(() -> options("{name: gc, type: gcs, bucket: racs, blockSize: 300KiB}"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("blockSize");
    assertThatThrownBy(() -> options("{name: gc, type: gcs, bucket: racs, container: racs}"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("unknown field");
  }

  @Test
  void create_whenGcsEntry_buildsGcsRepositoryWithoutIo() {
    RepositoryConfig config =
        loader
            .parse(
                "repositories:\n  - {name: gc, type: gcs, bucket: racs, prefix: p/, projectId: p,"
                    + " credentialsFile: /nonexistent/sa.json}\n",
                "gc.yaml")
            .repository("gc")
            .orElseThrow();
    try (Repository repository = RepositoryFactory.create(config)) {
      assertThat(repository).isInstanceOf(GcsRepository.class);
      assertThat(repository.describe())
          .containsEntry("type", "gcs")
          .containsEntry("location", "https://storage.googleapis.com/racs/p/")
          .containsEntry("credentials", "serviceAccountFile(/nonexistent/sa.json)");
    }
  }
}
