package io.racs.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.racs.proxy.config.ArrayConfig;
import io.racs.proxy.runtime.ServerConfig;
import io.racs.repos.config.BackendConfig;
import io.racs.repos.config.RepositoryConfig;
import io.racs.repos.config.RepositoryConfigLoader;
import io.racs.repos.config.RepositorySetConfig;
import io.racs.repos.s3.S3Credentials;
import io.racs.repos.s3.S3Options;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Compose demo ({@code docker/compose.yml}, {@code docker/racs.yaml}, {@code
 * docker/Dockerfile}, {@code docker/run-bench.sh}) is consistent with itself and with the proxy's
 * real configuration loaders, checked without a Docker engine: six pinned MinIO services with their
 * own volumes and health checks, their buckets created before the proxy starts, a racs.yaml that
 * {@link RepositoryConfigLoader}, {@link ArrayConfig} and {@link ServerConfig} accept and whose
 * repositories are exactly those six services, every secret wired from the proxy's environment and
 * equal to what MinIO and the bench use (also when the user overrides it), ports published on
 * 127.0.0.1 only, and a bench that waits for a ready proxy and writes its block tests onto the
 * MinIO volumes.
 */
class ComposeFileIT {
  private static final Pattern ENV_REFERENCE =
      Pattern.compile("\\$\\{env:([A-Za-z_][A-Za-z0-9_]*)}");
  private static final Pattern PINNED_RELEASE =
      Pattern.compile("RELEASE\\.\\d{4}-\\d{2}-\\d{2}T\\d{2}-\\d{2}-\\d{2}Z");
  private static final String CONFIG_TARGET = "/etc/racs/racs.yaml";

  private static final ComposeFile COMPOSE = ComposeFile.load(Map.of());

  @TempDir Path tmp;

  private static List<String> minioServices(ComposeFile compose) {
    List<String> names = new ArrayList<>();
    for (String name : compose.serviceNames()) {
      if (compose.service(name).path("image").asText().startsWith("minio/minio:")) {
        names.add(name);
      }
    }
    return names;
  }

  private static String racsYaml() throws IOException {
    return Files.readString(ComposeFile.dockerDir().resolve("racs.yaml"));
  }

  /** racs.yaml as the proxy container loads it: ${env:...} from the proxy service's environment. */
  private static RepositorySetConfig proxyConfig(ComposeFile compose) throws IOException {
    Map<String, String> env = compose.environment("proxy");
    return RepositoryConfigLoader.withEnvironment(env::get)
        .parse(racsYaml(), "docker/racs.yaml (environment of service 'proxy')");
  }

  /** The server section as the proxy container reads it, from the same loaded file. */
  private static ServerConfig serverConfig(ComposeFile compose) throws IOException {
    return ServerConfig.from(proxyConfig(compose));
  }

  private static int port(String hostPort) {
    return ServerConfig.address(hostPort, "address").getPort();
  }

  @Test
  void minioServices_areSixPinnedReleasesWithOwnVolumesAndHealthChecks() {
    List<String> minio = minioServices(COMPOSE);
    assertThat(minio).hasSize(6);
    Set<String> images = new TreeSet<>();
    Set<String> volumes = new LinkedHashSet<>();
    Set<String> declared = new TreeSet<>();
    COMPOSE.root().path("volumes").fieldNames().forEachRemaining(declared::add);
    for (String name : minio) {
      JsonNode service = COMPOSE.service(name);
      images.add(service.path("image").asText());
      Map<String, String> mounts = COMPOSE.mounts(name);
      assertThat(mounts).as("%s volumes", name).hasSize(1).containsValue("/data");
      String volume = mounts.keySet().iterator().next();
      assertThat(declared).as("named volume of %s", name).contains(volume);
      assertThat(volumes.add(volume)).as("%s has a volume of its own", name).isTrue();
      assertThat(ComposeFile.words(service.path("command"))).as(name).contains("server", "/data");

      List<String> test = ComposeFile.words(service.path("healthcheck").path("test"));
      assertThat(test).as("%s health check", name).isNotEmpty();
      assertThat(test.get(0)).isIn("CMD", "CMD-SHELL");
      assertThat(String.join(" ", test)).containsAnyOf("mc ready local", "/minio/health/live");
      assertThat(service.path("healthcheck").path("retries").asInt()).isPositive();

      Map<String, String> env = COMPOSE.environment(name);
      // MinIO refuses to start with a root user under 3 or a password under 8 characters.
      assertThat(env.get("MINIO_ROOT_USER")).as("%s root user", name).hasSizeGreaterThan(2);
      assertThat(env.get("MINIO_ROOT_PASSWORD")).as("%s root password", name).hasSizeGreaterThan(7);
      assertThat(service.has("ports")).as("%s is reachable only inside Compose", name).isFalse();
    }
    assertThat(images).hasSize(1);
    String tag = images.iterator().next().substring("minio/minio:".length());
    assertThat(tag).matches(PINNED_RELEASE);
  }

