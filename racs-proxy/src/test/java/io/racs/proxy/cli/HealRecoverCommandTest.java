package io.racs.proxy.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.config.ArrayConfig;
import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.format.VersionMeta;
import io.racs.repos.fs.FsRepository;
import io.racs.testkit.SeededBytes;
import io.racs.testkit.TestSeed;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Proves {@code racs heal} and {@code racs recover} on real {@code fs} repositories on disk: bytes
 * flipped in a shard file are read around, counted, and repaired by a deep heal; a repository
 * replaced by an empty directory is rebuilt; and with the proxy gone and m repository directories
 * deleted, recover still writes the exact object. Bad configuration exits 2 with one line.
 */
class HealRecoverCommandTest {
  @TempDir Path dir;
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int racs(String... args) {
    return RacsMain.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
  }

  private int recover(Path config, String bucket, String key, Path out) {
    return racs(
        "recover",
        "--config",
        config.toString(),
        "--bucket",
        bucket,
        "--key",
        key,
        "--out",
        out.toString());
  }

  private Path config() throws IOException {
    return config("");
  }

  private Path config(String extraArrayLines) throws IOException {
    StringBuilder yaml =
        new StringBuilder(
            "array:\n  geometry: 4x2\n  blockSize: 64KiB\n  gcGrace: 0s\n"
                + extraArrayLines
                + "repositories:\n");
    for (int i = 0; i < 6; i++) {
      yaml.append("  - name: r")
          .append(i)
          .append("\n    type: fs\n    path: ")
          .append(dir.resolve("r" + i))
          .append('\n');
      Files.createDirectories(dir.resolve("r" + i));
    }
    Path file = dir.resolve("racs.yaml");
    Files.writeString(file, yaml);
    return file;
  }

  /** The largest regular file under {@code root} whose name is not a record (a shard object). */
  private static List<Path> shardFiles(Path root) throws IOException {
    try (Stream<Path> files = Files.walk(root)) {
      return files
          .filter(Files::isRegularFile)
          .filter(p -> p.toString().contains("/v"))
          .sorted(Comparator.comparingLong(HealRecoverCommandTest::size).reversed())
          .toList();
    }
  }

