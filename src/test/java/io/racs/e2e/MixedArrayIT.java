package io.racs.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.repos.emulator.OpenSshServer;
import io.racs.repos.minio.MinioServer;
import io.racs.repos.process.ServerProcess;
import io.racs.testkit.AzuriteExtension;
import io.racs.testkit.FakeGcsExtension;
import io.racs.testkit.MinioExtension;
import io.racs.testkit.TestSeed;
import io.racs.testkit.TestTools;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The proxy process over one 4x2 array on four storage APIs, every one a real server on 127.0.0.1:
 * two MinIO servers (S3), Azurite (Azure Blob), fake-gcs-server (the GCS JSON API), Debian's
 * OpenSSH server (SFTP) and a local directory (fs). aws-cli, boto3 and rclone round-trip objects
 * byte-exact through it; under a mixed load of PUT, GET, DELETE and LIST, any two of the six
 * providers killed (SIGKILL; Azurite SIGTERM, see {@code AzuriteServer}; the directory renamed
 * away) or stalled (SIGSTOP of the server and its sessions) fail nothing and give no wrong answer,
 * three stalled make writes answer 503 within the clients' deadline, and heal moves a slot from one
 * provider type (fs) to another (a new Azurite container) so that the array serves every object
 * with the old provider gone.
 *
 * <p>Every test prints its seed (which providers, which operations, which bodies) and replays from
 * {@code -Dracs.test.seed}. What the emulators cannot show is named in their packages: Azurite and
 * fake-gcs-server never throttle and have no replication lag.
 */
