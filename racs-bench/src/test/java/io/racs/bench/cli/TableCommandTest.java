package io.racs.bench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.bench.stats.Estimate;
import io.racs.proxy.cli.ExitCodes;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Proves {@code racs bench table} prints the points of results.json files as markdown and CSV in
 * the columns asked for (named, derived from the sampled CPU, or a path into the point), merges the
 * rounds of a run into means with the Student-t interval of {@link Estimate}, pairs each point with
 * another target's and divides them ({@code --vs}), and refuses bad input in one line with the
 * usage exit code.
 */
class TableCommandTest {
  @TempDir Path dir;
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    return BenchCli.run(out, err, "table", args);
  }

  /** A results.json with one point of {@code ops} ops/s (± 10) whose sampled CPU is given. */
  private Path results(String name, double ops, double userSeconds, long requests)
      throws IOException {
    Path file = dir.resolve(name + ".json");
    Files.writeString(
        file,
        """
        {"schemaVersion": 2, "kind": "object", "points": [
          {"id": "racs-1p/mixed/1MiB/c8/d0ms", "target": "racs-1p", "clients": 8,
           "throughput": {"opsPerSecond": {"mean": %s, "halfWidth": 10.0},
                          "megabytesPerSecond": {"mean": 41.25, "halfWidth": 2.0}},
           "latencyMillis": {"p50": 12.5, "p90": 30.0, "p99": 81.0},
           "errorsTotal": 0,
           "sampledCpu": {"pids": [7], "userSeconds": %s, "systemSeconds": 1.0,
             "contextSwitches": 4000, "requests": %d,
             "msPerRequestEstimate": {"mean": 2.5, "halfWidth": 0.25},
             "threadGroupSeconds": {"jit": 0.5, "gc": 0.25}}}]}
        """
            .formatted(ops, userSeconds, requests));
    return file;
  }

  @Test
  void table_byDefault_printsAMarkdownRowPerPoint() throws IOException {
    Path a = results("a", 120.0, 3.0, 2000);
    assertThat(run(a.toString())).isEqualTo(ExitCodes.OK);
    assertThat(out.toString().lines())
        .containsExactly(
            "| point | ops/s (CI) | MB/s | p50 ms | p99 ms | errors |",
            "|---|---|---|---|---|---|",
            "| racs-1p/mixed/1MiB/c8/d0ms | 120 ± 10.0 | 41.3 | 12.5 | 81.0 | 0 |");
  }

  @Test
  void table_withSampledCpuColumns_dividesByTheSampledRequests() throws IOException {
    Path a = results("a", 120.0, 3.0, 2000);
    int code =
        run(
            a.toString(),
            "--columns",
            "target,cpuSeconds,cpuMsPerRequest,userMsPerRequest,switchesPerRequest,jitMsPerRequest,"
                + "cpuWithoutJitMsPerRequest,latencyMillis.p90");
    assertThat(code).as(err.toString()).isEqualTo(ExitCodes.OK);
    assertThat(out.toString().lines().toList().get(2))
        .isEqualTo("| racs-1p | 4.00 | 2.50 ± 0.25 | 1.50 | 2.00 | 0.25 | 1.75 | 30.0 |");
  }

  @Test
  void table_asCsv_putsHalfWidthsInColumnsOfTheirOwn() throws IOException {
    Path a = results("a", 120.0, 3.0, 2000);
    assertThat(run(a.toString(), "--format", "csv", "--columns", "id,ops,p99"))
        .isEqualTo(ExitCodes.OK);
    assertThat(out.toString().lines())
        .containsExactly("id,ops,ops_ci,p99", "racs-1p/mixed/1MiB/c8/d0ms,120.0,10.0,81.0");
  }

  @Test
  void table_withMerge_givesTheMeanAndStudentTIntervalOverTheFiles() throws IOException {
    List<Path> rounds =
        List.of(
            results("r1", 100, 1, 1000), results("r2", 110, 2, 1000), results("r3", 130, 3, 1000));
    int code =
        run(
            rounds.get(0).toString(),
            rounds.get(1).toString(),
            rounds.get(2).toString(),
            "--merge",
            "--format",
            "csv",
            "--columns",
            "id,ops,userMsPerRequest");
    assertThat(code).as(err.toString()).isEqualTo(ExitCodes.OK);
    Estimate ops = Estimate.atConfidence(0.95, 100, 110, 130);
    Estimate user = Estimate.atConfidence(0.95, 1, 2, 3);
    assertThat(out.toString().lines())
        .containsExactly(
            "id,ops,ops_ci,userMsPerRequest,userMsPerRequest_ci",
            "racs-1p/mixed/1MiB/c8/d0ms,"
                + ops.mean()
                + ","
                + ops.halfWidth()
                + ","
                + user.mean()
                + ","
                + user.halfWidth());
  }

  @Test
  void table_withVs_pairsEachPointWithTheOtherTargetsAndDividesThem() throws IOException {
    Path file = dir.resolve("pair.json");
    Files.writeString(
        file,
        """
        {"schemaVersion": 2, "kind": "object", "points": [
          {"id": "racs/put/4KiB/c1/d0ms", "target": "racs", "workload": "put",
           "throughput": {"opsPerSecond": {"mean": 300.0, "halfWidth": 30.0}},
           "latencyMillis": {"p99": 8.0}, "errorsTotal": 0},
          {"id": "minio/put/4KiB/c1/d0ms", "target": "minio", "workload": "put",
           "throughput": {"opsPerSecond": {"mean": 200.0, "halfWidth": 20.0}},
           "latencyMillis": {"p99": 10.0}, "errorsTotal": 2},
          {"id": "racs/get/4KiB/c1/d0ms", "target": "racs", "workload": "get",
           "throughput": {"opsPerSecond": {"mean": 900.0, "halfWidth": 9.0}},
           "latencyMillis": {"p99": 1.0}, "errorsTotal": 0}]}
        """);
    int code =
        run(
            file.toString(),
            "--vs",
            "minio",
            "--columns",
            "workload,ops,vs:ops,ratio:ops,ratio:p99,errors,vs:errors");
    assertThat(code).as(err.toString()).isEqualTo(ExitCodes.OK);
    assertThat(out.toString().lines())
        .containsExactly(
            "| workload | ops/s (CI) | minio ops/s (CI) | ops/s (CI) / minio | p99 ms / minio | errors"
                + " | minio errors |",
            "|---|---|---|---|---|---|---|",
            "| put | 300 ± 30.0 | 200 ± 20.0 | 1.50 | 0.80 | 0 | 2 |");
  }

  @Test
  void table_withScriptColumns_namesHeadersAndReadsRatiosListsAndCounts() throws IOException {
    Path file = dir.resolve("parallel").resolve("results.json");
    Files.createDirectories(file.getParent());
    Files.writeString(
        file,
        """
        {"schemaVersion": 2, "kind": "object", "points": [
          {"id": "direct/get/4KiB/c8/d20ms", "target": "direct", "targetKind": "repository",
           "workload": "get", "size": "4KiB", "clients": 8, "delayMillis": 20, "ops": 700,
           "throughput": {"opsPerSecond": {"mean": 350.0, "halfWidth": 4.0}},
           "latencyMillis": {"p50": 20.5, "p90": 21.0}, "errorsTotal": 0, "errors": {}},
          {"id": "racs/get/4KiB/c8/d20ms", "target": "racs", "targetKind": "array",
           "workload": "get", "size": "4KiB", "clients": 8, "delayMillis": 20, "ops": 600,
           "throughput": {"opsPerSecond": {"mean": 300.0, "halfWidth": 3.0}},
           "latencyMillis": {"p50": 41.0, "p90": 44.0},
           "iterations": [{"opsPerSecond": 290.5}, {"opsPerSecond": 309.5}],
           "clientCpu": {"maxUtilisation": 0.25, "maxPressure": 0.125},
           "costPerMillionOps": {"array": {"total": 2.5}, "direct": {"total": 0.4},
                                 "arrayOverDirect": 6.25},
           "errorsTotal": 3, "errors": {"TIMEOUT": 2, "NOT_FOUND": 1}},
          {"id": "racs/head/4KiB/c8/d20ms", "target": "racs", "targetKind": "array",
           "workload": "head", "size": "4KiB", "clients": 8, "delayMillis": 20, "ops": 900,
           "repositoryRequestsPerOp": {"list": 1.0, "get": 2.5}, "errorsTotal": 0}],
         "ratios": [{"kind": "parallelismImpact", "numerator": "racs/get/4KiB/c8/d20ms",
                     "denominator": "racs/get/4KiB/c1/d20ms", "value": 6.0},
                    {"kind": "parallelismImpact", "numerator": "direct/get/4KiB/c8/d20ms",
                     "denominator": "direct/get/4KiB/c1/d20ms", "value": 7.6}]}
        """);
    int code =
        run(
            file.toString(),
            "--vs",
            "direct",
            "--columns",
            "workload=op,size,delay,clients,vs:pir=direct PIR,pir,pirPerClient,"
                + "iterations.opsPerSecond=by iteration,cpuWaited,cost,costRatio,"
                + "errorKinds,operations,repositoryRequests");
    assertThat(code).as(err.toString()).isEqualTo(ExitCodes.OK);
    assertThat(out.toString().lines())
        .containsExactly(
            "| op | size | round trip | clients | direct PIR | PIR | PIR / clients | by iteration"
                + " | CPU waited | USD per 1M ops, RACS / direct | cost ratio | errors by kind"
                + " | operations | repository requests per op |",
            "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
            "| get | 4KiB | 20ms | 8 | 7.60 | 6.00 | 0.75 | 291, 310 | 0.13 | 2.50 / 0.40 | 6.25"
                + " | NOT_FOUND 1 TIMEOUT 2 | 600 | none |");
    out.getBuffer().setLength(0);
    assertThat(run(file.toString(), "--columns", "run,target,repositoryRequests"))
        .isEqualTo(ExitCodes.OK);
    assertThat(out.toString().lines())
        .contains("| parallel | direct |  |", "| parallel | racs | get 2.50 list 1.00 |");
  }

  @Test
  void table_whenInputIsBad_exitsUsageInOneLine() throws IOException {
    Path a = results("a", 120.0, 3.0, 2000);
    Path block = dir.resolve("block.json");
    Files.writeString(block, "{\"schemaVersion\": 1, \"kind\": \"block-sweep\"}");
    BenchCli.assertEachRefusedInOneLine(
        "table",
        List.of(
            List.of(a.toString(), "--columns", "id,nonsense"),
            List.of(a.toString(), "--format", "html"),
            List.of(a.toString(), "--merge", "--confidence", "100"),
            List.of(a.toString(), "--columns", "ratio:ops"),
            List.of(a.toString(), "--merge", "--vs", "minio"),
            List.of(dir.resolve("missing.json").toString()),
            List.of(block.toString())));
  }
}
