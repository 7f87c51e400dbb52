package io.racs.bench.block;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.racs.bench.cli.BenchMain;
import io.racs.proxy.cli.ExitCodes;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Proves {@code block matrix} runs every test for every record ≤ file, leaves out records larger
 * than the file, marks cells past {@code --max-cells} as skipped (never zero), and writes the
 * IOzone-style CSV tables and the HTML heat maps.
 */
class IozoneMatrixTest {
  @TempDir Path dir;

  @Test
  void run_whenSmallMatrix_everyCellHasAPositiveRate() throws Exception {
    IozoneMatrix.Config config =
        IozoneMatrix.Config.builder(dir.resolve("m"))
            .fileSizes(List.of(64L << 10, 128L << 10))
            .recordSizes(List.of(4096, 65536, 131072))
            .tests(List.of(IozoneMatrix.Test.values()))
            .direct(true)
            .seed(5)
            .build();
    List<IozoneMatrix.Cell> cells =
        IozoneMatrix.of(config).run(new PrintWriter(new StringWriter()));
    // 64KiB: records 4KiB, 64KiB; 128KiB: 4KiB, 64KiB, 128KiB — 5 pairs × 11 tests.
    assertThat(cells).hasSize(55);
    assertThat(cells).allSatisfy(c -> assertThat(c.kilobytesPerSecond()).isPositive());
    assertThat(Files.exists(dir.resolve("m"))).isFalse();
  }

  @Test
  void matrix_whenMaxCells_marksTheRestSkippedAndWritesTables() throws Exception {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    Path results = dir.resolve("out");
    int code =
        BenchMain.run(
            new PrintWriter(out, true),
            new PrintWriter(err, true),
            "block",
            "matrix",
            "--dir",
            dir.toString(),
            "--max-file",
            "128KiB",
            "--max-record",
            "64KiB",
            "--tests",
            "write,read,randread",
            "--max-cells",
            "10",
            "--out",
            results.toString());
    assertThat(code).as(err.toString()).isEqualTo(ExitCodes.OK);
    // 64KiB and 128KiB × 4..64KiB records = 10 pairs × 3 tests = 30 cells, 20 skipped.
    assertThat(out.toString()).contains("kB", "reclen", "random read", "20 cells skipped");
    List<String> csv = Files.readAllLines(results.resolve("matrix.csv"));
    assertThat(csv)
        .contains("\"write report\",KB/s,rows: file size KiB,columns: record size KiB")
        .contains("file KiB,4,8,16,32,64");
    assertThat(csv.stream().filter(l -> l.startsWith("128,")))
        .allSatisfy(l -> assertThat(l).isEqualTo("128,skipped,skipped,skipped,skipped,skipped"));
    assertThat(Files.readString(results.resolve("report.html")))
        .contains("<h2>write</h2>", "hsl(", "skipped");
    JsonNode json = new ObjectMapper().readTree(results.resolve("results.json").toFile());
    assertThat(json.get("kind").asText()).isEqualTo("block-matrix");
    assertThat(json.at("/plan/tests"))
        .extracting(JsonNode::asText)
        .containsExactly("write", "read", "randread");
    JsonNode points = json.get("points");
    assertThat(points).hasSize(30);
    assertThat(points.get(0).get("id").asText()).isEqualTo("write/64KiB/4KiB");
    assertThat(points.get(0).get("kilobytesPerSecond").asDouble()).isPositive();
    assertThat(points)
        .filteredOn(p -> p.get("skipped").asBoolean())
        .hasSize(20)
        .allSatisfy(p -> assertThat(p.get("kilobytesPerSecond").isNull()).isTrue());
  }
}
