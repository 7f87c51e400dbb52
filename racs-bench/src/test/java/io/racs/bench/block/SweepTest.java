package io.racs.bench.block;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.racs.bench.cli.BenchMain;
import io.racs.proxy.cli.ExitCodes;
import io.racs.testkit.SeededBytes;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Proves {@code block sweep} touches every block exactly once per pass with O_DIRECT on a real disk
 * directory, for every pattern and thread count, reports its points in the console, JSON, CSV and
 * HTML outputs, and rejects bad input in one line with exit code 2.
 */
class SweepTest {
  @TempDir Path dir;

  @Test
  void run_whenOnePass_movesExactlyTheFileOncePerPoint() throws Exception {
    Sweep sweep =
        Sweep.prepare(
            Sweep.Config.builder(dir.resolve("f"))
                .fileSizeBytes(1 << 20)
                .records(List.of(4096, 65536))
                .threads(List.of(1, 3))
                .patterns(List.of(Sweep.Pattern.values()))
                .passes(1)
                .direct(true)
                .seed(7)
                .build());
    List<Sweep.Point> points = sweep.runAll(p -> {});
    assertThat(points).hasSize(16);
    for (Sweep.Point p : points) {
      assertThat(p.bytes()).as(p.id()).isEqualTo(1 << 20);
      assertThat(p.ops()).isEqualTo((1 << 20) / p.recordBytes());
      assertThat(p.latency().getTotalCount()).isEqualTo(p.ops());
      assertThat(p.megabytesPerSecond()).isPositive();
    }
  }

  @Test
  void prepare_whenReuseFileAndFileBigEnough_keepsItsDataElseFills() throws Exception {
    Path file = dir.resolve("f");
    byte[] data = SeededBytes.bytes(42, 1 << 20);
    Files.write(file, data);
    Sweep kept = Sweep.prepare(config(file, 1 << 20, true));
    assertThat(kept.filled()).isFalse();
    assertThat(Files.readAllBytes(file)).isEqualTo(data);
    Sweep filled = Sweep.prepare(config(file, 2 << 20, true));
    assertThat(filled.filled()).isTrue();
    assertThat(Files.size(file)).isEqualTo(2 << 20);
    assertThat(java.util.Arrays.copyOf(Files.readAllBytes(file), data.length)).isNotEqualTo(data);
  }

  @Test
  void prepare_whenReuseFileWithVerify_failsAsUsage() {
    Sweep.Config verifying =
        Sweep.Config.builder(dir.resolve("f"))
            .fileSizeBytes(1 << 20)
            .records(List.of(65536))
            .threads(List.of(1))
            .patterns(List.of(Sweep.Pattern.SEQREAD))
            .passes(1)
            .direct(true)
            .seed(7)
            .verify(true)
            .reuseFile(true)
            .build();
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> Sweep.prepare(verifying))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("--reuse-file:");
  }

  private static Sweep.Config config(Path file, long size, boolean reuse) {
    return Sweep.Config.builder(file)
        .fileSizeBytes(size)
        .records(List.of(65536))
        .threads(List.of(1))
        .patterns(List.of(Sweep.Pattern.SEQREAD))
        .passes(1)
        .direct(true)
        .seed(7)
        .reuseFile(reuse)
        .build();
  }

  @Test
  void sweep_whenCommandLine_printsTableAndWritesJsonCsvHtml() throws Exception {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    Path results = dir.resolve("out");
    int code =
        BenchMain.run(
            new PrintWriter(out, true),
            new PrintWriter(err, true),
            "block",
            "sweep",
            "--file",
            dir.resolve("f").toString(),
            "--file-size",
            "2MiB",
            "--records",
            "4KiB,1MiB",
            "--threads",
            "1,2",
            "--duration",
            "0.05",
            "--direct",
            "--theoretical",
            "500",
            "--out",
            results.toString());
    assertThat(code).as(err.toString()).isEqualTo(ExitCodes.OK);
    assertThat(out.toString())
        .contains("pattern", "MB/s", "IOPS", "p99.9 ms", "randwrite", "1MiB", "direct");
    JsonNode json = new ObjectMapper().readTree(results.resolve("results.json").toFile());
    assertThat(json.get("kind").asText()).isEqualTo("block-sweep");
    assertThat(json.get("points")).hasSize(16);
    assertThat(json.get("points").get(0).get("efficiency").isNumber()).isTrue();
    assertThat(Files.readAllLines(results.resolve("results.csv")))
        .hasSize(17)
        .first()
        .isEqualTo(SweepReport.CSV_HEADER);
    assertThat(Files.readString(results.resolve("report.html")))
        .contains("<svg", "seqread: throughput", "4KiB", "1MiB");
  }

  @Test
  void sweep_whenBufferedOnSmallFile_warnsAboutPageCache() {
    StringWriter out = new StringWriter();
    int code =
        BenchMain.run(
            new PrintWriter(out, true),
            new PrintWriter(new StringWriter(), true),
            "block",
            "sweep",
            "--file",
            dir.resolve("f").toString(),
            "--file-size",
            "256KiB",
            "--records",
            "64KiB",
            "--threads",
            "1",
            "--patterns",
            "seqread",
            "--passes",
            "1",
            "--out",
            dir.resolve("out").toString());
    assertThat(code).isEqualTo(ExitCodes.OK);
    assertThat(out.toString()).contains("warning: buffered I/O", "page cache", "BUFFERED");
  }

  @Test
  void sweep_whenPatternUnknown_failsAsUsageInOneLine() {
    StringWriter err = new StringWriter();
    int code =
        BenchMain.run(
            new PrintWriter(new StringWriter()),
            new PrintWriter(err, true),
            "block",
            "sweep",
            "--file",
            dir.resolve("f").toString(),
            "--file-size",
            "1MiB",
            "--patterns",
            "seqread,zigzag");
    assertThat(code).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString())
        .isEqualTo(
            "racs bench block sweep: --patterns: zigzag (expected: seqread, seqwrite, randread or"
                + " randwrite)"
                + System.lineSeparator());
  }
}
