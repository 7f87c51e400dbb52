package io.racs.bench.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.racs.bench.cpu.CpuUsage;
import io.racs.bench.object.run.IterationResult;
import io.racs.bench.object.run.PointResult;
import io.racs.bench.stats.Estimate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code sampledCpu} objects of results.json ({@code --sample-pid}): per iteration what the
 * sampled processes used, per point the sums and the CPU per request with its interval over the
 * iterations.
 */
final class SampledCpuJson {
  private SampledCpuJson() {}

  /** Puts {@code sampledCpu} of one iteration, or null when nothing was sampled. */
  static void iteration(ObjectNode node, IterationResult i) {
    if (i.sampledCpu == null) {
      node.putNull("sampledCpu");
      return;
    }
    usage(node.putObject("sampledCpu"), i.sampledCpu, i.requests.getTotalCount());
  }

  /** Puts {@code sampledCpu} of a point, or null when its iterations were not sampled. */
  static void point(ObjectNode node, PointResult p) {
    List<IterationResult> sampled =
        p.iterations.stream().filter(i -> i.sampledCpu != null).toList();
    if (sampled.isEmpty()) {
      node.putNull("sampledCpu");
      return;
    }
    double user = 0;
    double system = 0;
    long switches = 0;
    long requests = 0;
    Map<String, Double> groups = new LinkedHashMap<>();
    double[] perRequest = new double[sampled.size()];
    for (int k = 0; k < sampled.size(); k++) {
      IterationResult i = sampled.get(k);
      CpuUsage u = i.sampledCpu;
      user += u.userSeconds();
      system += u.systemSeconds();
      switches += u.contextSwitches();
      long n = i.requests.getTotalCount();
      requests += n;
      u.threadGroupSeconds().forEach((g, s) -> groups.merge(g, s, Double::sum));
      perRequest[k] = n == 0 ? Double.NaN : 1000 * u.totalSeconds() / n;
    }
    ObjectNode out = node.putObject("sampledCpu");
    usage(
        out,
        new CpuUsage(sampled.getFirst().sampledCpu.pids(), user, system, switches, groups),
        requests);
    double[] known = java.util.Arrays.stream(perRequest).filter(d -> !Double.isNaN(d)).toArray();
    if (known.length == 0) {
      out.putNull("msPerRequestEstimate");
    } else {
      JsonReport.estimate(
          out.putObject("msPerRequestEstimate"), Estimate.atConfidence(p.confidence, known));
    }
  }

  private static void usage(ObjectNode node, CpuUsage u, long requests) {
    ArrayNode pids = node.putArray("pids");
    u.pids().forEach(pids::add);
    node.put("userSeconds", round(u.userSeconds()));
    node.put("systemSeconds", round(u.systemSeconds()));
    node.put("contextSwitches", u.contextSwitches());
    node.put("requests", requests);
    JsonReport.number(
        node, "msPerRequest", requests == 0 ? Double.NaN : 1000 * u.totalSeconds() / requests);
    ObjectNode groups = node.putObject("threadGroupSeconds");
    u.threadGroupSeconds().forEach((g, s) -> groups.put(g, round(s)));
  }

  /** Ticks are hundredths of a second: more digits would be noise of the sum. */
  private static double round(double seconds) {
    return Math.round(seconds * 100) / 100.0;
  }
}
