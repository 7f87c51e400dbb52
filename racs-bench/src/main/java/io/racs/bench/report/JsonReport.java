package io.racs.bench.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.racs.bench.object.cost.Cost;
import io.racs.bench.object.run.Engine;
import io.racs.bench.object.run.IterationResult;
import io.racs.bench.object.run.PointResult;
import io.racs.bench.object.run.Ratios;
import io.racs.bench.object.run.RunResult;
import io.racs.bench.object.run.Workload;
import io.racs.bench.object.workload.Op;
import io.racs.bench.stats.Estimate;
import io.racs.bench.stats.LatencySummary;
import io.racs.bench.stats.Ratio;
import io.racs.repos.price.PriceBook;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * Writes {@code results.json} in the schema documented in {@code racs-bench/RESULTS-SCHEMA.md}.
 * Numbers that are unknown (an interval from one iteration) are JSON {@code null}, never NaN.
 */
public final class JsonReport {
  /** The schema version this writer produces; bumped on any incompatible change. */
  public static final int SCHEMA_VERSION = 2;

  /** The shared mapper (pretty output, no NaN). */
  public static final ObjectMapper MAPPER =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private JsonReport() {}

  /** Writes {@code result} to {@code file}. */
  public static void write(RunResult result, Path file, Map<String, String> hlogFiles)
      throws IOException {
    write(result, file, hlogFiles, PriceBook.awsDefault());
  }

  /** Writes {@code result} to {@code file}, its costs at {@code prices}. */
  public static void write(
      RunResult result, Path file, Map<String, String> hlogFiles, PriceBook prices)
      throws IOException {
    MAPPER.writeValue(file.toFile(), toJson(result, hlogFiles, prices));
  }

  /** The JSON tree of {@code result}; {@code hlogFiles} maps point ids to log file names. */
  public static ObjectNode toJson(RunResult result, Map<String, String> hlogFiles) {
    return toJson(result, hlogFiles, PriceBook.awsDefault());
  }

  /** The JSON tree of {@code result}, its costs at {@code prices}. */
  public static ObjectNode toJson(
      RunResult result, Map<String, String> hlogFiles, PriceBook prices) {
    ObjectNode root = MAPPER.createObjectNode();
    root.put("schemaVersion", SCHEMA_VERSION);
    root.put("kind", "object");
    root.put("tool", "racs-bench");
    root.put("startedAt", result.startedAt.toString());
    root.put("finishedAt", String.valueOf(result.finishedAt));
    ObjectNode host = root.putObject("host");
    host.put("cores", Runtime.getRuntime().availableProcessors());
    host.put("jvm", Runtime.version().toString());
    host.put("os", System.getProperty("os.name") + " " + System.getProperty("os.arch"));
    ArrayNode command = root.putArray("command");
    result.command.forEach(command::add);
    ObjectNode plan = root.putObject("plan");
    Workload t = result.plan.template();
    plan.put("warmupIterations", result.plan.warmup());
    plan.put("iterations", result.plan.iterations());
    plan.put("durationSeconds", t.count() > 0 ? null : t.duration().toNanos() / 1e9);
    plan.put("countPerIteration", t.count() > 0 ? t.count() : null);
    plan.put("objects", t.objects());
    plan.put("prefixes", t.prefixes());
    plan.put("prefixPerClient", t.prefixPerClient());
    plan.put("keyDistribution", t.keys().label());
    plan.put("range", t.range().label());
    plan.put("verify", t.verify());
    plan.put("seed", t.seed());
    plan.put("loop", t.openLoop() ? "open" : "closed");
    plan.put("rateOpsPerSecond", t.openLoop() ? t.rateOpsPerSecond() : null);
    plan.put(
        "arrivals", t.openLoop() ? t.arrivals().name().toLowerCase(java.util.Locale.ROOT) : null);
    plan.put("confidence", result.plan.confidence());
    ArrayNode agents = root.putArray("agents");
    result.agents.forEach(agents::add);
    ArrayNode targets = root.putArray("targets");
    for (Engine.TargetInfo info : result.targets) {
      ObjectNode node = targets.addObject();
      node.put("name", info.name());
      node.put("kind", info.kind());
      node.put("delayInjection", info.delayable());
      ObjectNode description = node.putObject("description");
      info.description().forEach(description::put);
    }
    CostTable.json(root.putObject("prices"), prices);
    ArrayNode points = root.putArray("points");
    for (PointResult p : result.points) {
      ObjectNode node = point(p, hlogFiles.get(p.id()));
      Cost.of(p, prices).ifPresent(c -> CostTable.json(node.putObject("costPerMillionOps"), c));
      points.add(node);
    }
    ArrayNode ratios = root.putArray("ratios");
    for (Ratios.Row row : result.ratios) {
      ObjectNode node = ratios.addObject();
      node.put("kind", row.kind());
      node.put("numerator", row.numerator());
      node.put("denominator", row.denominator());
      ratio(node, row.ratio());
    }
    ArrayNode notes = root.putArray("notes");
    result.notes.forEach(notes::add);
    return root;
  }

