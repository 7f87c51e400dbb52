package io.racs.repos.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.repos.Repository;
import io.racs.repos.azure.AzureCredentials;
import io.racs.repos.azure.AzureOptions;
import io.racs.repos.azure.AzureRepository;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Proves the loader reads a {@code type: azure} entry into its options (each way to authenticate,
 * the endpoint override, the timeouts and retries), refuses an entry that names no credentials or
 * two kinds at once, and that the factory builds an {@link AzureRepository} from it without I/O.
 */
class AzureConfigTest {
  private final RepositoryConfigLoader loader =
      RepositoryConfigLoader.withEnvironment(
          Map.of("AZURE_CONN", "conn-from-env", "AZURE_KEY", "a2V5")::get);

  private AzureOptions options(String entry) {
    String yaml = "repositories:\n  - " + entry + "\n";
    BackendConfig backend = loader.parse(yaml, "az.yaml").repository("az").orElseThrow().backend();
    assertThat(backend.type()).isEqualTo("azure");
    return ((BackendConfig.Azure) backend).options();
  }

  @Test
  void parse_whenConnectionString_readsItFromTheEnvironment() {
    AzureOptions o =
        options(
            "{name: az, type: azure, container: racs, prefix: \"p/\", connectionString:"
                + " \"${env:AZURE_CONN}\"}");
    assertThat(o.container()).isEqualTo("racs");
    assertThat(o.keyPrefix()).isEqualTo("p/");
    assertThat(o.credentials()).isEqualTo(AzureCredentials.connectionString("conn-from-env"));
    assertThat(o.endpoint()).isEmpty();
    assertThat(o.maxTries()).isEqualTo(3);
  }

  @Test
  void parse_whenAccountKeyAndEndpoint_readsEveryOption() {
    AzureOptions o =
        options(
            "{name: az, type: azure, container: racs, accountName: acct, accountKey:"
                + " \"${env:AZURE_KEY}\", endpoint: \"http://127.0.0.1:10000/acct\","
                + " serviceVersion: 2025-11-05, connectTimeout: 2s, tryTimeout: 30s, retries: 4,"
                + " backoff: 10ms, backoffMax: 1s, blockSize: 4MiB}");
    assertThat(o.credentials()).isEqualTo(AzureCredentials.accountKey("acct", "a2V5"));
    assertThat(o.credentials().toString()).doesNotContain("a2V5");
    assertThat(o.endpoint()).contains(URI.create("http://127.0.0.1:10000/acct"));
    assertThat(o.serviceVersion()).isEqualTo(Optional.of("2025-11-05"));
    assertThat(o.connectTimeout()).isEqualTo(Duration.ofSeconds(2));
    assertThat(o.tryTimeout()).isEqualTo(Duration.ofSeconds(30));
    assertThat(o.maxTries()).isEqualTo(5);
    assertThat(o.retryDelay()).isEqualTo(Duration.ofMillis(10));
    assertThat(o.maxRetryDelay()).isEqualTo(Duration.ofSeconds(1));
    assertThat(o.blockSizeBytes()).isEqualTo(4 << 20);
  }

  @Test
  void parse_whenSasTokenWithoutEndpoint_failsNamingTheEndpoint() {
    assertThat(
            options(
                    "{name: az, type: azure, container: racs, sasToken: sv=x, endpoint:"
                        + " \"https://a.blob.core.windows.net\"}")
                .credentials())
        .isEqualTo(AzureCredentials.sasToken("sv=x"));
    assertThatThrownBy(() -> options("{name: az, type: azure, container: racs, sasToken: sv=x}"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("repository 'az'")
        .hasMessageContaining("endpoint");
  }

  @Test
  void parse_whenNoCredentialsOrTwoKinds_fails() {
    for (String entry :
        new String[] {
          "{name: az, type: azure, container: racs}",
          "{name: az, type: azure, container: racs, sasToken: s, connectionString: c}"
        }) {
      assertThatThrownBy(() -> options(entry))
          .isInstanceOf(ConfigException.class)
          .hasMessageContaining("expected exactly one of: connectionString, sasToken");
    }
    assertThatThrownBy(
            () -> options("{name: az, type: azure, container: Bad_Name, connectionString: c}"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("container: Bad_Name");
    assertThatThrownBy(() -> options("{name: az, type: azure, container: racs, accountName: acct}"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("accountKey");
  }

  @Test
  void create_whenAzureEntry_buildsAzureRepositoryWithoutIo() {
    RepositoryConfig config =
        loader
            .parse(
                "repositories:\n  - {name: az, type: azure, container: racs, accountName: acct,"
                    + " accountKey: a2V5, endpoint: \"http://127.0.0.1:1/acct\"}\n",
                "az.yaml")
            .repository("az")
            .orElseThrow();
    try (Repository repository = RepositoryFactory.create(config)) {
      assertThat(repository).isInstanceOf(AzureRepository.class);
      assertThat(repository.describe())
          .containsEntry("type", "azure")
          .containsEntry("location", "http://127.0.0.1:1/acct/racs/")
          .containsEntry("credentials", "accountKey(acct)");
    }
  }
}