  @Test
  void init_createsTheRepositoryBucketOnEveryNode_beforeTheProxyStarts() throws Exception {
    List<String> minio = minioServices(COMPOSE);
    assertThat(COMPOSE.service("minio-init").path("image").asText())
        .startsWith("minio/mc:")
        .satisfies(image -> assertThat(image.substring(9)).matches(PINNED_RELEASE));
    for (String node : minio) {
      assertThat(COMPOSE.dependsOn("minio-init", node)).as(node).isEqualTo("service_healthy");
      assertThat(COMPOSE.dependsOn("proxy", node)).as(node).isEqualTo("service_healthy");
    }
    assertThat(COMPOSE.dependsOn("proxy", "minio-init"))
        .isEqualTo("service_completed_successfully");

    Map<String, String> env = COMPOSE.environment("minio-init");
    Set<String> buckets = new TreeSet<>();
    for (RepositoryConfig repository : proxyConfig(COMPOSE).repositories()) {
      buckets.add(((BackendConfig.S3) repository.backend()).options().bucket());
    }
    assertThat(buckets).containsExactly(env.get("RACS_BUCKET"));
    assertThat(List.of(env.get("MINIO_NODES").split(" "))).isEqualTo(minio);
    assertThat(env.get("MINIO_ROOT_USER"))
        .isEqualTo(COMPOSE.environment(minio.get(0)).get("MINIO_ROOT_USER"));
    assertThat(env.get("MINIO_ROOT_PASSWORD"))
        .isEqualTo(COMPOSE.environment(minio.get(0)).get("MINIO_ROOT_PASSWORD"));

    // Run the init script as its container would, with an mc that records what it is asked.
    List<String> entrypoint = ComposeFile.words(COMPOSE.service("minio-init").path("entrypoint"));
    List<String> command = ComposeFile.words(COMPOSE.service("minio-init").path("command"));
    assertThat(entrypoint).containsExactly("/bin/sh", "-ec");
    assertThat(command).hasSize(1);
    Path bin = Files.createDirectories(tmp.resolve("bin"));
    Path calls = tmp.resolve("mc-calls");
    Path mc = bin.resolve("mc");
    Files.writeString(mc, "#!/bin/sh\necho \"$*\" >> '" + calls + "'\n");
    assertThat(mc.toFile().setExecutable(true)).isTrue();
    ProcessBuilder pb = new ProcessBuilder("/bin/sh", "-ec", command.get(0));
    pb.environment().putAll(env);
    pb.environment().put("PATH", bin + ":" + System.getenv("PATH"));
    pb.redirectErrorStream(true).redirectOutput(tmp.resolve("init.log").toFile());
    Process process = pb.start();
    assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as(Files.readString(tmp.resolve("init.log"))).isZero();
    List<String> expected = new ArrayList<>();
    for (String node : minio) {
      expected.add(
          "alias set "
              + node
              + " "
              + COMPOSE.minioEndpoint(node)
              + " "
              + env.get("MINIO_ROOT_USER")
              + " "
              + env.get("MINIO_ROOT_PASSWORD"));
      expected.add("mb --ignore-existing " + node + "/" + env.get("RACS_BUCKET"));
    }
    assertThat(Files.readAllLines(calls)).isEqualTo(expected);
  }