  private static ObjectNode point(PointResult p, String hlog) {
    ObjectNode node = MAPPER.createObjectNode();
    node.put("id", p.id());
    node.put("target", p.target);
    node.put("targetKind", p.targetKind);
    node.put("workload", p.workloadLabel());
    node.put("mix", p.workload.mix().toString());
    node.put("size", p.workload.size().label());
    node.put("meanObjectBytes", p.workload.size().meanBytes());
    node.put("clients", p.workload.clients());
    node.put("delayMillis", p.delay.toMillis());
    node.put("loop", p.workload.openLoop() ? "open" : "closed");
    node.put("rateOpsPerSecond", p.workload.openLoop() ? p.workload.rateOpsPerSecond() : null);
    IterationResult all = p.merged();
    ObjectNode throughput = node.putObject("throughput");
    p.opsPerSecond()
        .ifPresentOrElse(
            e -> estimate(throughput.putObject("opsPerSecond"), e),
            () -> throughput.putNull("opsPerSecond"));
    p.megabytesPerSecond()
        .ifPresentOrElse(
            e -> estimate(throughput.putObject("megabytesPerSecond"), e),
            () -> throughput.putNull("megabytesPerSecond"));
    node.put("validIterations", p.validIterations().size());
    nullable(node, "warning", p.warning().orElse(null));
    node.put("ops", all.ops);
    node.put("bytes", all.bytes);
    node.put("verifiedObjects", all.verified);
    node.put("errorsTotal", all.errorCount());
    ObjectNode errors = node.putObject("errors");
    all.errors.forEach(errors::put);
    node.put("expectedMissesTotal", all.expectedMissCount());
    ObjectNode misses = node.putObject("expectedMisses");
    all.expectedMisses.forEach(misses::put);
    if (!all.repositoryCalls.isEmpty()) {
      // In-process array targets: what each client request cost in repository requests.
      ObjectNode calls = node.putObject("repositoryRequests");
      all.repositoryCalls.forEach(calls::put);
      ObjectNode perOp = node.putObject("repositoryRequestsPerOp");
      all.repositoryCallsPerRequest().forEach(perOp::put);
      ObjectNode read = node.putObject("repositoryReadBytes");
      all.repositoryReadBytes.forEach(read::put);
    }
    latency(node, "latencyMillis", all.latency);
    if (p.workload.openLoop()) {
      latency(node, "correctedLatencyMillis", all.corrected);
    } else {
      node.putNull("correctedLatencyMillis");
    }
    if (p.workload.mix().contains(Op.GET)) {
      latency(node, "ttfbMillis", all.ttfb);
    } else {
      node.putNull("ttfbMillis");
    }
    ObjectNode perOp = node.putObject("perOperation");
    all.perOp.forEach((op, h) -> latency(perOp, op.label(), h));
    double cpu = p.maxCpuUtilisation();
    ObjectNode client = node.putObject("clientCpu");
    number(client, "maxUtilisation", cpu);
    client.put("saturated", !Double.isNaN(cpu) && cpu > io.racs.bench.stats.ClientCpu.SATURATED);
    number(client, "maxPressure", p.maxCpuPressure());
    SampledCpuJson.point(node, p);
    ArrayNode iterations = node.putArray("iterations");
    int index = 1;
    for (IterationResult i : p.iterations) {
      ObjectNode it = iterations.addObject();
      it.put("index", index++);
      it.put("valid", i.isValid());
      nullable(it, "invalidReason", i.invalidReason);
      it.put("startEpochMillis", i.startEpochNanos / 1_000_000);
      it.put("windowStartSeconds", i.windowStartNanos / 1e9);
      it.put("windowSeconds", i.windowSeconds());
      it.put("ops", i.ops);
      it.put("bytes", i.bytes);
      number(it, "opsPerSecond", i.opsPerSecond());
      number(it, "megabytesPerSecond", i.megabytesPerSecond());
      long p50 = i.requestNanosP50();
      number(it, "requestP50Millis", p50 < 0 ? Double.NaN : p50 / 1e6);
      it.put("errorsTotal", i.errorCount());
      ObjectNode ie = it.putObject("errors");
      i.errors.forEach(ie::put);
      it.put("expectedMissesTotal", i.expectedMissCount());
      it.put("verifiedObjects", i.verified);
      number(it, "cpuUtilisation", i.cpuUtilisation);
      number(it, "cpuPressure", i.cpuPressure);
      SampledCpuJson.iteration(it, i);
      it.put("sliceSeconds", IterationResult.SLICE_NANOS / 1e9);
      ArrayNode slices = it.putArray("sliceOps");
      for (long s : i.sliceOps) {
        slices.add(s);
      }
    }
    if (hlog == null) {
      node.putNull("hlog");
    } else {
      node.put("hlog", hlog);
    }
    ArrayNode notes = node.putArray("notes");
    p.notes.forEach(notes::add);
    return node;
  }

  static void estimate(ObjectNode node, Estimate e) {
    number(node, "mean", e.mean());
    number(node, "ciLow", e.low());
    number(node, "ciHigh", e.high());
    number(node, "halfWidth", e.halfWidth());
    number(node, "stddev", e.stddev());
    node.put("n", e.n());
    node.put("confidence", e.confidence());
  }

  private static void ratio(ObjectNode node, Ratio r) {
    number(node, "value", r.value());
    number(node, "ciLow", r.low());
    number(node, "ciHigh", r.high());
    number(node, "halfWidth", r.halfWidth());
    node.put("confidence", r.confidence());
  }

  private static void latency(ObjectNode parent, String name, Histogram h) {
    LatencySummary s = LatencySummary.of(h);
    ObjectNode node = parent.putObject(name);
    node.put("count", s.count());
    node.put("mean", s.mean());
    node.put("p50", s.p50());
    node.put("p90", s.p90());
    node.put("p99", s.p99());
    node.put("p999", s.p999());
    node.put("p9999", s.p9999());
    node.put("max", s.max());
  }

  private static void nullable(ObjectNode node, String name, String value) {
    if (value == null) {
      node.putNull(name);
    } else {
      node.put(name, value);
    }
  }

  /** Puts {@code value}, or null when it is NaN or infinite. */
  static void number(ObjectNode node, String name, double value) {
    if (Double.isNaN(value) || Double.isInfinite(value)) {
      node.putNull(name);
    } else {
      node.put(name, value);
    }
  }
}
