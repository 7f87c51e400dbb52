package io.racs.bench.block;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.racs.bench.stats.Estimate;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

/**
 * {@code results.json} of {@code block run} ({@code kind: block-run} in {@code
 * racs-bench/RESULTS-SCHEMA.md}): one point per run definition × threads × transfer size × rate,
 * its measured intervals as the iterations of the estimates.
 */
public final class RunReport {
  private RunReport() {}

  /** Writes {@code results.json} into {@code dir}. */
  public static void write(
      Path parameterFile,
      boolean verify,
      long seed,
      List<VdbenchRun.Summary> summaries,
      List<String> command,
      Instant startedAt,
      Path dir)
      throws IOException {
    BlockJson.write(dir, json(parameterFile, verify, seed, summaries, command, startedAt));
  }

  static ObjectNode json(
      Path parameterFile,
      boolean verify,
      long seed,
      List<VdbenchRun.Summary> summaries,
      List<String> command,
      Instant startedAt) {
    ObjectNode root = BlockJson.root("block-run", startedAt, command);
    ObjectNode plan = root.putObject("plan");
    plan.put("parameterFile", parameterFile.toString());
    plan.put("verify", verify);
    plan.put("seed", seed);
    plan.put("confidence", Estimate.CONFIDENCE);
    ArrayNode points = root.putArray("points");
    for (VdbenchRun.Summary s : summaries) {
      ObjectNode o = points.addObject();
      o.put("id", s.id());
      o.put("label", s.label());
      o.put("threads", s.threads());
      o.put("xferBytes", s.xferBytes());
      BlockJson.number(o, "requestedRate", s.requestedRate() > 0 ? s.requestedRate() : Double.NaN);
      o.put("direct", s.direct());
      List<VdbenchRun.Line> measured = s.measured();
      BlockJson.estimate(
          o, "iops", estimate(measured.stream().mapToDouble(VdbenchRun.Line::rate).toArray()));
      BlockJson.estimate(
          o,
          "megabytesPerSecond",
          estimate(
              measured.stream()
                  .mapToDouble(l -> l.megabytesPerSecond() * 1048576.0 / 1e6)
                  .toArray()));
      BlockJson.estimate(
          o,
          "responseMillis",
          estimate(
              measured.stream()
                  .filter(l -> l.ios() > 0)
                  .mapToDouble(VdbenchRun.Line::meanResponseMillis)
                  .toArray()));
      ObjectNode average = o.putObject("average");
      line(average, s.average());
      ArrayNode intervals = o.putArray("intervals");
      measured.forEach(l -> line(intervals.addObject(), l));
      BlockJson.failures(o, s.verifiedBlocks(), s.failures());
    }
    root.putArray("notes");
    return root;
  }

  private static Estimate estimate(double[] samples) {
    return samples.length == 0 ? Estimate.of(Double.NaN) : Estimate.of(samples);
  }

  private static void line(ObjectNode o, VdbenchRun.Line l) {
    o.put("name", l.name());
    o.put("seconds", l.seconds());
    o.put("ios", l.ios());
    o.put("iops", l.rate());
    o.put("mebibytesPerSecond", l.megabytesPerSecond());
    o.put("readPercent", l.readPercent());
    o.put("meanResponseMillis", l.meanResponseMillis());
    o.put("readResponseMillis", l.readResponseMillis());
    o.put("writeResponseMillis", l.writeResponseMillis());
    o.put("maxResponseMillis", l.maxResponseMillis());
  }
}