@Isolated
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class MixedArrayIT {
  @RegisterExtension static final MinioExtension MINIO = MinioExtension.servers(2);
  @RegisterExtension static final AzuriteExtension AZURITE = new AzuriteExtension();
  @RegisterExtension static final FakeGcsExtension GCS = FakeGcsExtension.persistent();

  private static final String STORE = "racs";
  private static final String BUCKET = "mixed";
  private static final Set<Integer> WRITE_REFUSED = Set.of(503);
  private static final List<Long> SIZES = List.of(0L, 1L, 5 * Clients.MIB + 1, 17 * Clients.MIB);

  @TempDir static Path dir;
  private static OpenSshServer sftp;
  private static Path fsRoot;
  private static Path proxyDir;
  private static ProxyProcess proxy;
  private static List<Provider> providers;

  /** One provider of the array: how to take it away (crash) and stall it, and bring it back. */
  private record Provider(
      String name,
      FaultScenario.Step kill,
      FaultScenario.Step restart,
      FaultScenario.Step stall,
      FaultScenario.Step resume) {}

  @BeforeAll
  static void start() throws Exception {
    for (int i = 0; i < 2; i++) {
      MINIO.client(i).createBucket(b -> b.bucket(STORE));
    }
    sftp = OpenSshServer.create(dir.resolve("sshd"));
    sftp.process().start();
    Files.createDirectories(sftp.files().resolve("root"));
    fsRoot = Files.createDirectories(dir.resolve("fs-root"));
    providers = providers();
    proxyDir = Files.createDirectories(dir.resolve("proxy"));
    proxy = FaultConfig.startProxy(proxyDir, config("fs", "type: fs\n    path: " + fsRoot + "\n"));
    try (S3Client s3 = FaultLoad.client(proxy.endpoint())) {
      s3.createBucket(b -> b.bucket(BUCKET));
    }
  }

  @AfterAll
  static void stop() throws Exception {
    try {
      if (proxy != null) {
        proxy.close();
        FaultScenario.keepLogs("MixedArrayIT", proxyDir);
      }
    } finally {
      if (sftp != null) {
        sftp.close();
      }
    }
  }

  @Test
  @Order(1)
  void clients_roundTripEverySizeByteExact() throws Exception {
    Path work = Files.createDirectories(dir.resolve("clients"));
    Map<String, String> env = Clients.cleanEnv(work.resolve("home"));
    String endpoint = proxy.endpoint().toString();
    // aws-cli: 17 MiB goes multipart (its threshold is 8 MiB).
    for (long size : SIZES) {
      Path up = Clients.seededFile(work.resolve("aws-up-" + size), 700 + size, size);
      Path down = work.resolve("aws-down-" + size);
      String uri = "s3://" + BUCKET + "/aws/size-" + size;
      Clients.ok(cli("s3", "cp", up.toString(), uri, "--endpoint-url", endpoint), env);
      Clients.ok(cli("s3", "cp", uri, down.toString(), "--endpoint-url", endpoint), env);
      assertThat(Clients.md5Hex(down)).as("aws-cli, %d bytes", size).isEqualTo(Clients.md5Hex(up));
    }
    // rclone: copy a tree up, check it against the source, and copy it back down.
    Path tree = work.resolve("rclone-tree");
    for (long size : SIZES) {
      Clients.seededFile(tree.resolve("size-" + size), 800 + size, size);
    }
    Map<String, String> rclone = new java.util.HashMap<>(env);
    rclone.put("RCLONE_CONFIG_RACS_TYPE", "s3");
    rclone.put("RCLONE_CONFIG_RACS_PROVIDER", "Other");
    rclone.put("RCLONE_CONFIG_RACS_ENDPOINT", endpoint);
    rclone.put("RCLONE_CONFIG_RACS_ACCESS_KEY_ID", ProxyProcess.ACCESS_KEY);
    rclone.put("RCLONE_CONFIG_RACS_SECRET_ACCESS_KEY", ProxyProcess.SECRET_KEY);
    rclone.put("RCLONE_CONFIG_RACS_REGION", "us-east-1");
    rclone.put("RCLONE_CONFIG_RACS_FORCE_PATH_STYLE", "true");
    rclone.put("RCLONE_CONFIG_RACS_UPLOAD_CUTOFF", "16M");
    String remote = "racs:" + BUCKET + "/rclone";
    Clients.ok(List.of(TestTools.rclone().toString(), "copy", tree.toString(), remote), rclone);
    Clients.ok(List.of(TestTools.rclone().toString(), "check", tree.toString(), remote), rclone);
    Path back = work.resolve("rclone-back");
    Clients.ok(List.of(TestTools.rclone().toString(), "copy", remote, back.toString()), rclone);
    for (long size : SIZES) {
      assertThat(Clients.md5Hex(back.resolve("size-" + size)))
          .as("rclone, %d bytes", size)
          .isEqualTo(Clients.md5Hex(tree.resolve("size-" + size)));
    }
    // boto3: the client test's own script, on a bucket of its own.
    List<String> entries = new ArrayList<>();
    Map<String, Path> files = new java.util.LinkedHashMap<>();
    for (long size : SIZES) {
      Path file = Clients.seededFile(work.resolve("boto3-up-" + size), 900 + size, size);
      files.put("objects/size-" + size, file);
      entries.add(
          "{\"key\": \"objects/size-%d\", \"path\": \"%s\", \"size\": %d}"
              .formatted(size, file, size));
    }
    Path presign = Clients.seededFile(work.resolve("presign"), 901, 300_000);
    Path config = work.resolve("boto3.json");
    Files.writeString(
        config,
        "{\"endpoint\": \"%s\", \"bucket\": \"mixed-boto3\", \"caBundle\": null, \"workDir\": \"%s\", \"presignPath\": \"%s\", \"files\": [%s]}"
            .formatted(endpoint, work, presign, String.join(", ", entries)));
    Path script = Launcher.root().resolve("src/test/resources/clients/boto3_roundtrip.py");
    Launcher.Result result =
        Clients.ok(
            List.of(TestTools.python().toString(), script.toString(), config.toString()), env);
    for (Map.Entry<String, Path> e : files.entrySet()) {
      assertThat(result.stdout())
          .as("boto3 %s", e.getKey())
          .contains("\"" + e.getKey() + "/get_md5\": \"" + Clients.md5Hex(e.getValue()) + "\"");
    }
  }

  @Test
  @Order(2)
  void mixedLoad_whenTwoProvidersAreKilled_failsNothing() throws Exception {
    long seed = TestSeed.get();
    List<Provider> victims = victims(seed, 2, false);
    System.out.println("killed: " + victims.stream().map(Provider::name).toList());
    FaultScenario.assertUnaffected(run("kill-2", seed, kill(victims)));
  }

  @Test
  @Order(3)
  void mixedLoad_whenTwoProvidersStall_failsNothing() throws Exception {
    long seed = TestSeed.get();
    List<Provider> victims = victims(seed, 2, true);
    System.out.println("stalled: " + victims.stream().map(Provider::name).toList());
    FaultScenario.assertUnaffected(run("stall-2", seed, stall(victims)));
  }

  @Test
  @Order(4)
  void mixedLoad_whenThreeProvidersStall_refusesWritesWith503() throws Exception {
    long seed = TestSeed.get();
    List<Provider> victims = victims(seed, 3, true);
    System.out.println("stalled: " + victims.stream().map(Provider::name).toList());
    FaultLoad load = run("stall-3", seed, stall(victims));
    FaultScenario.assertWritesRefused(load, WRITE_REFUSED, Set.of(503));
  }

  /**
   * The fs slot moves to a new Azurite container: the proxy stops, {@code racs heal} first brings
   * every object back to six shards, then the configuration names the empty container in the fs
   * repository's place, heal rebuilds the slot there, and with the old directory deleted the array
   * serves every object written for the move byte-exact.
   *
   * <p>The heal before the move must find nothing unrecoverable: what the fault tests' refused
   * writes left is on too few repositories to count and younger than the GC grace, so it stays.
   * During the move the new container proves nothing about what the fs directory held, so such a
   * leftover on three of the other five counts, and heal reports it (three shards): only the fault
   * tests' keys may be named then.
   */
  @Test
  @Order(5)
  void heal_movesTheFsSlotToAnAzureContainer_andServesWithoutTheDirectory() throws Exception {
    Map<String, byte[]> objects = new java.util.LinkedHashMap<>();
    try (S3Client s3 = FaultLoad.client(proxy.endpoint())) {
      for (int i = 0; i < 12; i++) {
        byte[] body = Clients.seededBytes(1000 + i, i * 150_000 + 1);
        String key = "moved/object-" + i;
        s3.putObject(b -> b.bucket(BUCKET).key(key), RequestBody.fromBytes(body));
        objects.put(key, body);
      }
    }
    proxy.close();
    heal("heal-before-move", false, config("fs", "type: fs\n    path: " + fsRoot + "\n"));
    String moved =
        config(
            "azure-moved",
            "type: azure\n    container: moved\n    create: true\n    connectionString: \""
                + AZURITE.connectionString()
                + "\"\n    serviceVersion: "
                + AzuriteExtension.SERVICE_VERSION
                + "\n");
    heal("heal-move", true, moved);
    try (java.util.stream.Stream<Path> paths = Files.walk(fsRoot)) {
      for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
    proxyDir = Files.createDirectories(dir.resolve("proxy-moved"));
    proxy = FaultConfig.startProxy(proxyDir, moved);
    try (S3Client s3 = FaultLoad.client(proxy.endpoint())) {
      for (Map.Entry<String, byte[]> e : objects.entrySet()) {
        assertThat(s3.getObjectAsBytes(b -> b.bucket(BUCKET).key(e.getKey())).asByteArray())
            .as(e.getKey())
            .isEqualTo(e.getValue());
      }
    }
  }

  /**
   * Runs {@code racs heal} over {@code config}: it must reach every repository and find nothing
   * unrecoverable but, while a slot moves ({@code moving}), what the fault tests' writes left.
   */
  private static void heal(String name, boolean moving, String config) throws Exception {
    Path healConfig = Files.createDirectories(dir.resolve(name)).resolve("racs.yaml");
    Files.writeString(healConfig, config);
    Launcher.Result heal = Launcher.run(Map.of(), "heal", "--config", healConfig.toString());
    System.out.println(name + ": " + heal.stdout());
    String report = "%s\nstdout:\n%s\nstderr:\n%s".formatted(name, heal.stdout(), heal.stderr());
    assertThat(heal.stdout()).as(report).contains("unreachable repositories: none");
    List<String> unrecoverable =
        heal.stdout().lines().filter(line -> line.startsWith("    " + BUCKET + "/")).toList();
    assertThat(unrecoverable)
        .as(report)
        .allMatch(
            line ->
                moving
                    && (line.startsWith("    " + BUCKET + "/kill-2/")
                        || line.startsWith("    " + BUCKET + "/stall-")));
    assertThat(heal.exitCode()).as(report).isEqualTo(unrecoverable.isEmpty() ? 0 : 1);
  }

  private static List<String> cli(String... args) {
    List<String> command = new ArrayList<>();
    command.add(TestTools.awsCli().toString());
    command.addAll(List.of(args));
    return command;
  }

  private static List<Provider> providers() {
    List<Provider> list = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      MinioServer server = MINIO.server(i);
      list.add(
          new Provider(
              "minio-" + i,
              server::kill,
              server::start,
              () -> Faults.stall(server),
              () -> Faults.resume(server)));
    }
    // Azurite keeps its container and blob index in memory and saves it every few seconds, so a
    // SIGKILL loses its newest writes, containers included (real Azure does not): it is "killed"
    // with SIGTERM, which saves. The others are killed with SIGKILL.
    ServerProcess azurite = AZURITE.process();
    list.add(
        new Provider(
            "azure",
            azurite::stop,
            azurite::start,
            () -> Faults.stallTree(azurite),
            () -> Faults.resumeTree(azurite)));
    list.add(emulator("gcs", GCS.process()));
    list.add(emulator("sftp", sftp.process()));
    Path away = fsRoot.resolveSibling("fs-away");
    list.add(
        new Provider(
            "fs", () -> Files.move(fsRoot, away), () -> Files.move(away, fsRoot), null, null));
    return List.copyOf(list);
  }

  private static Provider emulator(String name, ServerProcess process) {
    return new Provider(
        name,
        process::kill,
        process::start,
        () -> Faults.stallTree(process),
        () -> Faults.resumeTree(process));
  }

  /** The array's configuration, its sixth slot named {@code lastName} with {@code last} fields. */
  private static String config(String lastName, String last) {
    StringBuilder yaml = FaultConfig.header();
    for (int i = 0; i < 2; i++) {
      MinioServer s = MINIO.server(i);
      yaml.append("  - name: minio-")
          .append(i)
          .append("\n    type: minio\n    endpoint: ")
          .append(s.endpoint())
          .append("\n    bucket: ")
          .append(STORE)
          .append("\n    credentials: {accessKey: ")
          .append(s.accessKey())
          .append(", secretKey: ")
          .append(s.secretKey())
          .append("}\n    connectTimeout: 1s\n    readTimeout: 60s\n    retries: 0\n");
    }
    yaml.append("  - name: azure\n    type: azure\n    container: ")
        .append(STORE)
        .append("\n    create: true\n    connectionString: \"")
        .append(AZURITE.connectionString())
        .append("\"\n    serviceVersion: ")
        .append(AzuriteExtension.SERVICE_VERSION)
        .append("\n    tryTimeout: 60s\n    retries: 0\n");
    yaml.append("  - name: gcs\n    type: gcs\n    bucket: ")
        .append(STORE)
        .append("\n    create: true\n    projectId: ")
        .append(FakeGcsExtension.PROJECT)
        .append("\n    endpoint: ")
        .append(GCS.endpoint())
        .append("\n    connectTimeout: 1s\n    readTimeout: 60s\n    retries: 0\n");
    yaml.append("  - name: sftp\n    type: sftp\n    host: 127.0.0.1\n    port: ")
        .append(sftp.process().port())
        .append("\n    user: ")
        .append(sftp.user())
        .append("\n    path: ")
        .append(sftp.files().resolve("root"))
        .append("\n    privateKeyFile: ")
        .append(sftp.clientKeyFile())
        .append("\n    knownHostsFile: ")
        .append(sftp.knownHostsFile())
        .append("\n    connectTimeout: 1s\n    requestTimeout: 60s\n");
    yaml.append("  - name: ").append(lastName).append("\n    ").append(last);
    return yaml.toString();
  }

  private static List<Provider> victims(long seed, int count, boolean stall) {
    List<Provider> pool = providers.stream().filter(p -> !stall || p.stall() != null).toList();
    return Faults.pick(new Random(seed), pool.size(), count).stream().map(pool::get).toList();
  }

  private static FaultScenario.Fault kill(List<Provider> victims) {
    return FaultScenario.Fault.of(
        () -> {
          for (Provider p : victims) {
            p.kill().run();
          }
        },
        () -> {
          for (Provider p : victims) {
            p.restart().run();
          }
        });
  }

  private static FaultScenario.Fault stall(List<Provider> victims) {
    return FaultScenario.Fault.of(
        () -> {
          for (Provider p : victims) {
            p.stall().run();
          }
        },
        () -> {
          for (Provider p : victims) {
            p.resume().run();
          }
        });
  }

  private static FaultLoad run(String name, long seed, FaultScenario.Fault fault) throws Exception {
    return FaultScenario.run(name, List.of(proxy), BUCKET, FaultLoad.Mix.MIXED, seed, fault);
  }
}
