package io.racs.bench.demo;

import io.racs.proxy.codec.Geometry;
import io.racs.repos.Repository;
import io.racs.repos.fs.FsRepository;
import io.racs.repos.minio.MinioServer;
import io.racs.repos.s3.S3Credentials;
import io.racs.repos.s3.S3Options;
import io.racs.repos.s3.S3Repository;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The demo's six repositories and what happens to their storage: local directories under the demo
 * directory, or (with {@code --minio 6}) MinIO server processes; taking slots away, bringing them
 * back, and replacing them with empty storage as a new disk or provider would come. It also owns
 * the demo directory itself and the configuration file it writes for {@code racs heal}, {@code racs
 * recover} and the bench.
 */
final class DemoRepositories implements DemoSlots {
  private static final String BUCKET = "racs";
  private static final int SLOTS = 6;

  private final Path dir;
  private final int minio;
  private final List<MinioServer> servers = new ArrayList<>();

  /** Repositories under {@code dir}: {@code minio} MinIO servers, or local directories if 0. */
  DemoRepositories(Path dir, int minio) {
    this.dir = dir;
    this.minio = minio;
  }

  @Override
  public String startStep() {
    return minio > 0
        ? "starting 6 MinIO servers as repositories"
        : "creating 6 local-directory repositories";
  }

  @Override
  public void prepareDirectory() throws IOException {
    prepare(dir);
  }

  /**
   * Empties {@code dir} (refusing one the demo did not create) and marks it as the demo's: the one
   * rule for every kind of demo slots.
   */
  static void prepare(Path dir) throws IOException {
    Path marker = dir.resolve(".racs-demo");
    if (Files.exists(dir)) {
      if (!Files.exists(marker)) {
        throw new IllegalArgumentException(
            "--dir: "
                + dir
                + " exists and is not a demo directory (expected: a new or earlier demo directory)");
      }
      deleteTree(dir);
    }
    Files.createDirectories(dir);
    Files.writeString(marker, "created by racs demo; deleted and recreated by each run\n");
  }

  @Override
  public List<Repository> open() throws IOException {
    return minio > 0 ? minioRepositories() : fsRepositories();
  }

  private List<Repository> fsRepositories() throws IOException {
    List<Repository> repositories = new ArrayList<>();
    for (int i = 0; i < SLOTS; i++) {
      Path root = Files.createDirectories(dir.resolve("repos").resolve("repo-" + i));
      repositories.add(FsRepository.builder(root).name("repo-" + i).build());
    }
    return repositories;
  }

  private List<Repository> minioRepositories() {
    if (servers.isEmpty()) {
      for (int i = 0; i < minio; i++) {
        MinioServer server = MinioServer.builder(dir.resolve("minio").resolve("node-" + i)).build();
        servers.add(server);
        server.start();
        createBucket(server);
      }
    }
    List<Repository> repositories = new ArrayList<>();
    for (int i = 0; i < minio; i++) {
      MinioServer server = servers.get(i);
      repositories.add(
          S3Repository.create(
              "repo-" + i,
              S3Options.builder(BUCKET)
                  .endpoint(server.endpoint())
                  .pathStyle(true)
                  .credentials(S3Credentials.of(server.accessKey(), server.secretKey()))
                  .connectTimeout(Duration.ofSeconds(1))
                  .maxAttempts(1)
                  .build()));
    }
    return repositories;
  }

  private static void createBucket(MinioServer server) {
    try (S3Client s3 =
        S3Client.builder()
            .endpointOverride(server.endpoint())
            .region(Region.US_EAST_1)
            .forcePathStyle(true)
            .credentialsProvider(
                StaticCredentialsProvider.create(
                    AwsBasicCredentials.create(server.accessKey(), server.secretKey())))
            .httpClientBuilder(Apache5HttpClient.builder())
            .build()) {
      s3.createBucket(b -> b.bucket(BUCKET));
    }
  }

  @Override
  public Path writeConfig(Geometry geometry) throws IOException {
    StringBuilder yaml =
        new StringBuilder(
            "# Written by racs demo: the demo's array, for racs heal / recover / bench.\n");
    yaml.append("array:\n  geometry: ").append(geometry).append("\nrepositories:\n");
    for (int i = 0; i < SLOTS; i++) {
      if (minio > 0) {
        MinioServer s = servers.get(i);
        yaml.append("  - {name: repo-")
            .append(i)
            .append(", type: minio, endpoint: ")
            .append(s.endpoint())
            .append(", bucket: ")
            .append(BUCKET)
            .append(", credentials: {accessKey: ")
            .append(s.accessKey())
            .append(", secretKey: ")
            .append(s.secretKey())
            .append("}}\n");
      } else {
        yaml.append("  - {name: repo-")
            .append(i)
            .append(", type: fs, path: ")
            .append(dir.resolve("repos").resolve("repo-" + i).toAbsolutePath())
            .append("}\n");
      }
    }
    Path file = dir.resolve("racs.yaml");
    Files.writeString(file, yaml);
    return file;
  }

  @Override
  public String describe(int... slots) {
    return "slots "
        + String.join(" and ", Arrays.stream(slots).mapToObj(Integer::toString).toList());
  }

  @Override
  public void breakSlots(int... slots) throws IOException {
    for (int slot : slots) {
      if (minio > 0) {
        servers.get(slot).stop();
      } else {
        Path root = dir.resolve("repos").resolve("repo-" + slot);
        Files.move(
            root, root.resolveSibling("repo-" + slot + ".away"), StandardCopyOption.ATOMIC_MOVE);
      }
    }
  }

  @Override
  public void restoreSlots(int... slots) throws IOException {
    for (int slot : slots) {
      if (minio > 0) {
        servers.get(slot).start();
      } else {
        Path root = dir.resolve("repos").resolve("repo-" + slot);
        Files.move(
            root.resolveSibling("repo-" + slot + ".away"), root, StandardCopyOption.ATOMIC_MOVE);
      }
    }
  }

  @Override
  public String comeBackStep() {
    return "replacing them with empty repositories and healing";
  }

  @Override
  public boolean reopenAfterComeBack() {
    return minio == 0;
  }

  /** The slots' storage comes back empty, as a replaced disk or a new provider would. */
  @Override
  public void comeBack(int... slots) throws IOException {
    for (int slot : slots) {
      if (minio > 0) {
        MinioServer server = servers.get(slot);
        for (Path drive : server.drives()) {
          deleteTree(drive);
        }
        server.start();
        createBucket(server);
      } else {
        Path root = dir.resolve("repos").resolve("repo-" + slot);
        deleteTree(root.resolveSibling("repo-" + slot + ".away"));
        Files.createDirectories(root);
      }
    }
  }

  @Override
  public void close() {
    servers.forEach(MinioServer::kill);
  }

  static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> files = Files.walk(root)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
