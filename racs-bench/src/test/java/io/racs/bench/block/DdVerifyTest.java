package io.racs.bench.block;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.racs.bench.cli.BenchMain;
import io.racs.proxy.cli.ExitCodes;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Proves {@code block dd --verify} on a real disk directory: a stamped write reads back clean with
 * the key learnt from block 0 or given; a block zeroed on disk is reported lost, one copied over
 * another misplaced, one put back from an earlier write stale, and a key from another write makes
 * every block foreign — each with its offset, and the command exits 1; a file without stamps is a
 * usage error.
 */
class DdVerifyTest {
  private static final int BLOCK = 64 * 1024;

  @TempDir Path dir;

  private final StringWriter err = new StringWriter();

  private int dd(StringWriter out, String... args) {
    String[] all = new String[args.length + 2];
    all[0] = "block";
    all[1] = "dd";
    System.arraycopy(args, 0, all, 2, args.length);
    return BenchMain.run(new PrintWriter(out, true), new PrintWriter(err, true), all);
  }

  @Test
  void runVerified_whenWrittenThenRead_checksEveryBlockAgainstBlockZerosKey() throws Exception {
    Path file = dir.resolve("f");
    long key = Stamp.key(77, 1);
    DdRun.Result w =
        DdRun.builder(file, DdRun.Mode.WRITE)
            .blockBytes(BLOCK)
            .count(16)
            .direct(true)
            .sync(true)
            .verify(key)
            .run();
    assertThat(w.runKey()).isEqualTo(key);
    DdRun.Result r =
        DdRun.builder(file, DdRun.Mode.READ)
            .blockBytes(BLOCK)
            .count(16)
            .direct(true)
            .verify(0)
            .run();
    assertThat(r.runKey()).isEqualTo(key);
    assertThat(r.verifiedBlocks()).isEqualTo(16);
    assertThat(r.failures()).isEmpty();
    assertThat(r.failedBlocks()).isZero();
  }

