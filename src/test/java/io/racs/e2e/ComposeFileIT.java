package io.racs.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.racs.proxy.config.ArrayConfig;
import io.racs.proxy.runtime.CoordinationConfig;
import io.racs.proxy.runtime.ServerConfig;
import io.racs.repos.config.BackendConfig;
import io.racs.repos.config.RepositoryConfig;
import io.racs.repos.config.RepositoryConfigLoader;
import io.racs.repos.config.RepositorySetConfig;
import io.racs.repos.s3.S3Credentials;
import io.racs.repos.s3.S3Options;
import io.racs.testkit.TestTools;
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
 * docker/haproxy.cfg}, {@code docker/Dockerfile}, {@code docker/run-bench.sh}) is consistent with
 * itself and with the proxy's real configuration loaders, checked without a Docker engine: six
 * pinned MinIO services with their own volumes and health checks, their buckets created before the
 * proxies start, a pinned ZooKeeper service with a health check that every proxy waits for and
 * names in its coordination section (each proxy with an id of its own), three proxies whose
 * racs.yaml {@link RepositoryConfigLoader}, {@link ArrayConfig}, {@link ServerConfig} and {@link
 * CoordinationConfig} accept and whose repositories are exactly those six services, a pinned
 * HAProxy in front whose haproxy.cfg sends round robin to exactly those three proxies on their S3
 * port and checks each one's /health/ready, every secret wired from the proxies' environment and
 * equal to what MinIO and the bench use (also when the user overrides it), ports published on
 * 127.0.0.1 only, and a bench that waits for a healthy balancer and writes its block tests onto the
 * MinIO volumes.
 */
class ComposeFileIT {
  private static final Pattern ENV_REFERENCE =
      Pattern.compile("\\$\\{env:([A-Za-z_][A-Za-z0-9_]*)}");
  private static final Pattern PINNED_RELEASE =
      Pattern.compile("RELEASE\\.\\d{4}-\\d{2}-\\d{2}T\\d{2}-\\d{2}-\\d{2}Z");
  private static final String CONFIG_TARGET = "/etc/racs/racs.yaml";
  private static final String HAPROXY_TARGET = "/usr/local/etc/haproxy/haproxy.cfg";
  private static final Pattern PINNED_VERSION = Pattern.compile("\\d+\\.\\d+\\.\\d+");
  private static final List<String> PROXIES = List.of("proxy-1", "proxy-2", "proxy-3");

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

  /** The services that run the RACS proxy: the image's server command. */
  private static List<String> proxyServices(ComposeFile compose) {
    List<String> names = new ArrayList<>();
    for (String name : compose.serviceNames()) {
      JsonNode service = compose.service(name);
      if (service.path("image").asText().equals("racs:dev")
          && ComposeFile.words(service.path("command")).contains("server")) {
        names.add(name);
      }
    }
    return names;
  }

  /** racs.yaml as a proxy container loads it: ${env:...} from that service's environment. */
  private static RepositorySetConfig proxyConfig(ComposeFile compose, String proxy)
      throws IOException {
    Map<String, String> env = compose.environment(proxy);
    return RepositoryConfigLoader.withEnvironment(env::get)
        .parse(racsYaml(), "docker/racs.yaml (environment of service '" + proxy + "')");
  }

  /** The server section as a proxy container reads it, from the same loaded file. */
  private static ServerConfig serverConfig(ComposeFile compose, String proxy) throws IOException {
    return ServerConfig.from(proxyConfig(compose, proxy));
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
      for (String proxy : PROXIES) {
        assertThat(COMPOSE.dependsOn(proxy, node))
            .as(proxy + " on " + node)
            .isEqualTo("service_healthy");
      }
    }
    for (String proxy : PROXIES) {
      assertThat(COMPOSE.dependsOn(proxy, "minio-init"))
          .as(proxy)
          .isEqualTo("service_completed_successfully");
    }

