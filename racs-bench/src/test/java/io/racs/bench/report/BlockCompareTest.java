package io.racs.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.racs.bench.cli.BenchMain;
import io.racs.proxy.cli.ExitCodes;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Proves {@code bench compare} reads the results of every block command (real small runs on a disk
 * directory): it prints new/old per point and metric, with an interval and a verdict where both
 * runs measured iterations (dd's runs, run's intervals) and without where a point is one
 * measurement (sweep, matrix); skipped matrix cells are named, not compared; the verdict follows
 * the interval (faster, slower, within noise; lower latency is faster); two kinds are refused.
 */
class BlockCompareTest {
  @TempDir Path dir;

  private final StringWriter err = new StringWriter();

  private int bench(StringWriter out, String... args) {
    return BenchMain.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
  }

  private String compare(Path a, Path b) {
    StringWriter out = new StringWriter();
    int code =
        bench(
            out,
            "compare",
            a.resolve("results.json").toString(),
            b.resolve("results.json").toString());
    assertThat(code).as(err.toString()).isEqualTo(ExitCodes.OK);
    return out.toString();
  }

  private Path twice(String name, List<String> args) {
    for (String run : List.of("a", "b")) {
      List<String> all = new ArrayList<>(args);
      all.add("--out");
      all.add(dir.resolve(name + "-" + run).toString());
      StringWriter out = new StringWriter();
      assertThat(bench(out, all.toArray(String[]::new))).as(err.toString()).isEqualTo(ExitCodes.OK);
    }
    return dir.resolve(name);
  }

  @Test
  void compare_whenTwoDdRuns_printsMegabytesPerSecondWithIntervalAndVerdict() {
    twice(
        "dd",
        List.of(
            "block",
            "dd",
            "--file",
            dir.resolve("f").toString(),
            "--bs",
            "64KiB",
            "--count",
            "16",
            "--direct",
            "--runs",
            "3"));
    String out = compare(dir.resolve("dd-a"), dir.resolve("dd-b"));
    assertThat(out).contains("write/64KiB/x16", "MB/s", "new/old", " – ");
    assertThat(out).containsAnyOf("faster", "slower", "within noise");
  }

  @Test
  void compare_whenTwoSweeps_printsEveryMetricWithoutInterval() {
    twice(
        "sweep",
        List.of(
            "block",
            "sweep",
            "--file",
            dir.resolve("f").toString(),
            "--file-size",
            "1MiB",
            "--records",
            "64KiB",
            "--threads",
            "1",
            "--patterns",
            "seqread,randwrite",
            "--duration",
            "0.05",
            "--direct"));
    String out = compare(dir.resolve("sweep-a"), dir.resolve("sweep-b"));
    assertThat(out)
        .contains("seqread/64KiB/t1", "randwrite/64KiB/t1", "MB/s", "IOPS", "p50 ms", "p99 ms")
        .contains("no interval (one measurement a side)")
        .doesNotContain("faster", "slower", "within noise");
  }

  @Test
  void compare_whenTwoVdbenchRuns_printsRateWithIntervalFromTheIntervals() throws Exception {
    Path params = dir.resolve("params");
    Files.write(
        params,
        List.of(
            "sd=sd1,lun=" + dir.resolve("lun") + ",size=1m,openflags=o_direct",
            "wd=wd1,sd=sd1,xfersize=4k,rdpct=100",
            "rd=rd1,wd=wd1,iorate=max,elapsed=0.3,interval=0.1,threads=1"));
    twice("run", List.of("block", "run", params.toString()));
    String out = compare(dir.resolve("run-a"), dir.resolve("run-b"));
    assertThat(out).contains("rd1/wd1/t1/4KiB/max", "IOPS", "MB/s", "resp ms", " – ");
    assertThat(out).containsAnyOf("faster", "slower", "within noise");
  }