  @Test
  void runVerified_whenBlocksDamagedOnDisk_reportsEachOffsetAndKind() throws Exception {
    Path file = dir.resolve("f");
    DdRun.builder(file, DdRun.Mode.WRITE)
        .blockBytes(BLOCK)
        .count(16)
        .direct(true)
        .sync(true)
        .verify(Stamp.key(5, 1))
        .run();
    ByteBuffer old = ByteBuffer.allocate(BLOCK);
    try (FileChannel c = FileChannel.open(file, StandardOpenOption.READ)) {
      c.read(old, 3L * BLOCK);
    }
    DdRun.builder(file, DdRun.Mode.WRITE)
        .blockBytes(BLOCK)
        .count(16)
        .direct(true)
        .sync(true)
        .verify(Stamp.key(5, 2))
        .run();
    try (FileChannel c =
        FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.READ)) {
      c.write(ByteBuffer.allocate(4096), 5L * BLOCK + 8192);
      ByteBuffer first = ByteBuffer.allocate(BLOCK);
      c.read(first, 0);
      c.write(first.flip(), 9L * BLOCK);
      c.write(old.flip(), 3L * BLOCK);
      c.force(true);
    }
    DdRun.Result r =
        DdRun.builder(file, DdRun.Mode.READ)
            .blockBytes(BLOCK)
            .count(16)
            .direct(true)
            .verify(0)
            .run();
    assertThat(r.verifiedBlocks()).isEqualTo(16);
    assertThat(r.failedBlocks()).isEqualTo(3);
    assertThat(r.failures())
        .extracting(Stamp.Failure::toString)
        .containsExactly(
            "stale block at offset 196608: generation 1 (expected: 2, the last write)",
            "lost block at offset 335872: zeros where a stamped block was written",
            "misplaced block at offset 589824: holds the block of offset 0");
  }

  @Test
  void dd_whenVerifiedWriteThenRead_printsTheKeyAndWritesJson() throws Exception {
    Path file = dir.resolve("f");
    StringWriter written = new StringWriter();
    int code =
        dd(
            written,
            "--file",
            file.toString(),
            "--mode",
            "write",
            "--bs",
            "64KiB",
            "--count",
            "8",
            "--direct",
            "--sync",
            "--runs",
            "2",
            "--verify",
            "--out",
            dir.resolve("w").toString());
    assertThat(code).as(err.toString()).isEqualTo(ExitCodes.OK);
    assertThat(written.toString()).containsPattern("stamped with run key [0-9a-f]{8}00000002");
    StringWriter read = new StringWriter();
    code =
        dd(
            read,
            "--file",
            file.toString(),
            "--mode",
            "read",
            "--bs",
            "64KiB",
            "--count",
            "8",
            "--direct",
            "--runs",
            "3",
            "--verify",
            "--out",
            dir.resolve("r").toString());
    assertThat(code).as(err.toString()).isEqualTo(ExitCodes.OK);
    assertThat(read.toString())
        .containsPattern("verified 8 blocks against run key [0-9a-f]{8}00000002: all good");
    JsonNode json = new ObjectMapper().readTree(dir.resolve("r/results.json").toFile());
    assertThat(json.get("kind").asText()).isEqualTo("block-dd");
    assertThat(json.get("schemaVersion").asInt()).isEqualTo(1);
    assertThat(json.at("/plan/verify").asBoolean()).isTrue();
    JsonNode point = json.get("points").get(0);
    assertThat(point.get("id").asText()).isEqualTo("read/64KiB/x8");
    assertThat(point.at("/megabytesPerSecond/n").asInt()).isEqualTo(3);
    assertThat(point.at("/megabytesPerSecond/halfWidth").isNumber()).isTrue();
    assertThat(point.get("runs")).hasSize(3);
    assertThat(point.get("verifiedBlocks").asLong()).isEqualTo(24);
    assertThat(point.get("failedBlocks").asLong()).isZero();
  }

  @Test
  void dd_whenReadWithAnotherWritesKey_reportsForeignBlocksAndExitsWithFailure() throws Exception {
    Path file = dir.resolve("f");
    DdRun.builder(file, DdRun.Mode.WRITE)
        .blockBytes(BLOCK)
        .count(4)
        .direct(true)
        .sync(true)
        .verify(Stamp.key(9, 1))
        .run();
    StringWriter read = new StringWriter();
    int code =
        dd(
            read,
            "--file",
            file.toString(),
            "--mode",
            "read",
            "--bs",
            "64KiB",
            "--count",
            "4",
            "--direct",
            "--runs",
            "1",
            "--verify",
            "--run-key",
            DdReport.key(Stamp.key(8, 1)),
            "--out",
            dir.resolve("r").toString());
    assertThat(code).isEqualTo(ExitCodes.FAILURE);
    assertThat(read.toString())
        .contains("VERIFY FAILED: foreign block at offset 0: run id 9 (expected: 8)")
        .contains("VERIFY FAILED: foreign block at offset 196608")
        .contains("verification FAILED: 4 bad blocks");
    JsonNode json = new ObjectMapper().readTree(dir.resolve("r/results.json").toFile());
    assertThat(json.at("/points/0/runs/0/verifyFailures")).hasSize(4);
    assertThat(json.at("/points/0/runs/0/verifyFailures/1/kind").asText()).isEqualTo("foreign");
  }

  @Test
  void dd_whenReadVerifyOnUnstampedFile_failsAsUsageInOneLine() throws Exception {
    Path file = dir.resolve("f");
    DdRun.builder(file, DdRun.Mode.WRITE).blockBytes(BLOCK).count(2).direct(true).sync(true).run();
    int code =
        dd(
            new StringWriter(),
            "--file",
            file.toString(),
            "--mode",
            "read",
            "--bs",
            "64KiB",
            "--count",
            "2",
            "--verify",
            "--out",
            dir.resolve("r").toString());
    assertThat(code).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString())
        .startsWith("racs bench block dd: --verify: " + file + " holds no stamp at offset 0")
        .hasLineCount(1);
  }
}
