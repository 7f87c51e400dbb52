package io.racs.repos.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.repos.Repository;
import io.racs.repos.sftp.SftpOptions;
import io.racs.repos.sftp.SftpRepository;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Proves the loader reads a {@code type: sftp} entry into its options (defaults, every field,
 * {@code ~/} paths, secrets from the environment that never show in descriptions), refuses an entry
 * without credentials or with a bad port or pool size, and that the factory builds an {@link
 * SftpRepository} from it without I/O (the host does not exist).
 */
class SftpConfigTest {
  private static final String HOME = System.getProperty("user.home");

  private final RepositoryConfigLoader loader =
      RepositoryConfigLoader.withEnvironment(
          Map.of("SFTP_PASSWORD", "pw-from-env", "KEY_PASS", "phrase-from-env")::get);

  private RepositoryConfig config(String entry) {
    return loader
        .parse("repositories:\n  - " + entry + "\n", "sftp.yaml")
        .repository("nas")
        .orElseThrow();
  }

  private SftpOptions options(String entry) {
    BackendConfig backend = config(entry).backend();
    assertThat(backend.type()).isEqualTo("sftp");
    return ((BackendConfig.Sftp) backend).options();
  }

  @Test
  void parse_whenKeyOnly_takesDefaultsAndHomePaths() {
    SftpOptions o =
        options(
            "{name: nas, type: sftp, host: nas.lan, user: racs, path: /srv/racs/,"
                + " privateKeyFile: ~/.ssh/id_ed25519}");
    assertThat(o.host()).isEqualTo("nas.lan");
    assertThat(o.port()).isEqualTo(22);
    assertThat(o.root()).isEqualTo("/srv/racs");
    assertThat(o.privateKeyFile()).contains(Path.of(HOME, ".ssh", "id_ed25519"));
    assertThat(o.knownHostsFile()).isEqualTo(Path.of(HOME, ".ssh", "known_hosts"));
    assertThat(o.password()).isEmpty();
    assertThat(o.trustOnFirstUse()).isFalse();
    assertThat(o.durable()).isTrue();
    assertThat(o.connectTimeout()).isEqualTo(Duration.ofSeconds(10));
    assertThat(o.requestTimeout()).isEqualTo(Duration.ofSeconds(30));
    assertThat(o.sessions()).isEqualTo(1);
    assertThat(o.channels()).isEqualTo(4);
  }

  @Test
  void parse_whenEveryField_readsThemAndHidesSecrets() {
    SftpOptions o =
        options(
            "{name: nas, type: sftp, host: 10.0.0.7, port: 2222, user: racs, path: data,"
                + " password: \"${env:SFTP_PASSWORD}\", privateKeyFile: /keys/id,"
                + " privateKeyPassphrase: \"${env:KEY_PASS}\", knownHostsFile: /etc/kh,"
                + " trustOnFirstUse: yes, connectTimeout: 2s, requestTimeout: 5s, sessions: 2,"
                + " channels: 8, durable: off}");
    assertThat(o.port()).isEqualTo(2222);
    assertThat(o.root()).isEqualTo("data");
    assertThat(o.password()).contains("pw-from-env");
    assertThat(o.privateKeyPassphrase()).isEqualTo(Optional.of("phrase-from-env"));
    assertThat(o.knownHostsFile()).isEqualTo(Path.of("/etc/kh"));
    assertThat(o.trustOnFirstUse()).isTrue();
    assertThat(o.durable()).isFalse();
    assertThat(o.requestTimeout()).isEqualTo(Duration.ofSeconds(5));
    assertThat(o.sessions()).isEqualTo(2);
    assertThat(o.channels()).isEqualTo(8);
    assertThat(o.toString()).doesNotContain("pw-from-env").doesNotContain("phrase-from-env");
  }

  @Test
  void parse_whenNoCredentialsOrBadNumbers_namesTheField() {
    assertThatThrownBy(() -> config("{name: nas, type: sftp, host: h, user: u, path: /p}"))
        .isInstanceOf(ConfigException.class)
        .hasMessage("sftp.yaml: repository 'nas': expected password, privateKeyFile, or both");
    assertThatThrownBy(
            () ->
                config("{name: nas, type: sftp, host: h, user: u, path: /p, password: x, port: 0}"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("field 'port'");
    assertThatThrownBy(
            () ->
                config(
                    "{name: nas, type: sftp, host: h, user: u, path: /p, password: x, sessions: 4,"
                        + " channels: 2}"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("channels: 2 (expected: 4 (sessions) to 1024)");
    assertThatThrownBy(() -> config("{name: nas, type: sftp, user: u, path: /p, password: x}"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("field 'host'");
  }

  @Test
  void create_whenHostUnreachable_buildsWithoutIo() {
    try (Repository r =
        RepositoryFactory.create(
            config(
                "{name: nas, type: sftp, host: nas.invalid, user: u, path: /p, password:"
                    + " \"${env:SFTP_PASSWORD}\"}"))) {
      assertThat(r).isInstanceOf(SftpRepository.class);
      assertThat(r.describe())
          .containsEntry("type", "sftp")
          .containsEntry("location", "sftp://u@nas.invalid:22/p")
          .containsEntry("replace", "not yet connected");
      assertThat(r.describe().toString()).doesNotContain("pw-from-env");
    }
  }
}