  @Test
  void racsYaml_isMountedAtTheConfigPath_andParsesWithTheProxyLoaders() throws Exception {
    JsonNode proxy = COMPOSE.service("proxy");
    assertThat(COMPOSE.volumeEntries("proxy")).contains("./racs.yaml:" + CONFIG_TARGET + ":ro");
    assertThat(ComposeFile.words(proxy.path("command")))
        .containsExactly("server", "--config", CONFIG_TARGET);
    assertThat(proxy.path("build").path("context").asText()).isEqualTo("..");
    assertThat(proxy.path("build").path("dockerfile").asText()).isEqualTo("docker/Dockerfile");

    RepositorySetConfig file = proxyConfig(COMPOSE);
    ArrayConfig array = ArrayConfig.from(file);
    assertThat(array.store().geometry()).hasToString("4x2");
    assertThat(array.slots()).hasSize(6);

    ServerConfig server = serverConfig(COMPOSE);
    Map<String, String> env = COMPOSE.environment("proxy");
    // A non-loopback listen address is accepted because the credentials are configured.
    assertThat(server.listen()).isEqualTo("0.0.0.0:9000");
    assertThat(server.adminListen()).isEqualTo("0.0.0.0:9001");
    assertThat(server.credentials())
        .containsExactly(Map.entry(env.get("RACS_ACCESS_KEY"), env.get("RACS_SECRET_KEY")));
  }

  @Test
  void repositories_areExactlyTheSixMinioServices_byServiceNameAndPort() throws Exception {
    ArrayConfig array = ArrayConfig.from(proxyConfig(COMPOSE));
    List<String> minio = minioServices(COMPOSE);
    Set<String> hosts = new TreeSet<>();
    for (RepositoryConfig slot : array.slots()) {
      assertThat(slot.backend()).isInstanceOf(BackendConfig.S3.class);
      BackendConfig.S3 s3 = (BackendConfig.S3) slot.backend();
      assertThat(s3.type()).isEqualTo("minio");
      S3Options options = s3.options();
      assertThat(options.pathStyle()).isTrue();
      URI endpoint = options.endpoint().orElseThrow();
      assertThat(minio)
          .as("endpoint %s names a MinIO service", endpoint)
          .contains(endpoint.getHost());
      assertThat(endpoint).isEqualTo(COMPOSE.minioEndpoint(endpoint.getHost()));
      assertThat(slot.name()).isEqualTo(endpoint.getHost());
      hosts.add(endpoint.getHost());
    }
    assertThat(hosts).containsExactlyInAnyOrderElementsOf(minio);
  }

  @Test
  void credentials_everyEnvReferenceIsProvided_andMatchesMinio_alsoWhenOverridden()
      throws Exception {
    Matcher m = ENV_REFERENCE.matcher(racsYaml());
    Set<String> referenced = new TreeSet<>();
    while (m.find()) {
      referenced.add(m.group(1));
    }
    assertThat(referenced).isNotEmpty();
    // The defaults, and what a user's .env sets instead: both sides must follow.
    Map<String, String> overrides = new HashMap<>();
    overrides.put("MINIO_ROOT_USER", "operator");
    overrides.put("MINIO_ROOT_PASSWORD", "operator-password-42");
    overrides.put("RACS_ACCESS_KEY", "app");
    overrides.put("RACS_SECRET_KEY", "app-secret-0123456789");
    for (ComposeFile compose : List.of(COMPOSE, ComposeFile.load(overrides))) {
      Map<String, String> proxyEnv = compose.environment("proxy");
      for (String name : referenced) {
        assertThat(proxyEnv.get(name)).as("proxy environment %s", name).isNotBlank();
      }
      for (RepositoryConfig repository : proxyConfig(compose).repositories()) {
        S3Options options = ((BackendConfig.S3) repository.backend()).options();
        Map<String, String> minioEnv =
            compose.environment(options.endpoint().orElseThrow().getHost());
        assertThat(options.credentials())
            .as(repository.name())
            .isEqualTo(
                new S3Credentials.Static(
                    minioEnv.get("MINIO_ROOT_USER"), minioEnv.get("MINIO_ROOT_PASSWORD")));
      }
      ServerConfig server = serverConfig(compose);
      Map<String, String> bench = compose.environment("bench");
      assertThat(server.credentials())
          .containsExactly(Map.entry(bench.get("RACS_ACCESS_KEY"), bench.get("RACS_SECRET_KEY")));
      Map<String, String> minio1 = compose.environment("minio-1");
      assertThat(bench.get("MINIO_ACCESS_KEY")).isEqualTo(minio1.get("MINIO_ROOT_USER"));
      assertThat(bench.get("MINIO_SECRET_KEY")).isEqualTo(minio1.get("MINIO_ROOT_PASSWORD"));
    }
    assertThat(ComposeFile.load(overrides).environment("proxy"))
        .containsEntry("RACS_MINIO_SECRET", "operator-password-42")
        .containsEntry("RACS_SECRET_KEY", "app-secret-0123456789");
  }

