package io.racs.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.racs.proxy.config.ArrayConfig;
import io.racs.proxy.runtime.ServerConfig;
import io.racs.repos.config.BackendConfig;
import io.racs.repos.config.RepositoryConfig;
import io.racs.repos.config.RepositoryConfigLoader;
import io.racs.repos.config.RepositorySetConfig;
import io.racs.repos.emulator.AzuriteServer;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The Compose clouds demo ({@code docker/compose.clouds.yml}, {@code docker/racs-clouds.yaml},
 * {@code docker/sftp/}) is consistent with itself and with the proxy's real configuration loaders,
 * checked without a Docker engine: a project of its own with exactly the services two MinIO nodes,
 * Azurite, fake-gcs-server, an OpenSSH SFTP server built from Debian, the fs volume's one-shot init
 * and one proxy; the emulators' images pinned at the versions {@code scripts/versions.env}
 * provisions for the tests; a health check on every long-running storage service, each of which the
 * proxy waits for; a racs.yaml that {@link RepositoryConfigLoader}, {@link ArrayConfig} and {@link
 * ServerConfig} accept, whose six repositories are exactly those services on their ports with the
 * types of their APIs, whose secrets all come from the proxy's environment (the MinIO ones equal to
 * MinIO's), whose SFTP key and fs directory lie in volumes the proxy mounts; and ports published on
 * 127.0.0.1 only. (The process proof of the same six kinds is {@code racs demo --clouds}, whose
 * slots racs-bench's {@code CloudRepositoriesIT} runs on the real servers.)
 */
class ComposeCloudsFileIT {
  private static final Path FILE = ComposeFile.dockerDir().resolve("compose.clouds.yml");
  private static final ComposeFile COMPOSE = ComposeFile.load(FILE, Map.of());
  private static final Pattern PINNED_RELEASE =
      Pattern.compile("RELEASE\\.\\d{4}-\\d{2}-\\d{2}T\\d{2}-\\d{2}-\\d{2}Z");
  private static final String CONFIG_TARGET = "/etc/racs/racs.yaml";

  /** Each storage service with the repository type, and port, the proxy reaches it by. */
  private static final Map<String, String> STORAGE =
      new LinkedHashMap<>(
          Map.of(
              "minio-1", "minio",
              "minio-2", "minio",
              "azurite", "azure",
              "fake-gcs", "gcs",
              "sftp", "sftp"));

  private static RepositorySetConfig proxyConfig() throws IOException {
    Map<String, String> env = COMPOSE.environment("proxy");
    return RepositoryConfigLoader.withEnvironment(env::get)
        .parse(
            Files.readString(ComposeFile.dockerDir().resolve("racs-clouds.yaml")),
            "docker/racs-clouds.yaml (environment of service 'proxy')");
  }

  @Test
  void services_areExactlyTheSixRepositoriesKinds_theFsInitAndOneProxy_inAProjectOfTheirOwn() {
    assertThat(COMPOSE.serviceNames())
        .containsExactly("minio-1", "minio-2", "azurite", "fake-gcs", "sftp", "fs-init", "proxy");
    assertThat(COMPOSE.root().path("name").asText())
        .isEqualTo("racs-clouds")
        .isNotEqualTo(ComposeFile.load(Map.of()).root().path("name").asText());
  }

  @Test
  void images_arePinned_emulatorsAtTheProvisionedVersions_sftpBuiltFromDebian() throws Exception {
    for (String minio : List.of("minio-1", "minio-2")) {
      assertThat(COMPOSE.service(minio).path("image").asText())
          .startsWith("minio/minio:")
          .containsPattern(PINNED_RELEASE);
    }
    assertThat(COMPOSE.service("azurite").path("image").asText())
        .isEqualTo("mcr.microsoft.com/azure-storage/azurite:" + Launcher.pinned("AZURITE_VERSION"));
    assertThat(COMPOSE.service("fake-gcs").path("image").asText())
        .isEqualTo(
            "fsouza/fake-gcs-server:" + Launcher.pinned("FAKE_GCS_VERSION").replaceFirst("^v", ""));
    assertThat(COMPOSE.service("sftp").path("build").path("context").asText()).isEqualTo("./sftp");
    assertThat(COMPOSE.service("fs-init").path("image").asText())
        .isEqualTo(COMPOSE.service("sftp").path("image").asText());
    Path sftp = ComposeFile.dockerDir().resolve("sftp");
    assertThat(Files.readString(sftp.resolve("Dockerfile")))
        .contains("FROM debian:bookworm-slim")
        .contains("openssh-server");
    assertThat(Files.readString(sftp.resolve("sshd_config")))
        .contains("PasswordAuthentication no", "Subsystem sftp internal-sftp", "AllowUsers racs");
  }

  @Test
  void storageServices_haveHealthChecks_thatTheProxyWaitsFor() {
    for (String name : STORAGE.keySet()) {
      assertThat(ComposeFile.words(COMPOSE.service(name).path("healthcheck").path("test")))
          .as(name)
          .isNotEmpty()
          .first()
          .isEqualTo("CMD");
      assertThat(COMPOSE.dependsOn("proxy", name)).as(name).isEqualTo("service_healthy");
    }
    assertThat(COMPOSE.dependsOn("proxy", "fs-init")).isEqualTo("service_completed_successfully");
    assertThat(ComposeFile.words(COMPOSE.service("proxy").path("healthcheck").path("test")))
        .containsExactly("CMD", "/opt/racs/healthcheck.sh", "/health/ready");
  }

  @Test
  void racsYaml_parsesWithTheProxyLoaders_andNamesExactlyTheSixRepositories() throws Exception {
    JsonNode proxy = COMPOSE.service("proxy");
    assertThat(COMPOSE.volumeEntries("proxy"))
        .contains("./racs-clouds.yaml:" + CONFIG_TARGET + ":ro");
    assertThat(ComposeFile.words(proxy.path("command")))
        .containsExactly("server", "--config", CONFIG_TARGET);
    RepositorySetConfig file = proxyConfig();
    ArrayConfig array = ArrayConfig.from(file);
    assertThat(array.store().geometry()).hasToString("4x2");
    List<String> names = new ArrayList<>();
    file.repositories().forEach(r -> names.add(r.name()));
    assertThat(array.slots().stream().map(RepositoryConfig::name).toList())
        .containsExactlyElementsOf(names);
    List<String> expected = new ArrayList<>(STORAGE.keySet());
    expected.add("fs");
    assertThat(names).containsExactlyInAnyOrderElementsOf(expected);

    Map<String, String> mounts = COMPOSE.mounts("proxy");
    for (RepositoryConfig repository : file.repositories()) {
      String name = repository.name();
      switch (repository.backend()) {
        case BackendConfig.S3 s3 -> {
          assertThat(STORAGE.get(name)).isEqualTo("minio");
          assertThat(s3.type()).isEqualTo("minio");
          assertThat(s3.options().endpoint()).contains(COMPOSE.minioEndpoint(name));
        }
        case BackendConfig.Azure azure -> {
          assertThat(STORAGE.get(name)).isEqualTo("azure");
          assertThat(azure.options().endpoint())
              .contains(URI.create("http://" + name + ":10000/" + AzuriteServer.ACCOUNT_NAME));
          assertThat(azure.options().serviceVersion()).contains(AzuriteServer.SERVICE_VERSION);
          assertThat(ComposeFile.words(COMPOSE.service(name).path("command")))
              .containsSubsequence("--blobHost", "0.0.0.0", "--blobPort", "10000");
        }
        case BackendConfig.Gcs gcs -> {
          assertThat(STORAGE.get(name)).isEqualTo("gcs");
          assertThat(gcs.options().endpoint()).contains(URI.create("http://" + name + ":4443"));
          assertThat(ComposeFile.words(COMPOSE.service(name).path("command")))
              .containsSubsequence("-scheme", "http", "-port", "4443")
              .containsSubsequence("-backend", "filesystem");
        }
        case BackendConfig.Sftp sftp -> {
          assertThat(STORAGE.get(name)).isEqualTo("sftp");
          assertThat(sftp.options().host()).isEqualTo(name);
          assertThat(sftp.options().port()).isEqualTo(22);
          assertThat(sftp.options().user()).isEqualTo("racs");
          // The key and known_hosts the sftp service makes in its keys volume, mounted read-only.
          Map<String, String> server = COMPOSE.mounts(name);
          assertThat(server).containsEntry("sftp-keys", "/keys");
          assertThat(sftp.options().root()).isEqualTo(server.get("sftp-data"));
          assertThat(COMPOSE.volumeEntries("proxy")).contains("sftp-keys:/etc/racs/sftp:ro");
          assertThat(sftp.options().privateKeyFile())
              .contains(Path.of("/etc/racs/sftp/id_ed25519"));
          assertThat(sftp.options().knownHostsFile())
              .isEqualTo(Path.of("/etc/racs/sftp/known_hosts"));
          assertThat(Files.readString(ComposeFile.dockerDir().resolve("sftp/entrypoint.sh")))
              .contains("echo \"" + name + " $(cat /keys/host_ed25519.pub)\" >/keys/known_hosts")
              .contains("chown 10001 /keys/id_ed25519");
        }
        case BackendConfig.Fs fs -> {
          assertThat(name).isEqualTo("fs");
          // Path.startsWith, not AssertJ's, which resolves the path on this machine.
          assertThat(fs.path().startsWith(Path.of(mounts.get("fs-data"))))
              .as(fs.path().toString())
              .isTrue();
          assertThat(COMPOSE.mounts("fs-init")).containsKey("fs-data");
        }
        default -> throw new AssertionError(name + ": unexpected " + repository.backend());
      }
    }

    ServerConfig server = ServerConfig.from(file);
    Map<String, String> env = COMPOSE.environment("proxy");
    assertThat(server.credentials())
        .containsExactly(Map.entry(env.get("RACS_ACCESS_KEY"), env.get("RACS_SECRET_KEY")));
    assertThat(env.get("RACS_AZURITE_KEY")).isEqualTo(AzuriteServer.ACCOUNT_KEY);
    for (String minio : List.of("minio-1", "minio-2")) {
      assertThat(env.get("RACS_MINIO_ACCESS"))
          .isEqualTo(COMPOSE.environment(minio).get("MINIO_ROOT_USER"));
      assertThat(env.get("RACS_MINIO_SECRET"))
          .isEqualTo(COMPOSE.environment(minio).get("MINIO_ROOT_PASSWORD"));
    }
  }

  @Test
  void ports_onlyTheProxyPublishes_onLoopback_itsListeners() throws Exception {
    ServerConfig server = ServerConfig.from(proxyConfig());
    for (String name : COMPOSE.serviceNames()) {
      JsonNode ports = COMPOSE.service(name).path("ports");
      if (!name.equals("proxy")) {
        assertThat(ports.isMissingNode() || ports.isEmpty()).as(name).isTrue();
        continue;
      }
      List<Integer> targets = new ArrayList<>();
      for (JsonNode port : ports) {
        String[] parts = port.asText().split(":");
        assertThat(parts).as("%s publishes %s with a host address", name, port).hasSize(3);
        assertThat(parts[0]).isEqualTo("127.0.0.1");
        targets.add(Integer.parseInt(parts[2]));
      }
      assertThat(targets)
          .containsExactlyInAnyOrder(
              ServerConfig.address(server.listen(), "listen").getPort(),
              ServerConfig.address(server.adminListen(), "adminListen").getPort());
      assertThat(COMPOSE.environment(name).get("RACS_ADMIN_PORT"))
          .isEqualTo(
              String.valueOf(ServerConfig.address(server.adminListen(), "adminListen").getPort()));
    }
  }
}