    Map<String, String> env = COMPOSE.environment("minio-init");
    Set<String> buckets = new TreeSet<>();
    for (RepositoryConfig repository : proxyConfig(COMPOSE, "proxy-1").repositories()) {
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
    assertThat(proxyServices(COMPOSE)).isEqualTo(PROXIES);
    for (String name : PROXIES) {
      JsonNode proxy = COMPOSE.service(name);
      assertThat(COMPOSE.volumeEntries(name)).contains("./racs.yaml:" + CONFIG_TARGET + ":ro");
      assertThat(ComposeFile.words(proxy.path("command")))
          .containsExactly("server", "--config", CONFIG_TARGET);
      assertThat(proxy.path("build").path("context").asText()).isEqualTo("..");
      assertThat(proxy.path("build").path("dockerfile").asText()).isEqualTo("docker/Dockerfile");

      RepositorySetConfig file = proxyConfig(COMPOSE, name);
      ArrayConfig array = ArrayConfig.from(file);
      assertThat(array.store().geometry()).hasToString("4x2");
      assertThat(array.slots()).hasSize(6);

      ServerConfig server = serverConfig(COMPOSE, name);
      Map<String, String> env = COMPOSE.environment(name);
      // A non-loopback listen address is accepted because the credentials are configured.
      assertThat(server.listen()).isEqualTo("0.0.0.0:9000");
      assertThat(server.adminListen()).isEqualTo("0.0.0.0:9001");
      assertThat(server.credentials())
          .containsExactly(Map.entry(env.get("RACS_ACCESS_KEY"), env.get("RACS_SECRET_KEY")));
    }
  }

  @Test
  void zookeeper_isAPinnedImageWithHealthCheck_thatEveryProxyWaitsForAndNames_withOwnIds()
      throws Exception {
    JsonNode zookeeper = COMPOSE.service("zookeeper");
    String image = zookeeper.path("image").asText();
    assertThat(image).startsWith("zookeeper:");
    assertThat(image.substring("zookeeper:".length())).matches(PINNED_VERSION);
    List<String> test = ComposeFile.words(zookeeper.path("healthcheck").path("test"));
    assertThat(test).containsExactly("CMD", "zkServer.sh", "status");
    // zkServer.sh status asks the server with the four-letter word srvr, which must be allowed.
    assertThat(COMPOSE.environment("zookeeper").get("ZOO_4LW_COMMANDS_WHITELIST").split(","))
        .contains("srvr");
    assertThat(zookeeper.path("healthcheck").path("retries").asInt()).isPositive();
    assertThat(zookeeper.has("ports")).as("ZooKeeper is reachable only inside Compose").isFalse();
    Set<String> declared = new TreeSet<>();
    COMPOSE.root().path("volumes").fieldNames().forEachRemaining(declared::add);
    assertThat(COMPOSE.mounts("zookeeper")).containsValues("/data", "/datalog");
    assertThat(declared).containsAll(COMPOSE.mounts("zookeeper").keySet());

    Set<String> ids = new TreeSet<>();
    Set<String> namespaces = new TreeSet<>();
    for (String proxy : PROXIES) {
      assertThat(COMPOSE.dependsOn(proxy, "zookeeper")).as(proxy).isEqualTo("service_healthy");
      CoordinationConfig coordination =
          CoordinationConfig.from(proxyConfig(COMPOSE, proxy)).orElseThrow();
      for (String member : coordination.zookeeper().split(",")) {
        URI address = URI.create("zk://" + member.trim());
        assertThat(address.getHost()).as(proxy).isEqualTo("zookeeper");
        // The official image's client port, unless ZOO_PORT moves it.
        assertThat(address.getPort())
            .as(proxy)
            .isEqualTo(
                Integer.parseInt(
                    COMPOSE.environment("zookeeper").getOrDefault("ZOO_PORT", "2181")));
      }
      assertThat(coordination.id()).as(proxy).isEqualTo(proxy);
      // Every proxy of an array keeps the version cache, or none does (docs/coordination.md).
      assertThat(coordination.versionCache()).as(proxy).isTrue();
      ids.add(coordination.id());
      namespaces.add(coordination.namespace());
    }
    assertThat(ids).hasSize(PROXIES.size());
    assertThat(namespaces).as("one array, one namespace").hasSize(1);
  }

