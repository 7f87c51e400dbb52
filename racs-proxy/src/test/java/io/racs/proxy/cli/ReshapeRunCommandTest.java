package io.racs.proxy.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.config.ArrayConfig;
import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.format.Layout;
import io.racs.proxy.store.format.PartMeta;
import io.racs.proxy.store.format.VersionMeta;
import io.racs.proxy.store.heal.HealLease;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Proves {@code racs reshape run} and {@code status}'s progress on real {@code fs} repositories, a
 * geometry-only reshape 4x2 -> 3x3 over six: {@code run} moves every object and exits 0, {@code
 * status} then says complete (0) and the new file reads every object byte-exact; a run stopped
 * after a few keys exits 3, {@code status} shows what moved (3), and a second run finishes; a run
 * while another proxy holds the heal lease fails in one line naming it and moves nothing; a run
 * with a repository down pauses naming it, and {@code status} then exits 1 naming the pause. {@code
 * start} records the plan's totals and {@code status} says exactly what remains of them; a version
 * whose shards are gone fails the reshape ({@code run} and {@code status} exit 1 naming it, {@code
 * start} is refused, {@code abort} works); an upload begun in the old layout and still open makes
 * the mover wait, and {@code status} says so and exits 3. Data comes from seed {@link #SEED}.
 */
class ReshapeRunCommandTest {
  private static final long SEED = 3801;
  private static final String ARRAY = "  blockSize: 4KiB\n  slowShardTimeout: 1s\n";

  @TempDir Path dir;
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();
  private Path current;
  private Path target;
  private final Map<String, byte[]> objects = new LinkedHashMap<>();

  @BeforeEach
  void array() throws IOException {
    current = FsArrayFiles.write(dir, "racs.yaml", "4x2", 6, ARRAY);
    target = FsArrayFiles.write(dir, "new.yaml", "3x3", 6, ARRAY);
    Random random = new Random(SEED);
    System.out.println("ReshapeRunCommandTest seed " + SEED);
    try (ErasureStore store = ArrayConfig.load(current).open()) {
      store.createBucket("bkt");
      for (int i = 0; i < 8; i++) {
        byte[] data = new byte[random.nextInt(3 * 4096 * 4)];
        random.nextBytes(data);
        objects.put("k" + i, data);
        store.put(
            "bkt",
            "k" + i,
            new ByteArrayInputStream(data),
            data.length,
            ObjectStore.PutOptions.defaults());
      }
    }
  }

  private int racs(String... args) {
    out.getBuffer().setLength(0);
    err.getBuffer().setLength(0);
    return RacsMain.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
  }

  /** {@code racs reshape run --fence 0} over the current file, stopped when {@code stop} says. */
  private int runStopped(java.util.function.BooleanSupplier stop) {
    out.getBuffer().setLength(0);
    err.getBuffer().setLength(0);
    CommandLine cli = RacsMain.commandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    ReshapeRunCommand run =
        cli.getSubcommands().get("reshape").getSubcommands().get("run").getCommand();
    run.alsoStop = stop;
    return cli.execute("reshape", "run", "--fence", "0", "--config", current.toString());
  }

  private int start() {
    return racs("reshape", "start", "--config", current.toString(), "--to", target.toString());
  }

  private int status() {
    return racs("reshape", "status", "--config", current.toString());
  }

  private void assertEveryObjectReadsByteExactWith(Path file) throws IOException {
    try (ErasureStore store = ArrayConfig.load(file).open()) {
      for (Map.Entry<String, byte[]> o : objects.entrySet()) {
        try (ObjectStore.ObjectReader read = store.read(store.head("bkt", o.getKey()), 0, -1)) {
          assertThat(read.body().readAllBytes()).as(o.getKey()).isEqualTo(o.getValue());
        }
      }
    }
  }

  private long objectBytes() {
    return objects.values().stream().mapToLong(b -> b.length).sum();
  }

  @Test
  void run_whenReshapeStarted_movesEverythingAndExits0() throws IOException {
    long bytes = objectBytes();
    assertThat(start()).as(err.toString()).isZero();
    assertThat(out.toString())
        .contains("racs reshape run --config")
        .contains("to move: 8 versions, " + bytes + " bytes (of 8 versions)");
    assertThat(status()).isEqualTo(ExitCodes.RUNNING);
    assertThat(out.toString())
        .contains("nothing moved yet")
        .contains("remaining: 8 versions, " + bytes + " bytes of the 8 versions, " + bytes)
        .contains(
            "ETA: "
                + (long) Math.ceil(bytes / 50e6)
                + "s at 50.0 MB/s (the rate recorded at start; no rate observed yet)");

    assertThat(racs("reshape", "run", "--fence", "0", "--config", current.toString()))
        .as(err.toString())
        .isZero();
    assertThat(out.toString())
        .contains("mover as reshape-")
        .contains("(heal lease)")
        .contains("reshape run: complete: " + objects.size() + " versions moved");

    assertThat(status()).isZero();
    assertThat(out.toString()).contains("reshape status: complete: the array is 3x3 over");
    assertEveryObjectReadsByteExactWith(target);
  }

  @Test
  void run_whenStoppedAfterKeys_exits3AndStatusShowsProgress() throws IOException {
    assertThat(start()).isZero();
    AtomicInteger asked = new AtomicInteger();

    // as a SIGINT after three keys
    assertThat(runStopped(() -> asked.incrementAndGet() > 4))
        .as(err.toString())
        .isEqualTo(ExitCodes.RUNNING);
    assertThat(out.toString()).contains("reshape run: stopped: ").contains("resumes");

    assertThat(status()).isEqualTo(ExitCodes.RUNNING);
    assertThat(out.toString())
        .containsPattern("sweep 1, in bucket bkt: [1-4] versions moved, [1-9][0-9]* bytes");
    // What is left is the plan less what moved, exactly.
    java.util.regex.Matcher moved =
        java.util.regex.Pattern.compile("([0-9]+) versions moved, ([0-9]+) bytes")
            .matcher(out.toString());
    assertThat(moved.find()).isTrue();
    long versionsLeft = 8 - Long.parseLong(moved.group(1));
    long bytesLeft = objectBytes() - Long.parseLong(moved.group(2));
    assertThat(out.toString())
        .contains(
            "remaining: "
                + versionsLeft
                + " versions, "
                + bytesLeft
                + " bytes of the 8 versions, "
                + objectBytes()
                + " bytes planned at start")
        .containsPattern("ETA: [0-9]+s at [0-9.]+ MB/s \\((observed|the rate recorded at start)");

    assertThat(racs("reshape", "run", "--fence", "0", "--config", current.toString()))
        .as(err.toString())
        .isZero();
    assertThat(out.toString()).contains("reshape: resuming sweep 1 in bucket bkt");
    assertThat(status()).isZero();
    assertEveryObjectReadsByteExactWith(target);
  }

  @Test
  void run_whenSlotDown_pausesAndStatusExits1NamingIt() throws IOException {
    assertThat(start()).isZero();
    deleteTree(dir.resolve("r5")); // a repository root gone: unavailable, not empty
    AtomicInteger asked = new AtomicInteger();

    // stopped while it waits for the slot
    assertThat(runStopped(() -> asked.incrementAndGet() > 1))
        .as(err.toString())
        .isEqualTo(ExitCodes.RUNNING);
    assertThat(out.toString())
        .contains("reshape: paused: slot 5")
        .contains("reshape run: stopped: 0 versions moved");

    assertThat(status()).as(err.toString()).isEqualTo(ExitCodes.FAILURE);
    assertThat(out.toString())
        .contains("reshape status: running since ")
        .contains("0 versions moved")
        .contains("the mover is paused: slot 5");
  }

  @Test
  void run_whenAVersionIsLost_failsAndStatusExits1NamingIt() throws IOException {
    assertThat(start()).isZero();
    String key =
        objects.entrySet().stream()
            .max(Map.Entry.comparingByValue(java.util.Comparator.comparingInt(b -> b.length)))
            .orElseThrow()
            .getKey();
    String versionId;
    // Its shards deleted on three of six repositories: fewer than k = 4 exist anywhere.
    try (ErasureStore store = ArrayConfig.load(current).open()) {
      VersionMeta meta = store.head("bkt", key);
      versionId = meta.versionId();
      PartMeta part = meta.parts().getFirst();
      assertThat(part.inline()).as("the largest object is striped").isFalse();
      for (int i = 0; i < 3; i++) {
        store.repositories().get(part.slots().get(i)).delete(Layout.shard(part.dataId(), i));
      }
    }
    String named = "bkt/" + key + " version " + versionId + " cannot be read: 3 of the 6 shards";

    assertThat(racs("reshape", "run", "--fence", "0", "--config", current.toString()))
        .isEqualTo(ExitCodes.FAILURE);
    assertThat(out.toString()).contains("reshape: failed: " + named);

    assertThat(status()).isEqualTo(ExitCodes.FAILURE);
    assertThat(out.toString()).contains("reshape status: failed: " + named);
    // No mover runs it again; start is refused naming it; abort gives it up.
    assertThat(racs("reshape", "run", "--fence", "0", "--config", current.toString()))
        .isEqualTo(ExitCodes.FAILURE);
    assertThat(out.toString()).contains("reshape run: failed: 0 versions moved");
    assertThat(start()).isEqualTo(ExitCodes.FAILURE);
    assertThat(err.toString())
        .contains("a reshape is already recorded (failed: " + named)
        .contains("; abort it first");
    assertThat(racs("reshape", "abort", "--config", current.toString()))
        .as(err.toString())
        .isZero();
    assertThat(status()).isZero();
    assertThat(out.toString()).contains("reshape status: aborted: the array is 4x2 over");
  }

  @Test
  void status_whileAnUploadBegunInTheOldLayoutIsOpen_saysTheMoverWaitsAndExits3()
      throws IOException {
    String upload;
    try (ErasureStore store = ArrayConfig.load(current).open()) {
      upload = store.createMultipartUpload("bkt", "open", ObjectStore.PutOptions.defaults());
    }
    assertThat(start()).isZero();

    // stopped once it says what it waits for
    assertThat(runStopped(() -> out.toString().contains("reshape: waiting for")))
        .as(err.toString())
        .isEqualTo(ExitCodes.RUNNING);
    String waiting = "waiting for 1 upload begun in the old layout (oldest: bkt/open, begun ";
    assertThat(out.toString()).contains("reshape: " + waiting);

    assertThat(status()).as("waiting is no error").isEqualTo(ExitCodes.RUNNING);
    assertThat(out.toString())
        .contains("the mover is " + waiting)
        .contains("): complete or abort it")
        .doesNotContain("the mover is paused");

    try (ErasureStore store = ArrayConfig.load(current).open()) {
      store.abortMultipartUpload("bkt", "open", upload);
    }
    assertThat(racs("reshape", "run", "--fence", "0", "--config", current.toString()))
        .as(err.toString())
        .isZero();
    assertThat(status()).isZero();
    assertEveryObjectReadsByteExactWith(target);
  }

  private static void deleteTree(Path root) throws IOException {
    try (var paths = java.nio.file.Files.walk(root)) {
      for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        java.nio.file.Files.delete(p);
      }
    }
  }

  @Test
  void run_whenAnotherProxyHoldsTheLease_failsInOneLineNamingIt() throws IOException {
    assertThat(start()).isZero();
    try (ErasureStore other = ArrayConfig.load(current).open()) {
      HealLease lease = HealLease.create(other, "proxy-a:9000", HealLease.DEFAULT_TTL);
      assertThat(lease.tryAcquire()).isTrue();
      try {
        assertThat(racs("reshape", "run", "--fence", "0", "--config", current.toString()))
            .isEqualTo(ExitCodes.FAILURE);
        assertThat(err.toString().strip())
            .startsWith("racs reshape run: the heal lease is held by proxy-a:9000")
            .doesNotContain("\n");
      } finally {
        lease.release();
      }
    }
    assertThat(status()).isEqualTo(ExitCodes.RUNNING);
    assertThat(out.toString()).contains("nothing moved yet");
  }
}
