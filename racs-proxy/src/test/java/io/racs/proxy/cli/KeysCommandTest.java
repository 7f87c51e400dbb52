package io.racs.proxy.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.config.ArrayConfig;
import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.format.Sealing;
import io.racs.testkit.SeededBytes;
import io.racs.testkit.TestSeed;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code racs keys}: generate writes a new owner-only key file and never overwrites one; rotate
 * re-wraps every SSE-S3 data key (of inline and striped versions, and of an upload in progress)
 * with the current master key, so that once it has run the previous key can go and everything still
 * opens; before it, dropping the previous key leaves the objects unreadable.
 */
class KeysCommandTest {
  @TempDir Path dir;
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int racs(String... args) {
    return RacsMain.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
  }

  private Path config(String name, String encryption) throws IOException {
    StringBuilder yaml =
        new StringBuilder("array:\n  geometry: 4x2\n  blockSize: 64KiB\n  inlineSize: 32KiB\n");
    yaml.append("encryption:\n").append(encryption).append("repositories:\n");
    for (int i = 0; i < 6; i++) {
      Files.createDirectories(dir.resolve("r" + i));
      yaml.append("  - {name: r")
          .append(i)
          .append(", type: fs, path: ")
          .append(dir.resolve("r" + i))
          .append("}\n");
    }
    return Files.writeString(dir.resolve(name), yaml);
  }

  @Test
  void generate_whenFileNew_writesAnOwnerOnlyKeyAndRefusesToOverwrite() throws IOException {
    Path key = dir.resolve("k1");
    assertThat(racs("keys", "generate", "--out", key.toString())).as(err.toString()).isZero();
    assertThat(Files.readString(key).strip()).matches("[0-9a-f]{64}");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(key)))
        .isEqualTo("rw-------");
    String first = Files.readString(key);
    assertThat(racs("keys", "generate", "--out", key.toString())).isEqualTo(2);
    assertThat(err.toString()).contains("exists");
    assertThat(Files.readString(key)).isEqualTo(first);
  }

  @Test
  void rotate_whenRun_letsThePreviousKeyGoAndEverythingStillOpens() throws Exception {
    long seed = TestSeed.get();
    byte[] small = SeededBytes.bytes(seed, 1000);
    byte[] big = SeededBytes.bytes(seed + 1, 200_000);
    Path oldKey = dir.resolve("old.key");
    Path newKey = dir.resolve("new.key");
    assertThat(racs("keys", "generate", "--out", oldKey.toString())).isZero();
    assertThat(racs("keys", "generate", "--out", newKey.toString())).isZero();
    Path before = config("before.yaml", "  keyFile: " + oldKey + "\n");
    String upload;
    try (ErasureStore store = ArrayConfig.load(before).open()) {
      store.createBucket("keys");
      ObjectStore.PutOptions sealed =
          ObjectStore.PutOptions.defaults().withSealing(Sealing.S3_MANAGED);
      store.put("keys", "small", new ByteArrayInputStream(small), small.length, sealed);
      store.put("keys", "big", new ByteArrayInputStream(big), big.length, sealed);
      upload = store.createMultipartUpload("keys", "mp", sealed);
    }
    Path onlyNew = config("only-new.yaml", "  keyFile: " + newKey + "\n");
    try (ErasureStore store = ArrayConfig.load(onlyNew).open()) {
      assertThatThrownBy(() -> store.get("keys", "big", 0, -1, 0).close())
          .isInstanceOf(StoreException.class);
    }
    Path rotating =
        config(
            "rotating.yaml", "  keyFile: " + newKey + "\n  previousKeyFiles: [" + oldKey + "]\n");
    assertThat(racs("keys", "rotate", "--config", rotating.toString(), "--dry-run"))
        .as(err.toString())
        .isZero();
    assertThat(out.toString()).contains("to re-wrap: 18,");
    assertThat(racs("keys", "rotate", "--config", rotating.toString())).as(err.toString()).isZero();
    // Two versions and one upload, each with a record on all six repositories.
    assertThat(out.toString()).contains("re-wrapped: 18, already current: 0, failed: 0");
    try (ErasureStore store = ArrayConfig.load(onlyNew).open()) {
      try (ObjectStore.ObjectReader r = store.get("keys", "small", 0, -1, 0)) {
        assertThat(r.body().readAllBytes()).isEqualTo(small);
      }
      try (ObjectStore.ObjectReader r = store.get("keys", "big", 0, -1, 0)) {
        assertThat(r.body().readAllBytes()).isEqualTo(big);
      }
      ObjectStore.PartInfo part =
          store.uploadPart(
              "keys", "mp", upload, 1, new ByteArrayInputStream(small), small.length, Map::of);
      store.completeMultipartUpload(
          "keys",
          "mp",
          upload,
          java.util.List.of(new ObjectStore.CompletedPart(1, part.etag())),
          p -> Map.of());
      try (ObjectStore.ObjectReader r = store.get("keys", "mp", 0, -1, 0)) {
        assertThat(r.body().readAllBytes()).isEqualTo(small);
      }
    }
    assertThat(racs("keys", "rotate", "--config", onlyNew.toString())).isZero();
    assertThat(out.toString()).contains("re-wrapped: 0, already current: 18");
  }
}