  @Test
  void lb_isAPinnedHaproxy_roundRobinOverExactlyTheThreeProxies_checkingReadiness()
      throws Exception {
    JsonNode lb = COMPOSE.service("lb");
    String image = lb.path("image").asText();
    assertThat(image).startsWith("haproxy:");
    assertThat(image.substring("haproxy:".length())).matches(PINNED_VERSION);
    assertThat(COMPOSE.volumeEntries("lb")).contains("./haproxy.cfg:" + HAPROXY_TARGET + ":ro");
    for (String proxy : PROXIES) {
      assertThat(COMPOSE.dependsOn("lb", proxy)).as(proxy).isEqualTo("service_healthy");
    }

    HaproxyConfig cfg = HaproxyConfig.load();
    List<String> backend = cfg.section("backend racs");
    assertThat(backend)
        .contains("balance roundrobin", "option httpchk GET /health/ready")
        .contains("http-check expect status 200");
    assertThat(backend).anySatisfy(line -> assertThat(line).startsWith("default-server check "));
    assertThat(cfg.section("frontend s3")).contains("default_backend racs");
    List<HaproxyConfig.Server> servers = cfg.servers("racs");
    assertThat(servers).extracting(HaproxyConfig.Server::name).isEqualTo(PROXIES);
    for (HaproxyConfig.Server server : servers) {
      ServerConfig config = serverConfig(COMPOSE, server.host());
      assertThat(PROXIES)
          .as("server %s names a proxy service", server.name())
          .contains(server.host());
      assertThat(server.port()).as(server.name()).isEqualTo(port(config.listen()));
      assertThat(server.checkPort()).as(server.name()).isEqualTo(port(config.adminListen()));
      assertThat(COMPOSE.environment(server.host()).get("RACS_PROXY_ID")).isEqualTo(server.name());
    }

    // Healthy while a proxy is: the proxies' healthcheck.sh, on HAProxy's monitor URI.
    List<String> health = cfg.section("frontend health");
    assertThat(health).contains("monitor fail if { nbsrv(racs) lt 1 }");
    String uri =
        health.stream()
            .filter(l -> l.startsWith("monitor-uri "))
            .findFirst()
            .orElseThrow()
            .substring("monitor-uri ".length());
    List<String> test = ComposeFile.words(lb.path("healthcheck").path("test"));
    assertThat(COMPOSE.mounts("lb")).containsEntry("./healthcheck.sh", test.get(1));
    assertThat(test).containsExactly("CMD", test.get(1), uri);
    assertThat(COMPOSE.environment("lb").get("RACS_ADMIN_PORT"))
        .isEqualTo(String.valueOf(cfg.bindPort("health")));
  }

  @Test
  void haproxyCfg_passesHaproxysOwnCheck_warningOnlyOfTheServiceNamesResolvedInCompose()
      throws Exception {
    Path log = tmp.resolve("haproxy-check.log");
    Process check =
        new ProcessBuilder(
                TestTools.haproxy().toString(),
                "-c",
                "-f",
                ComposeFile.dockerDir().resolve("haproxy.cfg").toString())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    assertThat(check.waitFor(30, TimeUnit.SECONDS)).isTrue();
    String output = Files.readString(log);
    assertThat(check.exitValue()).as(output).isZero();
    // Outside Compose the proxies' service names do not resolve; nothing else may be warned of.
    List<String> warnings =
        output.lines().filter(l -> l.contains("[WARNING]") || l.contains("[ALERT]")).toList();
    for (String warning : warnings) {
      assertThat(warning).as(output).containsPattern("could not resolve address 'proxy-[123]'");
    }
  }