  @Test
  void ports_arePublishedOnLoopbackOnly_andMatchTheProxyListeners() throws Exception {
    Set<Integer> published = new TreeSet<>();
    for (String name : COMPOSE.serviceNames()) {
      for (JsonNode port : COMPOSE.service(name).path("ports")) {
        String hostIp;
        int target;
        if (port.isObject()) {
          hostIp = port.path("host_ip").asText();
          target = port.path("target").asInt();
        } else {
          String[] parts = port.asText().split(":");
          assertThat(parts).as("%s publishes %s with a host address", name, port).hasSize(3);
          hostIp = parts[0];
          target = Integer.parseInt(parts[2].replace("/tcp", ""));
        }
        assertThat(hostIp).as("%s publishes %s", name, port).isEqualTo("127.0.0.1");
        if (name.equals("proxy")) {
          published.add(target);
        }
      }
    }
    ServerConfig server = serverConfig(COMPOSE);
    assertThat(published).containsExactly(port(server.listen()), port(server.adminListen()));
    // healthcheck.sh asks the admin port named by RACS_ADMIN_PORT.
    assertThat(COMPOSE.environment("proxy").get("RACS_ADMIN_PORT"))
        .isEqualTo(String.valueOf(port(server.adminListen())));
  }

  @Test
  void bench_waitsForAReadyProxy() throws Exception {
    assertThat(COMPOSE.dependsOn("bench", "proxy")).isEqualTo("service_healthy");
    List<String> test =
        ComposeFile.words(COMPOSE.service("proxy").path("healthcheck").path("test"));
    assertThat(test).containsExactly("CMD", "/opt/racs/healthcheck.sh", "/health/ready");
    String dockerfile = Files.readString(ComposeFile.dockerDir().resolve("Dockerfile"));
    assertThat(dockerfile).contains("docker/healthcheck.sh /opt/racs/");
    assertThat(ComposeFile.dockerDir().resolve("healthcheck.sh")).isExecutable();
    // The bench reaches the proxy by service name on its S3 port.
    URI endpoint = URI.create(COMPOSE.environment("bench").get("RACS_ENDPOINT"));
    assertThat(COMPOSE.serviceNames()).contains(endpoint.getHost());
    assertThat(endpoint.getHost()).isEqualTo("proxy");
    assertThat(endpoint.getPort()).isEqualTo(port(serverConfig(COMPOSE).listen()));
  }

