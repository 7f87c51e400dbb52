package io.racs.bench.cli;

import io.racs.bench.block.BlockFile;
import io.racs.bench.block.DdRun;
import io.racs.bench.block.Sizes;
import io.racs.bench.block.Sweep;
import io.racs.bench.block.SweepReport;
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

/** {@code racs bench block sweep}: records × threads × patterns on one preallocated file. */
@Command(
    name = "sweep",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Sequential/random x read/write sweep over record sizes and thread counts on one file,"
          + " preallocated with incompressible seeded data; MB/s, IOPS and latency per point.",
      "Example: racs bench block sweep --file /mnt/disk/f --file-size 8GiB --direct"
          + " --duration 10s --theoretical 550"
    })
final class BlockSweepCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(
      names = "--file",
      required = true,
      description = "The file (created and filled, unless --reuse-file).")
  Path file;

  @Option(names = "--file-size", required = true, description = "File size, e.g. 8GiB.")
  String fileSize;

  @Option(names = "--records", defaultValue = "4KiB,64KiB,1MiB,16MiB", description = "Records.")
  String records;

  @Option(names = "--threads", defaultValue = "1,2,4,8,12,24,48", description = "Thread counts.")
  String threads;

  @Option(
      names = "--patterns",
      defaultValue = "seqread,seqwrite,randread,randwrite",
      description = "Patterns: seqread, seqwrite, randread, randwrite.")
  String patterns;

  @Option(names = "--duration", description = "Time per point (default 5s unless --passes).")
  String duration;

  @Option(names = "--passes", description = "Whole-file passes per point instead of a duration.")
  Integer passes;

  @Option(names = "--direct", description = "O_DIRECT with aligned buffers.")
  boolean direct;

  @Option(names = "--allow-buffered", description = "Buffered I/O (labelled so) if refused.")
  boolean allowBuffered;

  @Option(names = "--theoretical", description = "Rated MB/s, for efficiency.")
  Double theoretical;

  @Option(names = "--theoretical-iops", description = "Rated IOPS, for random efficiency.")
  Double theoreticalIops;

  @Option(names = "--seed", defaultValue = "1", description = "Seed of data and orders.")
  long seed;

  @Option(names = "--verify", description = "Stamp writes; check every read block.")
  boolean verify;

  @Option(
      names = "--reuse-file",
      description = "Keep the data of a file already >= --file-size (no fill; not with --verify).")
  boolean reuseFile;

  @Option(names = "--out", paramLabel = "DIR", description = "Default: ./bench-out/<timestamp>.")
  Path out;

  @Override
  public Integer call() throws Exception {
    PrintWriter stdout = spec.commandLine().getOut();
    if (duration != null && passes != null) {
      throw new IllegalArgumentException(
          "--duration: " + duration + " (expected: either --duration or --passes, not both)");
    }
    long size = Sizes.parse("--file-size", fileSize);
    List<Integer> recordList = Sizes.parseList("--records", records);
    List<Integer> threadList = new ArrayList<>();
    for (String t : threads.split(",")) {
      try {
        threadList.add(Integer.parseInt(t.trim()));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("--threads: " + t + " (expected: integers)");
      }
    }
    List<Sweep.Pattern> patternList = new ArrayList<>();
    for (String p : patterns.split(",")) {
      patternList.add(Sweep.Pattern.of(p));
    }
    Duration d =
        passes != null ? null : Sizes.duration("--duration", duration == null ? "5s" : duration);
    List<String> notes = new ArrayList<>();
    boolean useDirect = direct;
    Sweep sweep;
    Sweep.Config config =
        Sweep.Config.builder(file)
            .fileSizeBytes(size)
            .records(recordList)
            .threads(threadList)
            .patterns(patternList)
            .duration(d)
            .passes(passes == null ? 0 : passes)
            .direct(useDirect)
            .seed(seed)
            .verify(verify)
            .reuseFile(reuseFile)
            .build();
    try {
      sweep = Sweep.prepare(config);
    } catch (DdRun.DirectIoRefusedException e) {
      if (!allowBuffered) {
        throw e;
      }
      useDirect = false;
      notes.add("O_DIRECT refused by the filesystem; every point is BUFFERED");
      config = config.toBuilder().direct(false).build();
      sweep = Sweep.prepare(config);
    }
    if (reuseFile && !sweep.filled()) {
      notes.add("the file's existing data was reused (--reuse-file), not filled by this run");
    }
    String cache = BlockFile.pageCacheWarning(sweep.sizeBytes(), useDirect);
    if (cache != null) {
      notes.add(cache);
    }
    for (String n : notes) {
      stdout.println("warning: " + n);
    }
    stdout.printf(
        "file %s: %d bytes, %s%s%n",
        file,
        sweep.sizeBytes(),
        useDirect ? "direct" : "BUFFERED",
        verify ? ", verified (run id " + sweep.runId() + ")" : "");
    List<String> command = new ArrayList<>(List.of("racs", "bench", "block", "sweep"));
    command.addAll(spec.commandLine().getParseResult().originalArgs());
    SweepReport.Run run =
        new SweepReport.Run(
            file,
            sweep.sizeBytes(),
            useDirect,
            seed,
            verify,
            theoretical == null ? Double.NaN : theoretical,
            theoreticalIops == null ? Double.NaN : theoreticalIops,
            command,
            notes,
            Instant.now());
    SweepReport.header(stdout);
    List<Sweep.Point> points = sweep.runAll(p -> SweepReport.row(run, p, stdout));
    Path dir =
        out != null
            ? out
            : Path.of(
                "bench-out",
                LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
    SweepReport.write(run, points, dir);
    stdout.println("results: " + dir.toAbsolutePath().normalize());
    long failed = points.stream().mapToLong(p -> p.failures().size()).sum();
    if (failed > 0) {
      stdout.println("verification FAILED: " + failed + " bad blocks (listed above)");
      stdout.flush();
      return ExitCodes.FAILURE;
    }
    stdout.flush();
    return ExitCodes.OK;
  }
}