  @Test
  void repositories_areExactlyTheSixMinioServices_byServiceNameAndPort() throws Exception {
    ArrayConfig array = ArrayConfig.from(proxyConfig(COMPOSE, "proxy-1"));
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
      for (String proxy : PROXIES) {
        Map<String, String> proxyEnv = compose.environment(proxy);
        for (String name : referenced) {
          assertThat(proxyEnv.get(name)).as("%s environment %s", proxy, name).isNotBlank();
        }
        assertProxyCredentials(compose, proxy);
      }
      Map<String, String> minio1 = compose.environment("minio-1");
      Map<String, String> bench = compose.environment("bench");
      assertThat(bench.get("MINIO_ACCESS_KEY")).isEqualTo(minio1.get("MINIO_ROOT_USER"));
      assertThat(bench.get("MINIO_SECRET_KEY")).isEqualTo(minio1.get("MINIO_ROOT_PASSWORD"));
    }
    for (String proxy : PROXIES) {
      assertThat(ComposeFile.load(overrides).environment(proxy))
          .containsEntry("RACS_MINIO_SECRET", "operator-password-42")
          .containsEntry("RACS_SECRET_KEY", "app-secret-0123456789");
    }
  }

  /** {@code proxy} signs into MinIO as MinIO's root user and accepts the bench's credentials. */
  private static void assertProxyCredentials(ComposeFile compose, String proxy) throws IOException {
    for (RepositoryConfig repository : proxyConfig(compose, proxy).repositories()) {
      S3Options options = ((BackendConfig.S3) repository.backend()).options();
      Map<String, String> minioEnv =
          compose.environment(options.endpoint().orElseThrow().getHost());
      assertThat(options.credentials())
          .as(proxy + " " + repository.name())
          .isEqualTo(
              new S3Credentials.Static(
                  minioEnv.get("MINIO_ROOT_USER"), minioEnv.get("MINIO_ROOT_PASSWORD")));
    }
    ServerConfig server = serverConfig(compose, proxy);
    Map<String, String> bench = compose.environment("bench");
    assertThat(server.credentials())
        .as(proxy)
        .containsExactly(Map.entry(bench.get("RACS_ACCESS_KEY"), bench.get("RACS_SECRET_KEY")));
  }

  @Test
  void ports_arePublishedOnLoopbackOnly_andMatchTheListeners() throws Exception {
    Map<String, Set<Integer>> published = new HashMap<>();
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
        published.computeIfAbsent(name, n -> new TreeSet<>()).add(target);
      }
    }
    // S3 only through the balancer; each proxy's health and metrics of its own.
    assertThat(published.keySet()).containsExactlyInAnyOrder("lb", "proxy-1", "proxy-2", "proxy-3");
    assertThat(published.get("lb")).containsExactly(HaproxyConfig.load().bindPort("s3"));
    for (String proxy : PROXIES) {
      ServerConfig server = serverConfig(COMPOSE, proxy);
      assertThat(published.get(proxy)).as(proxy).containsExactly(port(server.adminListen()));
      // healthcheck.sh asks the admin port named by RACS_ADMIN_PORT.
      assertThat(COMPOSE.environment(proxy).get("RACS_ADMIN_PORT"))
          .isEqualTo(String.valueOf(port(server.adminListen())));
    }
  }

  @Test
  void bench_waitsForAHealthyBalancer_overReadyProxies() throws Exception {
    assertThat(COMPOSE.dependsOn("bench", "lb")).isEqualTo("service_healthy");
    for (String proxy : PROXIES) {
      List<String> test =
          ComposeFile.words(COMPOSE.service(proxy).path("healthcheck").path("test"));
      assertThat(test)
          .as(proxy)
          .containsExactly("CMD", "/opt/racs/healthcheck.sh", "/health/ready");
    }
    String dockerfile = Files.readString(ComposeFile.dockerDir().resolve("Dockerfile"));
    assertThat(dockerfile).contains("docker/healthcheck.sh /opt/racs/");
    assertThat(ComposeFile.dockerDir().resolve("healthcheck.sh")).isExecutable();
    // The bench reaches the balancer by service name on its S3 port.
    URI endpoint = URI.create(COMPOSE.environment("bench").get("RACS_ENDPOINT"));
    assertThat(COMPOSE.serviceNames()).contains(endpoint.getHost());
    assertThat(endpoint.getHost()).isEqualTo("lb");
    assertThat(endpoint.getPort()).isEqualTo(HaproxyConfig.load().bindPort("s3"));
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
