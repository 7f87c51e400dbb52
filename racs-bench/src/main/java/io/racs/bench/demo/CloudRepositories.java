package io.racs.bench.demo;

import io.racs.proxy.codec.Geometry;
import io.racs.repos.Repository;
import io.racs.repos.config.RepositoryConfigLoader;
import io.racs.repos.config.RepositoryFactory;
import io.racs.repos.emulator.AzuriteServer;
import io.racs.repos.emulator.FakeGcsServer;
import io.racs.repos.minio.MinioServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

/**
 * {@code racs demo --clouds}: the six slots on four storage APIs, each a real server on 127.0.0.1 —
 * two MinIO servers (S3), Azurite (Azure Blob Storage), fake-gcs-server with its filesystem backend
 * (Google Cloud Storage), an SFTP server ({@link DemoSftp}: OpenSSH's sshd when provisioned, else
 * Apache MINA SSHD in this JVM) and a local directory.
 *
 * <p>The repositories are opened from the same YAML the demo writes to {@code racs.yaml}, through
 * the proxy's own loader, so what {@code racs heal} and {@code racs bench} read is exactly what the
 * demo ran. Breaking a slot crashes its server (SIGKILL; the SFTP server drops every session) or
 * moves the directory aside; coming back restarts the same server on the same port with the data it
 * held, as a provider's outage ends, and the heal repairs what was written meanwhile.
 */
final class CloudRepositories implements DemoSlots {
  private static final String BUCKET = "racs";

  /** Slot by slot: the kind of storage, in the order of {@link #yaml()}. */
  private static final List<String> KINDS =
      List.of("minio", "azurite", "fake-gcs-server", "minio", "sftp", "fs");

  private final Path dir;
  private final boolean preferOpenSsh;
  private final List<MinioServer> minio = new ArrayList<>();
  private AzuriteServer azurite;
  private FakeGcsServer gcs;
  private DemoSftp sftp;
  private String yaml;

  /** Kills the servers when the JVM ends without {@link #close()} (Ctrl-C, SIGTERM). */
  private final Thread onExit = new Thread(this::close, "racs-demo-clouds-exit");

  /** Slots under {@code dir}, with OpenSSH as the SFTP server when it is provisioned. */
  CloudRepositories(Path dir) {
    this(dir, true);
  }

  /** As above; {@code preferOpenSsh} false always runs the in-process SFTP server. */
  CloudRepositories(Path dir, boolean preferOpenSsh) {
    this.dir = dir;
    this.preferOpenSsh = preferOpenSsh;
  }

  @Override
  public String startStep() {
    return "starting 6 repositories on four storage APIs (S3, Azure Blob, GCS, SFTP) and a"
        + " directory";
  }

  @Override
  public void prepareDirectory() throws IOException {
    DemoRepositories.prepare(dir);
  }

  @Override
  public List<Repository> open() throws IOException {
    boolean first = yaml == null;
    if (first) {
      start();
    }
    List<Repository> repositories =
        List.copyOf(
            RepositoryFactory.createAll(
                    RepositoryConfigLoader.create()
                        .parse(yaml, dir.resolve("racs.yaml").toString()))
                .values());
    if (first) {
      // The first call of each client loads its SDK and creates the bucket or container: seconds
      // on a busy machine, which the store's open would count against its slow-shard timeout.
      repositories.forEach(Repository::probe);
    }
    return repositories;
  }

  private void start() throws IOException {
    Path servers = dir.resolve("servers");
    Runtime.getRuntime().addShutdownHook(onExit);
    try {
      for (int i = 0; i < 2; i++) {
        MinioServer server = MinioServer.builder(servers.resolve("minio-" + i)).build();
        minio.add(server);
        server.start();
      }
      azurite = AzuriteServer.create(servers.resolve("azurite"));
      azurite.process().start();
      gcs =
          FakeGcsServer.create(
              servers.resolve("fake-gcs-server"), FakeGcsServer.Backend.FILESYSTEM);
      gcs.process().start();
      sftp = DemoSftp.start(servers.resolve("sftp"), preferOpenSsh);
      Files.createDirectories(fsRoot());
    } catch (RuntimeException | IOException e) {
      close();
      throw e;
    }
    yaml = yaml();
  }

