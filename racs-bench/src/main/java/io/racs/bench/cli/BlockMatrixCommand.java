package io.racs.bench.cli;

import io.racs.bench.block.IozoneMatrix;
import io.racs.bench.block.IozoneMatrixReport;
import io.racs.bench.block.Sizes;
import io.racs.proxy.cli.ExitCodes;
import io.racs.proxy.cli.VersionProvider;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code racs bench block matrix}: IOzone -a style file size × record size × test matrix. */
@Command(
    name = "matrix",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "IOzone -a style matrix: file sizes x record sizes (record <= file) x tests, KB/s per cell.",
      "Example: racs bench block matrix --dir /mnt/disk --max-file 64MiB --budget 60s"
    })
final class BlockMatrixCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(names = "--dir", defaultValue = ".", description = "Directory of the scratch file.")
  Path dir;

  @Option(names = "--min-file", defaultValue = "64KiB", description = "Smallest file size.")
  String minFile;

  @Option(names = "--max-file", defaultValue = "512MiB", description = "Largest file size.")
  String maxFile;

  @Option(names = "--min-record", defaultValue = "4KiB", description = "Smallest record size.")
  String minRecord;

  @Option(names = "--max-record", defaultValue = "16MiB", description = "Largest record size.")
  String maxRecord;

  @Option(
      names = "--tests",
      defaultValue =
          "write,rewrite,read,reread,randread,randwrite,bkwdread,recrewrite,strideread,fwrite,"
              + "fread",
      description = "Tests to run.")
  String tests;

  @Option(names = "--max-cells", defaultValue = "0", description = "Run at most N cells.")
  int maxCells;

  @Option(names = "--budget", description = "Skip the cells left after this time, e.g. 60s.")
  String budget;

  @Option(names = "--direct", description = "O_DIRECT for the positional tests.")
  boolean direct;

  @Option(names = "--fsync", description = "Include fsync in write times (IOzone -e).")
  boolean fsync;

  @Option(names = "--seed", defaultValue = "1", description = "Seed.")
  long seed;

  @Option(names = "--out", paramLabel = "DIR", description = "Default: ./bench-out/<timestamp>.")
  Path out;

  @Override
  public Integer call() throws Exception {
    PrintWriter stdout = spec.commandLine().getOut();
    Instant startedAt = Instant.now();
    List<Long> files = doubling("--min-file", minFile, "--max-file", maxFile);
    List<Integer> records = new ArrayList<>();
    for (long r : doubling("--min-record", minRecord, "--max-record", maxRecord)) {
      if (r > 1 << 30) {
        throw new IllegalArgumentException("--max-record: " + maxRecord + " (expected: <= 1GiB)");
      }
      records.add((int) r);
    }
    List<IozoneMatrix.Test> testList = new ArrayList<>();
    for (String t : tests.split(",")) {
      testList.add(IozoneMatrix.Test.of(t));
    }
    if (maxCells < 0) {
      throw new IllegalArgumentException("--max-cells: " + maxCells + " (expected: >= 0)");
    }
    Duration b = budget == null ? null : Sizes.duration("--budget", budget);
    IozoneMatrix.Config config =
        IozoneMatrix.Config.builder(dir.resolve("racs-matrix.tmp"))
            .fileSizes(files)
            .recordSizes(records)
            .tests(testList)
            .maxCells(maxCells)
            .budget(b)
            .direct(direct)
            .fsync(fsync)
            .seed(seed)
            .build();
    List<IozoneMatrix.Cell> cells = IozoneMatrix.of(config).run(stdout);
    long skipped = cells.stream().filter(IozoneMatrix.Cell::skipped).count();
    if (skipped > 0) {
      stdout.println(skipped + " cells skipped (--max-cells/--budget); shown as 'skipped'");
    }
    Path d =
        out != null
            ? out
            : Path.of(
                "bench-out",
                LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
    List<String> command = new ArrayList<>(List.of("racs", "bench", "block", "matrix"));
    command.addAll(spec.commandLine().getParseResult().originalArgs());
    IozoneMatrixReport.write(
        config,
        cells,
        d,
        (direct ? "O_DIRECT" : "buffered") + (fsync ? ", fsync in write times" : ""),
        command,
        startedAt);
    stdout.println("results: " + d.toAbsolutePath().normalize());
    stdout.flush();
    return ExitCodes.OK;
  }

  private static List<Long> doubling(String minName, String min, String maxName, String max) {
    long lo = Sizes.parse(minName, min);
    long hi = Sizes.parse(maxName, max);
    if (lo < 1 || hi < lo) {
      throw new IllegalArgumentException(maxName + ": " + max + " (expected: >= " + minName + ")");
    }
    List<Long> sizes = new ArrayList<>();
    for (long s = lo; s <= hi; s *= 2) {
      sizes.add(s);
    }
    return sizes;
  }
}
