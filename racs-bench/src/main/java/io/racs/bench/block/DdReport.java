package io.racs.bench.block;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.racs.bench.stats.Estimate;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * {@code results.json} of {@code block dd} ({@code kind: block-dd} in {@code
 * racs-bench/RESULTS-SCHEMA.md}): one point, the runs as its iterations, MB/s as a mean with its
 * confidence interval.
 */
public final class DdReport {
  private DdReport() {}

  /**
   * What the report describes besides the runs.
   *
   * @param file the file
   * @param mode write or read
   * @param blockBytes bytes per block
   * @param count blocks per run
   * @param sync fsync after writing, timed
   * @param dsync O_DSYNC
   * @param verify whether blocks were stamped or checked
   * @param command the command line
   * @param notes run-wide facts the reader must know
   * @param startedAt the start
   */
  public record Run(
      Path file,
      DdRun.Mode mode,
      int blockBytes,
      long count,
      boolean sync,
      boolean dsync,
      boolean verify,
      List<String> command,
      List<String> notes,
      Instant startedAt) {
    /** The point id, e.g. {@code write/1MiB/x256}. */
    public String pointId() {
      return mode.name().toLowerCase(Locale.ROOT) + "/" + Sizes.label(blockBytes) + "/x" + count;
    }
  }

  /** A run key as printed and stored: 16 hex digits. */
  public static String key(long runKey) {
    return String.format(Locale.ROOT, "%016x", runKey);
  }

  /** Writes {@code results.json} into {@code dir}. */
  public static void write(Run run, List<DdRun.Result> results, Path dir) throws IOException {
    BlockJson.write(dir, json(run, results));
  }

  static ObjectNode json(Run run, List<DdRun.Result> results) {
    ObjectNode root = BlockJson.root("block-dd", run.startedAt(), run.command());
    boolean direct = results.stream().allMatch(DdRun.Result::direct);
    ObjectNode plan = root.putObject("plan");
    plan.put("file", run.file().toString());
    plan.put("mode", run.mode().name().toLowerCase(Locale.ROOT));
    plan.put("blockBytes", run.blockBytes());
    plan.put("count", run.count());
    plan.put("runs", results.size());
    plan.put("direct", direct);
    plan.put("sync", run.sync());
    plan.put("dsync", run.dsync());
    plan.put("verify", run.verify());
    plan.put("confidence", Estimate.CONFIDENCE);
    ObjectNode point = root.putArray("points").addObject();
    point.put("id", run.pointId());
    point.put("mode", run.mode().name().toLowerCase(Locale.ROOT));
    point.put("blockBytes", run.blockBytes());
    point.put("count", run.count());
    point.put("direct", direct);
    double[] rates = results.stream().mapToDouble(DdRun.Result::megabytesPerSecond).toArray();
    BlockJson.estimate(point, "megabytesPerSecond", Estimate.of(rates));
    point.put("verifiedBlocks", results.stream().mapToLong(DdRun.Result::verifiedBlocks).sum());
    point.put("failedBlocks", results.stream().mapToLong(DdRun.Result::failedBlocks).sum());
    ArrayNode runs = point.putArray("runs");
    for (int i = 0; i < results.size(); i++) {
      DdRun.Result r = results.get(i);
      ObjectNode o = runs.addObject();
      o.put("index", i + 1);
      o.put("bytes", r.bytes());
      o.put("seconds", r.seconds());
      o.put("megabytesPerSecond", r.megabytesPerSecond());
      o.put("direct", r.direct());
      if (run.verify()) {
        o.put("runKey", key(r.runKey()));
      } else {
        o.putNull("runKey");
      }
      o.put("failedBlocks", r.failedBlocks());
      BlockJson.failures(o, r.verifiedBlocks(), r.failures());
    }
    ArrayNode notes = root.putArray("notes");
    run.notes().forEach(notes::add);
    return root;
  }
}