  /**
   * The {@code repositories:} section, with each type's default timeouts and retries: a killed
   * server on 127.0.0.1 refuses connections at once, and the defaults ride out a loaded machine's
   * slow start. {@code create} makes the bucket or container at start-up. The SFTP server skips its
   * fsync ({@code durable: false}) and gets more channels, so that on a busy machine its shard is
   * not the one left behind and cancelled on every write.
   */
  private String yaml() {
    StringBuilder y = new StringBuilder("repositories:\n");
    y.append(minioEntry(0, minio.get(0)));
    y.append("  - {name: repo-1, type: azure, container: ")
        .append(BUCKET)
        .append(", connectionString: \"")
        .append(azurite.connectionString())
        .append("\", serviceVersion: ")
        .append(AzuriteServer.SERVICE_VERSION)
        .append(", create: true}\n");
    y.append("  - {name: repo-2, type: gcs, bucket: ")
        .append(BUCKET)
        .append(", endpoint: ")
        .append(gcs.endpoint())
        .append(", projectId: ")
        .append(FakeGcsServer.PROJECT)
        .append(", create: true}\n");
    y.append(minioEntry(3, minio.get(1)));
    y.append("  - {name: repo-4, type: sftp, host: 127.0.0.1, port: ")
        .append(sftp.port().getAsInt())
        .append(", user: ")
        .append(sftp.user())
        .append(", path: ")
        .append(sftp.root())
        .append(", privateKeyFile: ")
        .append(sftp.clientKeyFile().toAbsolutePath())
        .append(", knownHostsFile: ")
        .append(sftp.knownHostsFile().toAbsolutePath())
        .append(", durable: false, sessions: 2, channels: 8}\n");
    y.append("  - {name: repo-5, type: fs, path: ").append(fsRoot().toAbsolutePath()).append("}\n");
    return y.toString();
  }

  private static String minioEntry(int slot, MinioServer server) {
    return "  - {name: repo-"
        + slot
        + ", type: minio, endpoint: "
        + server.endpoint()
        + ", bucket: "
        + BUCKET
        + ", credentials: {accessKey: "
        + server.accessKey()
        + ", secretKey: "
        + server.secretKey()
        + "}, create: true}\n";
  }

  private Path fsRoot() {
    return dir.resolve("repos").resolve("repo-5");
  }

  @Override
  public Path writeConfig(Geometry geometry) throws IOException {
    Path file = dir.resolve("racs.yaml");
    Files.writeString(
        file,
        "# Written by racs demo --clouds: the demo's array, for racs heal / recover / bench.\n"
            + "array:\n  geometry: "
            + geometry
            + "\n"
            + yaml);
    return file;
  }

  @Override
  public String describe(int... slots) {
    return String.join(
        " and ",
        IntStream.of(slots).mapToObj(slot -> KINDS.get(slot) + " in slot " + slot).toList());
  }

  /** What runs where, one line a slot, and which SFTP server the demo chose. */
  @Override
  public List<String> lines() {
    List<String> lines = new ArrayList<>();
    lines.add("repo-0  S3 (type: minio)  MinIO at " + minio.get(0).endpoint());
    lines.add("repo-1  Azure Blob (type: azure)  Azurite at " + azurite.endpoint());
    lines.add(
        "repo-2  GCS (type: gcs)  fake-gcs-server at "
            + gcs.endpoint()
            + " (filesystem backend: a restart keeps its objects)");
    lines.add("repo-3  S3 (type: minio)  MinIO at " + minio.get(1).endpoint());
    lines.add("repo-4  SFTP (type: sftp)  " + sftp.description());
    lines.add("repo-5  local directory (type: fs)  " + fsRoot().toAbsolutePath());
    return lines;
  }

  @Override
  public void breakSlots(int... slots) throws IOException {
    for (int slot : slots) {
      switch (slot) {
        case 0, 3 -> minio.get(slot == 0 ? 0 : 1).kill();
        // Azurite keeps its container and blob index in memory and saves it every few seconds, so
        // a SIGKILL loses what it took since (real Azure does not): it is stopped, which saves.
        case 1 -> azurite.process().stop();
        case 2 -> gcs.process().kill();
        case 4 -> sftp.stop().run();
        default ->
            Files.move(
                fsRoot(), fsRoot().resolveSibling("repo-5.away"), StandardCopyOption.ATOMIC_MOVE);
      }
    }
  }

  @Override
  public void restoreSlots(int... slots) throws IOException {
    for (int slot : slots) {
      switch (slot) {
        case 0, 3 -> minio.get(slot == 0 ? 0 : 1).start();
        case 1 -> azurite.process().start();
        case 2 -> gcs.process().start();
        case 4 -> sftp.start().run();
        default ->
            Files.move(
                fsRoot().resolveSibling("repo-5.away"), fsRoot(), StandardCopyOption.ATOMIC_MOVE);
      }
    }
  }

  @Override
  public String comeBackStep() {
    return "bringing them back (the same servers restarted, with what they held) and healing";
  }

  @Override
  public void comeBack(int... slots) throws IOException {
    restoreSlots(slots);
  }

  @Override
  public boolean reopenAfterComeBack() {
    return false;
  }

  @Override
  public void close() {
    try {
      Runtime.getRuntime().removeShutdownHook(onExit);
    } catch (IllegalStateException | IllegalArgumentException e) {
      // Already shutting down (this is the hook), or never started: nothing to remove.
    }
    minio.forEach(MinioServer::kill);
    if (azurite != null) {
      azurite.process().kill();
    }
    if (gcs != null) {
      gcs.process().kill();
    }
    if (sftp != null) {
      sftp.stop().run();
    }
  }
}
