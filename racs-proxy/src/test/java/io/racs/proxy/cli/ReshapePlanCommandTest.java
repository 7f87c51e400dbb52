package io.racs.proxy.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.config.ArrayConfig;
import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.api.ObjectStore;
import io.racs.repos.Repository;
import io.racs.repos.config.RepositoryFactory;
import io.racs.repos.fs.FsRepository;
import io.racs.testkit.SeededBytes;
import io.racs.testkit.TestSeed;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Proves {@code racs reshape plan} on real {@code fs} repositories: for a 4x2 array over six grown
 * to 6x3 over nine it names the kept and added repositories, counts every version once (delete
 * markers and older versions too) and the requests each repository would be asked, prices them and
 * gives the time at the rate; it changes nothing on any repository; an added repository that holds
 * data is an invalid target (exit 2, one line); a target equal to the array has nothing to move.
 */
class ReshapePlanCommandTest {
  @TempDir Path dir;
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();
  private Path current;

  private int racs(String... args) {
    return RacsMain.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
  }

  private Path config(String name, String geometry, int repositories) throws IOException {
    return FsArrayFiles.write(dir, name, geometry, repositories, "  blockSize: 64KiB\n");
  }

  /**
   * Three striped versions (one object, two versions of another), one inline object and one delete
   * marker, in a plain and a versioned bucket.
   */
  @BeforeEach
  void array() throws IOException {
    long seed = TestSeed.get();
    current = config("racs.yaml", "4x2", 6);
    try (ErasureStore store = ArrayConfig.load(current).open()) {
      store.createBucket("plain");
      store.createBucket("kept");
      store.enableVersioning("kept");
      put(store, "plain", "big", SeededBytes.bytes(seed, 300_000));
      put(store, "plain", "small", SeededBytes.bytes(seed + 1, 1000));
      put(store, "kept", "v", SeededBytes.bytes(seed + 2, 200_000));
      put(store, "kept", "v", SeededBytes.bytes(seed + 3, 200_000));
      store.delete("kept", "v");
    }
  }

  private static void put(ErasureStore store, String bucket, String key, byte[] data) {
    store.put(
        bucket,
        key,
        new ByteArrayInputStream(data),
        data.length,
        ObjectStore.PutOptions.defaults());
  }

  @Test
  void plan_whenGrowing4x2To6x3_countsEachRepositorysWorkAndChangesNothing() throws IOException {
    Path target = config("new.yaml", "6x3", 9);
    Map<String, String> before = files();

    int code = racs("reshape", "plan", "--config", current.toString(), "--to", target.toString());

    assertThat(code).as(err.toString()).isZero();
    String text = out.toString();
    assertThat(text)
        .contains("4x2 over r0, r1, r2, r3, r4, r5 -> 6x3 over r0, r1, r2, r3, r4, r5, r6, r7, r8")
        .contains("kept: r0, r1, r2, r3, r4, r5; added: r6 (slot 6), r7 (slot 7), r8 (slot 8)")
        .contains("retired: none")
        .contains("versions: 5, to move: 5")
        .contains("total price: ")
        .contains("time at 50 MB/s: ");
    // An added repository: one shard of each of the 3 striped parts, and the 5 records (the small
    // object's shard inside its record); nothing read, listed or deleted.
    assertThat(row(text, "r6")).containsExactly("r6", "added", "0", "8", "0", "0");
    // A kept one: the same writes; one listing page per bucket (2); the old shards of the 3 striped
    // parts and the 5 old records deleted.
    List<String> r0 = row(text, "r0");
    assertThat(List.of(r0.get(0), r0.get(1), r0.get(3), r0.get(4), r0.get(5)))
        .containsExactly("r0", "kept", "8", "2", "8");
    assertThat(files()).as("plan changes nothing").isEqualTo(before);
  }

  @Test
  void plan_whenShrinkingTo3x2OverFive_retiresTheSixthWhichIsOnlyReadAndEmptied()
      throws IOException {
    Path target = config("new.yaml", "3x2", 5);

    int code = racs("reshape", "plan", "--config", current.toString(), "--to", target.toString());

    assertThat(code).as(err.toString()).isZero();
    assertThat(out.toString())
        .contains("4x2 over r0, r1, r2, r3, r4, r5 -> 3x2 over r0, r1, r2, r3, r4")
        .contains("added: none; retired: r5")
        .contains("versions: 5, to move: 5");
    List<String> r5 = row(out.toString(), "r5");
    // Nothing written; its old shards of the 3 striped parts and its 5 records deleted.
    assertThat(List.of(r5.get(0), r5.get(1), r5.get(3), r5.get(5)))
        .containsExactly("r5", "retired", "0", "8");
  }

  @Test
  void plan_whenTargetIsTheArray_hasNothingToMove() {
    int code = racs("reshape", "plan", "--config", current.toString(), "--to", current.toString());

    assertThat(code).as(err.toString()).isZero();
    assertThat(out.toString())
        .contains("versions: 5, to move: 0")
        .contains("nothing to move: every version is in the target layout already");
  }

  @Test
  void plan_whenAddedRepositoryHoldsData_exits2WithOneLine() throws IOException {
    Path target = config("new.yaml", "6x3", 9);
    try (Repository r7 = RepositoryFactory.create(ArrayConfig.load(target).slots().get(7))) {
      byte[] stray = "not empty".getBytes(StandardCharsets.UTF_8);
      r7.put("stray", new ByteArrayInputStream(stray), stray.length);
    }
    Map<String, String> before = files();

    int code =
        racs(
            "reshape",
            "plan",
            "--config",
            current.toString(),
            "--to",
            target.toString(),
            "--rate",
            "10");

    assertThat(code).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString().strip())
        .isEqualTo(
            "racs reshape plan: --to: added repository r7 holds data (expected: an empty"
                + " repository to add)");
    assertThat(files()).isEqualTo(before);
  }

  @Test
  void help_listsThePlanExitCodes() {
    assertThat(racs("reshape", "plan", "--help")).isZero();
    assertThat(out.toString())
        .contains("Exit codes:")
        .contains("0   planned")
        .contains("2   invalid command line, configuration or target");
  }

  /** One repository's row of requests: name, role, GETs, PUTs, LISTs, DELETEs. */
  private static List<String> row(String text, String name) {
    for (String line : text.split("\n")) {
      // name role GET <GET bytes: number unit> PUT <PUT bytes: number unit> LIST DELETE price
      String[] f = line.trim().split("\\s+");
      if (f.length == 11 && f[0].equals(name)) {
        return List.of(f[0], f[1], f[2], f[5], f[8], f[9]);
      }
    }
    throw new AssertionError("no row for " + name + " in:\n" + text);
  }

  /**
   * Every file under the temporary directory with its size and mtime, but the configuration files
   * and the fs repositories' own root markers, which an fs repository writes at its first use by
   * anyone, a listing too (FsRepository).
   */
  private Map<String, String> files() throws IOException {
    Map<String, String> all = new TreeMap<>();
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.filter(Files::isRegularFile).toList()) {
        String name = p.getFileName().toString();
        if (!name.endsWith(".yaml") && !name.equals(FsRepository.ROOT_MARKER)) {
          all.put(dir.relativize(p).toString(), Files.size(p) + "@" + Files.getLastModifiedTime(p));
        }
      }
    }
    return all;
  }
}
