package io.racs.bench.block;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.bench.cli.BenchMain;
import io.racs.proxy.cli.ExitCodes;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Proves {@code block dd} moves exactly bs × count bytes with O_DIRECT on a real disk directory
 * (/tmp here is on the root disk, not tmpfs), refuses cleanly where the filesystem rejects O_DIRECT
 * (through a seam: this kernel's tmpfs accepts O_DIRECT), and checks its arguments.
 */
class DdRunTest {
  @TempDir Path dir;

  @Test
  void run_whenDirectWriteThenRead_movesExactlyBsTimesCount() throws Exception {
    Path file = dir.resolve("dd");
    DdRun.Result w =
        DdRun.builder(file, DdRun.Mode.WRITE)
            .blockBytes(64 * 1024)
            .count(4)
            .direct(true)
            .sync(true)
            .run();
    assertThat(w.bytes()).isEqualTo(256 * 1024);
    assertThat(w.direct()).isTrue();
    assertThat(Files.size(file)).isEqualTo(256 * 1024);
    DdRun.Result r =
        DdRun.builder(file, DdRun.Mode.READ).blockBytes(64 * 1024).count(4).direct(true).run();
    assertThat(r.bytes()).isEqualTo(256 * 1024);
    assertThat(r.megabytesPerSecond()).isPositive();
  }

  @Test
  void run_whenFilesystemRefusesDirect_saysSoClearly() {
    Path file = dir.resolve("dd");
    DdRun.Opener refusing =
        (f, options) -> {
          if (Arrays.asList(options).contains(DdRun.DIRECT)) {
            throw new IOException("Invalid argument");
          }
          return FileChannel.open(f, options);
        };
    assertThatThrownBy(
            () ->
                DdRun.builder(file, DdRun.Mode.WRITE)
                    .blockBytes(4096)
                    .count(1)
                    .direct(true)
                    .opener(refusing)
                    .run())
        .isInstanceOf(DdRun.DirectIoRefusedException.class)
        .hasMessageContaining("refuses O_DIRECT");
  }

  @Test
  void dd_whenCommandLine_printsEachRunAndTheMean() {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code =
        BenchMain.run(
            new PrintWriter(out, true),
            new PrintWriter(err, true),
            "block",
            "dd",
            "--file",
            dir.resolve("f").toString(),
            "--bs",
            "64KiB",
            "--count",
            "8",
            "--direct",
            "--sync",
            "--runs",
            "3",
            "--out",
            dir.resolve("out").toString());
    assertThat(code).as(err.toString()).isEqualTo(ExitCodes.OK);
    assertThat(out.toString())
        .contains("run 1: 524288 bytes (8 x 65536) written in", "(direct)", "run 3:", "mean ")
        .contains("99.9% CI, 3 runs, direct");
    // Three runs at 99.9% (t = 31.6) often give an interval wider than the mean: then, and only
    // then, a note says why.
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("mean ([0-9.]+) MB/s ± ([0-9.]+) ").matcher(out.toString());
    assertThat(m.find()).isTrue();
    boolean wide = Double.parseDouble(m.group(2)) > Double.parseDouble(m.group(1));
    assertThat(out.toString().contains("note: the interval is wider than the mean: 3 runs"))
        .as(out.toString())
        .isEqualTo(wide);
  }

  @Test
  void dd_whenBlockSizeUnaligned_failsAsUsage() {
    StringWriter err = new StringWriter();
    int code =
        BenchMain.run(
            new PrintWriter(new StringWriter()),
            new PrintWriter(err, true),
            "block",
            "dd",
            "--file",
            dir.resolve("f").toString(),
            "--bs",
            "1000",
            "--direct");
    assertThat(code).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString())
        .startsWith("racs bench block dd: bs: 1000 (expected: a multiple of the filesystem block")
        .hasLineCount(1);
  }
}