  @Test
  void compare_whenMatrixCellsSkipped_namesThemAndComparesTheRest() {
    List<String> args =
        List.of(
            "block",
            "matrix",
            "--dir",
            dir.toString(),
            "--max-file",
            "128KiB",
            "--max-record",
            "64KiB",
            "--tests",
            "write,read",
            "--direct");
    List<String> a = new ArrayList<>(args);
    a.addAll(List.of("--out", dir.resolve("matrix-a").toString()));
    assertThat(bench(new StringWriter(), a.toArray(String[]::new))).isEqualTo(ExitCodes.OK);
    List<String> b = new ArrayList<>(args);
    b.addAll(List.of("--max-cells", "4", "--out", dir.resolve("matrix-b").toString()));
    assertThat(bench(new StringWriter(), b.toArray(String[]::new))).isEqualTo(ExitCodes.OK);
    String out = compare(dir.resolve("matrix-a"), dir.resolve("matrix-b"));
    assertThat(out)
        .contains("write/64KiB/4KiB", "KB/s", "no interval (one measurement a side)")
        .contains("read/128KiB/64KiB", "not measured in new (skipped)");
  }

  @Test
  void print_whenIntervalsApart_saysFasterOrSlowerByMetricDirection() {
    ObjectNode old = results("block-run", 1000, 2.0);
    ObjectNode faster = results("block-run", 2000, 1.0);
    StringWriter out = new StringWriter();
    assertThat(BlockCompare.print("block-run", old, faster, new PrintWriter(out))).isEqualTo(1);
    assertThat(out.toString().lines().filter(l -> l.contains("IOPS")))
        .singleElement()
        .asString()
        .contains("2.00", "faster");
    assertThat(out.toString().lines().filter(l -> l.contains("resp ms")))
        .singleElement()
        .asString()
        .contains("0.50", "faster");
    out.getBuffer().setLength(0);
    BlockCompare.print("block-run", faster, old, new PrintWriter(out));
    assertThat(out.toString().lines().filter(l -> l.contains("IOPS")))
        .singleElement()
        .asString()
        .contains("slower");
    out.getBuffer().setLength(0);
    BlockCompare.print("block-run", old, results("block-run", 1001, 2.0), new PrintWriter(out));
    assertThat(out.toString()).contains("within noise").doesNotContain("faster", "slower");
  }

  @Test
  void compare_whenKindsDiffer_failsAsUsage() {
    twice(
        "dd",
        List.of(
            "block", "dd", "--file", dir.resolve("f").toString(), "--bs", "64KiB", "--count", "2"));
    twice(
        "sweep",
        List.of(
            "block",
            "sweep",
            "--file",
            dir.resolve("g").toString(),
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
            "--direct"));
    int code =
        bench(
            new StringWriter(),
            "compare",
            dir.resolve("dd-a/results.json").toString(),
            dir.resolve("sweep-a/results.json").toString());
    assertThat(code).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString())
        .startsWith("racs bench compare: NEW: kind block-sweep (expected: block-dd,")
        .hasLineCount(1);
  }

  /** A one-point block-run result whose iops and response estimates have 1% half-widths. */
  private static ObjectNode results(String kind, double iops, double responseMillis) {
    ObjectNode root = JsonReport.MAPPER.createObjectNode();
    root.put("schemaVersion", 1);
    root.put("kind", kind);
    ObjectNode p = root.putArray("points").addObject();
    p.put("id", "rd1/wd1/t1/4KiB/max");
    estimate(p.putObject("iops"), iops);
    estimate(p.putObject("megabytesPerSecond"), iops * 4096 / 1e6);
    estimate(p.putObject("responseMillis"), responseMillis);
    return root;
  }

  private static void estimate(ObjectNode e, double mean) {
    // Ten samples with a standard deviation of 1% of the mean.
    e.put("mean", mean);
    e.put("stddev", mean / 100);
    e.put("n", 10);
    e.put("halfWidth", 4.781 * mean / 100 / Math.sqrt(10));
    e.put("confidence", 0.999);
  }
}