  private static long size(Path p) {
    try {
      return Files.size(p);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void healAndRecover_onFsRepositories() throws IOException {
    long seed = TestSeed.get();
    byte[] data = SeededBytes.bytes(seed, 300_000);
    Path config = config();
    ArrayConfig array = ArrayConfig.load(config);
    try (ErasureStore store = array.open()) {
      store.createBucket("photos");
      VersionMeta meta =
          store.put(
              "photos",
              "cat.jpg",
              new ByteArrayInputStream(data),
              data.length,
              ObjectStore.PutOptions.defaults());
      assertThat(meta.sizeBytes()).isEqualTo(data.length);
    }

    // Bitrot in one shard file: reads still exact, and counted.
    Path victim = shardFiles(dir.resolve("r2")).getFirst();
    byte[] clean = Files.readAllBytes(victim);
    byte[] rotten = clean.clone();
    rotten[1000] ^= 0x40;
    Files.write(victim, rotten);
    try (ErasureStore store = array.open();
        ObjectStore.ObjectReader reader = store.get("photos", "cat.jpg", 0, -1, 0)) {
      assertThat(reader.body().readAllBytes()).as("seed %d", seed).isEqualTo(data);
      assertThat(store.stats().corruptPieces()).isEqualTo(1);
    }
    assertThat(racs("heal", "--config", config.toString(), "--deep")).as(err.toString()).isZero();
    assertThat(out.toString()).contains("shards rebuilt: 1", "unrecoverable objects: none");
    assertThat(Files.readAllBytes(victim)).isEqualTo(clean);

    // Slot 4's disk is replaced by an empty one: heal rebuilds it completely.
    deleteTree(dir.resolve("r4"));
    Files.createDirectories(dir.resolve("r4"));
    assertThat(racs("heal", "--config", config.toString())).as(err.toString()).isZero();
    assertThat(out.toString()).contains("shards rebuilt: 1");
    assertThat(shardFiles(dir.resolve("r4"))).isNotEmpty();

    // The proxy is gone and two repositories are lost: recover still rebuilds the object.
    deleteTree(dir.resolve("r0"));
    deleteTree(dir.resolve("r5"));
    Path recovered = dir.resolve("out/cat.jpg");
    assertThat(recover(config, "photos", "cat.jpg", recovered)).as(err.toString()).isZero();
    assertThat(Files.readAllBytes(recovered)).as("seed %d", seed).isEqualTo(data);
    assertThat(out.toString()).contains("recovered photos/cat.jpg (300000 bytes");
    assertThat(dir.resolve("r0")).doesNotExist(); // recover wrote nothing
  }

  @Test
  void recover_withVersionId_rebuildsThatVersionOfAVersionedBucketAfterHeal() throws IOException {
    long seed = TestSeed.get();
    byte[] old = SeededBytes.bytes(seed, 200_000);
    byte[] current = SeededBytes.bytes(seed + 1, 150_000);
    Path config = config();
    ArrayConfig array = ArrayConfig.load(config);
    VersionMeta first;
    VersionMeta marker;
    try (ErasureStore store = array.open()) {
      store.createBucket("photos");
      store.enableVersioning("photos");
      first =
          store.put(
              "photos",
              "cat.jpg",
              new ByteArrayInputStream(old),
              old.length,
              ObjectStore.PutOptions.defaults());
      store.put(
          "photos",
          "cat.jpg",
          new ByteArrayInputStream(current),
          current.length,
          ObjectStore.PutOptions.defaults());
      marker = store.delete("photos", "cat.jpg").orElseThrow();
    }
    // Slot 3's disk is replaced: heal rebuilds the shards of the old version too.
    deleteTree(dir.resolve("r3"));
    Files.createDirectories(dir.resolve("r3"));
    assertThat(racs("heal", "--config", config.toString())).as(err.toString()).isZero();
    assertThat(out.toString()).contains("shards rebuilt: 2", "unrecoverable objects: none");
    deleteTree(dir.resolve("r0"));
    deleteTree(dir.resolve("r5"));

    Path recovered = dir.resolve("out/old.jpg");
    assertThat(
            racs(
                "recover",
                "--config",
                config.toString(),
                "--bucket",
                "photos",
                "--key",
                "cat.jpg",
                "--version-id",
                first.versionId(),
                "--out",
                recovered.toString()))
        .as(err.toString())
        .isZero();
    assertThat(Files.readAllBytes(recovered)).as("seed %d", seed).isEqualTo(old);
    assertThat(out.toString()).contains("version " + first.versionId());
    // The current version is a delete marker: nothing to recover without a version id.
    assertThat(recover(config, "photos", "cat.jpg", dir.resolve("out/none"))).isEqualTo(1);
    assertThat(
            racs(
                "recover",
                "--config",
                config.toString(),
                "--bucket",
                "photos",
                "--key",
                "cat.jpg",
                "--version-id",
                marker.versionId(),
                "--out",
                dir.resolve("out/marker").toString()))
        .isEqualTo(2);
    assertThat(dir.resolve("out/none")).doesNotExist();
  }

  /**
   * {@code --version-id null} names the version written before versioning was enabled, as S3 does:
   * recover rebuilds exactly those bytes (not the newer version's) with two repositories gone, and
   * says "version null", the id S3 clients know it by. A key whose every version was written while
   * versioning was enabled has no null version: recover fails with one line and exit 1, and writes
   * no file.
   */
  @Test
  void recover_withVersionIdNull_rebuildsTheVersionWrittenBeforeVersioningWasEnabled()
      throws IOException {
    long seed = TestSeed.get();
    byte[] unversioned = SeededBytes.bytes(seed, 180_000);
    byte[] versioned = SeededBytes.bytes(seed + 1, 120_000);
    Path config = config();
    ArrayConfig array = ArrayConfig.load(config);
    try (ErasureStore store = array.open()) {
      store.createBucket("photos");
      store.put(
          "photos",
          "cat.jpg",
          new ByteArrayInputStream(unversioned),
          unversioned.length,
          ObjectStore.PutOptions.defaults());
      store.enableVersioning("photos");
      store.put(
          "photos",
          "cat.jpg",
          new ByteArrayInputStream(versioned),
          versioned.length,
          ObjectStore.PutOptions.defaults());
      store.put(
          "photos",
          "dog.jpg",
          new ByteArrayInputStream(versioned),
          versioned.length,
          ObjectStore.PutOptions.defaults());
    }
    deleteTree(dir.resolve("r1"));
    deleteTree(dir.resolve("r4"));

    Path recovered = dir.resolve("out/null.jpg");
    assertThat(recoverVersion(config, "cat.jpg", "null", recovered)).as(err.toString()).isZero();
    assertThat(Files.readAllBytes(recovered)).as("seed %d", seed).isEqualTo(unversioned);
    assertThat(out.toString())
        .isEqualTo(
            "recovered photos/cat.jpg (180000 bytes, ETag "
                + md5Hex(unversioned)
                + ", version null) to "
                + recovered
                + System.lineSeparator());
    Path current = dir.resolve("out/current.jpg");
    assertThat(recover(config, "photos", "cat.jpg", current)).as(err.toString()).isZero();
    assertThat(Files.readAllBytes(current)).as("seed %d", seed).isEqualTo(versioned);

    out.getBuffer().setLength(0);
    Path none = dir.resolve("out/none.jpg");
    assertThat(recoverVersion(config, "dog.jpg", "null", none)).isEqualTo(ExitCodes.FAILURE);
    assertThat(err.toString().lines().toList())
        .containsExactly(
            "racs recover: photos/dog.jpg has no null version (none was written while versioning"
                + " was not enabled, or it was deleted)");
    assertThat(out.toString()).isEmpty();
    assertThat(none).doesNotExist();
  }

  private int recoverVersion(Path config, String key, String versionId, Path out) {
    return racs(
        "recover",
        "--config",
        config.toString(),
        "--bucket",
        "photos",
        "--key",
        key,
        "--version-id",
        versionId,
        "--out",
        out.toString());
  }

  private static String md5Hex(byte[] data) {
    try {
      return java.util.HexFormat.of()
          .formatHex(java.security.MessageDigest.getInstance("MD5").digest(data));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The record files under {@code root} (index entries: an inline object's shards live there). */
  private static List<Path> recordFiles(Path root) throws IOException {
    try (Stream<Path> files = Files.walk(root.resolve("i"))) {
      return files.filter(Files::isRegularFile).toList();
    }
  }

  @Test
  void healAndRecover_inlineObject_onFsRepositories() throws IOException {
    long seed = TestSeed.get();
    byte[] data = SeededBytes.bytes(seed, 20_000);
    Path config = config("  inlineSize: 32KiB\n");
    ArrayConfig array = ArrayConfig.load(config);
    assertThat(array.store().inlineBytes()).isEqualTo(32 << 10);
    try (ErasureStore store = array.open()) {
      store.createBucket("docs");
      store.put(
          "docs",
          "note.txt",
          new ByteArrayInputStream(data),
          data.length,
          ObjectStore.PutOptions.defaults());
    }
    for (int i = 0; i < 6; i++) {
      assertThat(shardFiles(dir.resolve("r" + i))).as("r%d shard files", i).isEmpty();
      assertThat(recordFiles(dir.resolve("r" + i))).as("r%d records", i).hasSize(1);
    }

    // Bitrot inside the shard a record carries: reads still exact and counted; a deep heal
    // rebuilds that record from four others.
    Path victim = recordFiles(dir.resolve("r2")).getFirst();
    byte[] clean = Files.readAllBytes(victim);
    byte[] rotten = clean.clone();
    rotten[100] ^= 0x40;
    Files.write(victim, rotten);
    try (ErasureStore store = array.open();
        ObjectStore.ObjectReader reader = store.get("docs", "note.txt", 0, -1, 0)) {
      assertThat(reader.body().readAllBytes()).as("seed %d", seed).isEqualTo(data);
    }
    assertThat(racs("heal", "--config", config.toString(), "--deep")).as(err.toString()).isZero();
    assertThat(out.toString()).contains("shards rebuilt: 1", "unrecoverable objects: none");
    assertThat(Files.readAllBytes(victim)).isEqualTo(clean);

    // An empty disk in slot 4: heal writes its record, shard included.
    deleteTree(dir.resolve("r4"));
    Files.createDirectories(dir.resolve("r4"));
    assertThat(racs("heal", "--config", config.toString())).as(err.toString()).isZero();
    assertThat(recordFiles(dir.resolve("r4"))).hasSize(1);

    // The proxy is gone and two repositories are lost: recover still rebuilds the object.
    deleteTree(dir.resolve("r0"));
    deleteTree(dir.resolve("r5"));
    Path recovered = dir.resolve("out/note.txt");
    assertThat(recover(config, "docs", "note.txt", recovered)).as(err.toString()).isZero();
    assertThat(Files.readAllBytes(recovered)).as("seed %d", seed).isEqualTo(data);
  }

  @Test
  void recover_whenObjectsEncrypted_opensSseS3WithTheConfiguredKeyAndSseCOnlyWithItsKey()
      throws Exception {
    long seed = TestSeed.get();
    byte[] data = SeededBytes.bytes(seed, 150_000);
    Path keyFile = dir.resolve("master.key");
    Files.writeString(keyFile, io.racs.proxy.crypto.MasterKey.generate().toHex());
    Files.setPosixFilePermissions(
        keyFile, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
    Path config = config();
    Files.writeString(
        config, Files.readString(config) + "encryption:\n  keyFile: " + keyFile + "\n");
    byte[] raw = SeededBytes.bytes(seed + 1, 32);
    Path customerKeyFile = Files.write(dir.resolve("customer.key"), raw);
    java.util.Base64.Encoder b64 = java.util.Base64.getEncoder();
    io.racs.proxy.crypto.CustomerKey customer =
        io.racs.proxy.crypto.CustomerKey.of(
            "AES256",
            b64.encodeToString(raw),
            b64.encodeToString(java.security.MessageDigest.getInstance("MD5").digest(raw)));
    try (ErasureStore store = ArrayConfig.load(config).open()) {
      store.createBucket("vault");
      store.put(
          "vault",
          "s3",
          new ByteArrayInputStream(data),
          data.length,
          ObjectStore.PutOptions.defaults()
              .withSealing(io.racs.proxy.store.format.Sealing.S3_MANAGED));
      store.put(
          "vault",
          "c",
          new ByteArrayInputStream(data),
          data.length,
          ObjectStore.PutOptions.defaults()
              .withSealing(new io.racs.proxy.store.format.Sealing.Customer(customer)));
    }
    Path s3Out = dir.resolve("out/s3");
    assertThat(recover(config, "vault", "s3", s3Out)).as(err.toString()).isZero();
    assertThat(Files.readAllBytes(s3Out)).isEqualTo(data);
    Path cOut = dir.resolve("out/c");
    assertThat(recover(config, "vault", "c", cOut)).isNotZero();
    assertThat(cOut).doesNotExist();
    assertThat(
            racs(
                "recover",
                "--config",
                config.toString(),
                "--bucket",
                "vault",
                "--key",
                "c",
                "--out",
                cOut.toString(),
                "--sse-c-key",
                customerKeyFile.toString()))
        .as(err.toString())
        .isZero();
    assertThat(Files.readAllBytes(cOut)).isEqualTo(data);
  }

  @Test
  void heal_whenInlineSizeInvalid_exitsWithUsageAndOneLine() throws IOException {
    Path config = config("  inlineSize: lots\n");
    assertThat(racs("heal", "--config", config.toString())).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString().strip())
        .isEqualTo(
            "racs heal: "
                + config
                + ": array: field 'inlineSize': expected a size such as 1MiB (at most 1GiB), got"
                + " 'lots'");
  }

  @Test
  void heal_whenTheProxiesKeepAVersionCache_joinsZooKeeperBeforeHealing() throws Exception {
    try (org.apache.curator.test.TestingServer zookeeper =
        new org.apache.curator.test.TestingServer(true)) {
      Path config = config();
      Files.writeString(
          config,
          Files.readString(config)
              + "coordination: {zookeeper: '"
              + zookeeper.getConnectString()
              + "', versionCache: true}\n");

      assertThat(racs("heal", "--config", config.toString())).isEqualTo(ExitCodes.OK);
      assertThat(out.toString())
          .contains("heal: joined ZooKeeper at " + zookeeper.getConnectString());
    }
  }

  @Test
  void heal_whenTheVersionCachesZooKeeperIsUnreachable_exitsOneWithOneLineBeforeHealing()
      throws Exception {
    int port;
    try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
      port = free.getLocalPort(); // closed again: nothing listens there
    }
    Path config = config();
    Files.writeString(
        config,
        Files.readString(config)
            + "coordination: {zookeeper: '127.0.0.1:"
            + port
            + "', sessionTimeout: 1s, versionCache: true}\n");

    assertThat(racs("heal", "--config", config.toString())).isEqualTo(ExitCodes.FAILURE);
    assertThat(err.toString().strip().lines()).hasSize(1);
    assertThat(err.toString()).contains("not connected to ZooKeeper at 127.0.0.1:" + port);
    assertThat(out.toString()).doesNotContain("heal: array");
  }

  @Test
  void heal_whenConfigInvalid_exitsWithUsageAndOneLine() throws IOException {
    Path config = config();
    Files.writeString(config, Files.readString(config).replace("geometry: 4x2", "geometry: 4x3"));
    assertThat(racs("heal", "--config", config.toString())).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString().strip())
        .isEqualTo(
            "racs heal: "
                + config
                + ": array: field 'slots': 6 repositories (expected: 7 for 4x3)");
    assertThat(err.toString().strip().lines()).hasSize(1);
  }

  @Test
  void heal_whenOneRepositoryFailsEveryObjectCall_carriesOnPrintsTheSummaryAndExitsOne()
      throws IOException {
    Path config = config();
    ArrayConfig array = ArrayConfig.load(config);
    try (ErasureStore store = array.open()) {
      store.createBucket("photos");
      for (int i = 0; i < 5; i++) {
        byte[] data = SeededBytes.bytes(i, 100_000 + i);
        store.put(
            "photos",
            "p" + i,
            new ByteArrayInputStream(data),
            data.length,
            ObjectStore.PutOptions.defaults());
      }
    }
    // r4 lost its index; r0 answers listings and probes but fails every object call (a 500).
    deleteTree(dir.resolve("r4/i"));
    Files.writeString(
        config,
        Files.readString(config)
            .replace(
                "path: " + dir.resolve("r0") + "\n",
                "path: "
                    + dir.resolve("r0")
                    + "\n    decorators: [{faulty: {failKeys: '.*', kind: UNAVAILABLE}}]\n"));

    assertThat(racs("heal", "--config", config.toString())).isEqualTo(ExitCodes.FAILURE);
    assertThat(out.toString())
        .contains("records repaired: 5", "unreachable repositories:", "r0")
        .contains("unrecoverable objects: none");
    assertThat(recordFiles(dir.resolve("r4"))).hasSize(5);
    assertThat(err.toString()).isEmpty();
  }

  @Test
  void heal_whenTemporaryFilesOlderThanTheGrace_collectsThemAndLeavesYoungerOnes()
      throws IOException {
    Path config = config();
    Files.writeString(config, Files.readString(config).replace("gcGrace: 0s", "gcGrace: 5m"));
    ArrayConfig array = ArrayConfig.load(config);
    try (ErasureStore store = array.open()) {
      store.createBucket("photos");
      store.put(
          "photos",
          "cat.jpg",
          new ByteArrayInputStream(new byte[70_000]),
          70_000,
          ObjectStore.PutOptions.defaults());
    }
    // Left by writers that crashed ten minutes ago (past the 5 minute grace, but not yet past
    // the quarter of an hour an fs repository waits before it purges on its own), and by one
    // still writing.
    FileTime tenMinutesAgo = FileTime.from(Instant.now().minus(Duration.ofMinutes(10)));
    List<Path> stale =
        List.of(
            dir.resolve("r2/" + FsRepository.TEMP_PREFIX + "0a1b2c3d"),
            Files.list(dir.resolve("r3/i"))
                .findFirst()
                .orElseThrow()
                .resolve(FsRepository.TEMP_PREFIX + "4e5f6071"));
    for (Path file : stale) {
      Files.write(file, new byte[1000]);
      Files.setLastModifiedTime(file, tenMinutesAgo);
    }
    Path young =
        Files.write(dir.resolve("r5/" + FsRepository.TEMP_PREFIX + "8293a4b5"), new byte[10]);

    assertThat(racs("heal", "--config", config.toString(), "--dry-run"))
        .as(err.toString())
        .isZero();
    assertThat(out.toString()).contains("leftovers to collect: 2");
    assertThat(stale).allSatisfy(file -> assertThat(file).exists());

    assertThat(racs("heal", "--config", config.toString())).as(err.toString()).isZero();
    assertThat(out.toString()).contains("leftovers collected: 2");
    assertThat(stale).allSatisfy(file -> assertThat(file).doesNotExist());
    assertThat(young).exists();
  }

  private static void deleteTree(Path root) throws IOException {
    try (Stream<Path> files = Files.walk(root)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