  @Test
  void bench_mountsEveryMinioVolumeWhereItsBlockTestsWrite() throws Exception {
    Map<String, String> env = COMPOSE.environment("bench");
    Map<String, String> mounts = COMPOSE.mounts("bench");
    List<String> minio = minioServices(COMPOSE);
    assertThat(List.of(env.get("MINIO_NODES").split(" "))).isEqualTo(minio);
    for (String node : minio) {
      String volume = COMPOSE.mounts(node).keySet().iterator().next();
      assertThat(mounts).containsEntry(volume, env.get("BENCH_VOLUMES") + "/" + node);
    }
    assertThat(mounts).containsEntry("./out", env.get("BENCH_OUT"));
    List<String> entrypoint = ComposeFile.words(COMPOSE.service("bench").path("entrypoint"));
    assertThat(entrypoint).hasSize(1);
    assertThat(COMPOSE.volumeEntries("bench"))
        .contains("./run-bench.sh:" + entrypoint.get(0) + ":ro");
    Path script = ComposeFile.dockerDir().resolve("run-bench.sh");
    assertThat(script).isExecutable();

    // Run the script with the bench's environment, the mounts as local directories and `echo` as
    // the bench: every invocation it makes is then on its output.
    Path volumes = tmp.resolve("volumes");
    for (String node : minio) {
      Files.createDirectories(volumes.resolve(node));
    }
    Path out = tmp.resolve("out");
    ProcessBuilder pb = new ProcessBuilder("bash", script.toString());
    pb.environment().putAll(env);
    pb.environment().put("BENCH_VOLUMES", volumes.toString());
    pb.environment().put("BENCH_OUT", out.toString());
    pb.environment().put("RACS_BENCH_CMD", "echo");
    Path log = tmp.resolve("run-bench.log");
    pb.redirectErrorStream(true).redirectOutput(log.toFile());
    Process process = pb.start();
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    String output = Files.readString(log, StandardCharsets.UTF_8);
    assertThat(process.exitValue()).as(output).isZero();

    List<String> calls =
        output.lines().filter(l -> l.startsWith("object ") || l.startsWith("block ")).toList();
    List<String> expected = new ArrayList<>();
    expected.add(
        objectCall(env.get("RACS_ENDPOINT"), env.get("RACS_ACCESS_KEY"), env.get("RACS_SECRET_KEY"))
            + " --out "
            + out.resolve("object/proxy"));
    for (String node : minio) {
      expected.add(
          objectCall(
                  COMPOSE.minioEndpoint(node).toString(),
                  env.get("MINIO_ACCESS_KEY"),
                  env.get("MINIO_SECRET_KEY"))
              + " --out "
              + out.resolve("object/" + node));
    }
    for (String node : minio) {
      expected.add(
          "block dd --bs 8M --count 16 --direct --file "
              + volumes.resolve(node).resolve(".racs-bench/dd.tmp"));
    }
    assertThat(calls).isEqualTo(expected);
    assertThat(Files.readString(out.resolve("runs.txt"))).doesNotContain("exit=1");
    for (String node : minio) {
      assertThat(volumes.resolve(node)).as("cleaned up after the block run").isEmptyDirectory();
    }
  }

  private static String objectCall(String endpoint, String access, String secret) {
    return "object --endpoint "
        + endpoint
        + " --access-key "
        + access
        + " --secret-key "
        + secret
        + " --sizes 1MiB --clients 1,8 --duration 10s";
  }

  @Test
  void dockerfile_buildsBothJarsIntoANonRootJre21Image() throws Exception {
    Path docker = ComposeFile.dockerDir();
    List<String> lines = Files.readAllLines(docker.resolve("Dockerfile"));
    List<String> from = lines.stream().filter(l -> l.startsWith("FROM ")).toList();
    assertThat(from).hasSize(2);
    assertThat(from.get(0)).startsWith("FROM eclipse-temurin:21-jdk").endsWith(" AS build");
    assertThat(from.get(1)).startsWith("FROM eclipse-temurin:21-jre");
    String text = String.join("\n", lines);
    assertThat(text)
        .contains("./mvnw -B -ntp package -DskipTests")
        .contains("racs-proxy/target/racs-proxy.jar")
        .contains("racs-bench/target/racs-bench.jar")
        .contains("HEALTHCHECK")
        .contains("/health/live")
        .contains("ENTRYPOINT [\"/opt/racs/entrypoint.sh\"]");
    List<String> users = lines.stream().filter(l -> l.startsWith("USER ")).toList();
    assertThat(users).hasSize(1);
    assertThat(users.get(0)).doesNotContain("root").doesNotMatch("USER 0(:.*)?");
    // Every file the image copies from the build context (the repository root) exists.
    Path context = docker.resolve("..").normalize();
    for (String line : lines) {
      if (line.startsWith("COPY ") && !line.contains("--from=")) {
        String[] words = line.replaceAll("--chmod=\\S+ ", "").split("\\s+");
        for (int i = 1; i < words.length - 1; i++) {
          assertThat(context.resolve(words[i])).as(line).exists();
          if (words[i].endsWith(".sh")) {
            assertThat(context.resolve(words[i])).as(line).isExecutable();
          }
        }
      }
    }
    // Every file the Compose file binds in exists beside it (./out is made by Docker).
    for (String name : COMPOSE.serviceNames()) {
      for (String source : COMPOSE.mounts(name).keySet()) {
        if (source.startsWith("./") && !source.equals("./out")) {
          assertThat(docker.resolve(source)).as("%s mounts %s", name, source).isRegularFile();
        }
      }
    }
  }
}
