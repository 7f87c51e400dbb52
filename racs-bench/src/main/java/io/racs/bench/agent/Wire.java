package io.racs.bench.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.racs.bench.object.run.IterationResult;
import io.racs.bench.object.run.Workload;
import io.racs.bench.object.workload.KeyDistribution;
import io.racs.bench.object.workload.Mix;
import io.racs.bench.object.workload.Op;
import io.racs.bench.object.workload.RangeSpec;
import io.racs.bench.object.workload.SizeSpec;
import io.racs.bench.stats.ArrivalSchedule.Arrivals;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * The agent protocol's JSON forms of a {@link Workload} and an {@link IterationResult}. Histograms
 * travel as base64 of HdrHistogram's compressed encoding, so merging on the controller is exact.
 */
public final class Wire {
  /**
   * The protocol version; agents refuse sessions of another. 3: workloads carry {@code
   * prefixPerClient}, which an agent of version 2 would silently ignore.
   */
  public static final int PROTOCOL = 3;

  static final ObjectMapper MAPPER = new ObjectMapper();

  private Wire() {}

  /** A workload as JSON. */
  public static ObjectNode workload(Workload w) {
    ObjectNode n = MAPPER.createObjectNode();
    n.put("mix", w.mix().toString());
    n.put("size", w.size().label());
    n.put("keys", w.keys().label());
    n.put("range", w.range().label());
    n.put("objects", w.objects());
    n.put("prefixes", w.prefixes());
    n.put("prefix", w.prefix());
    n.put("clients", w.clients());
    n.put("rate", w.rateOpsPerSecond());
    n.put("arrivals", w.arrivals().name());
    n.put("durationNanos", w.duration().toNanos());
    n.put("count", w.count());
    n.put("verify", w.verify());
    n.put("seed", w.seed());
    n.put("listMaxKeys", w.listMaxKeys());
    n.put("prefixPerClient", w.prefixPerClient());
    return n;
  }

  /** A workload from JSON. */
  public static Workload workload(JsonNode n) {
    Mix mix = Mix.parse(n.get("mix").asText());
    if (mix.isSingle() && mix.weights().values().iterator().next() == 1) {
      mix = Mix.of(mix.single());
    }
    String range = n.get("range").asText();
    return new Workload(
        mix,
        SizeSpec.parse(n.get("size").asText()),
        KeyDistribution.parse(n.get("keys").asText()),
        range.equals("none") ? RangeSpec.NONE : RangeSpec.parse(range),
        n.get("objects").asInt(),
        n.get("prefixes").asInt(),
        n.get("prefix").asText(),
        n.get("clients").asInt(),
        n.get("rate").asDouble(),
        Arrivals.valueOf(n.get("arrivals").asText()),
        Duration.ofNanos(n.get("durationNanos").asLong()),
        n.get("count").asLong(),
        n.get("verify").asBoolean(),
        n.get("seed").asLong(),
        n.get("listMaxKeys").asInt(),
        n.get("prefixPerClient").asBoolean());
  }

  /** An iteration result as JSON. */
  public static ObjectNode result(IterationResult r) {
    ObjectNode n = MAPPER.createObjectNode();
    n.put("ops", r.ops);
    n.put("bytes", r.bytes);
    n.put("verified", r.verified);
    ObjectNode errors = n.putObject("errors");
    r.errors.forEach(errors::put);
    ObjectNode misses = n.putObject("expectedMisses");
    r.expectedMisses.forEach(misses::put);
    n.put("latency", encode(r.latency));
    n.put("requests", encode(r.requests));
    n.put("corrected", encode(r.corrected));
    n.put("ttfb", encode(r.ttfb));
    ObjectNode perOp = n.putObject("perOp");
    r.perOp.forEach((op, h) -> perOp.put(op.name(), encode(h)));
    n.put("windowStartNanos", r.windowStartNanos);
    n.put("windowEndNanos", r.windowEndNanos);
    n.put("startEpochNanos", r.startEpochNanos);
    if (r.invalidReason == null) {
      n.putNull("invalidReason");
    } else {
      n.put("invalidReason", r.invalidReason);
    }
    n.put("cpuUtilisation", Double.isNaN(r.cpuUtilisation) ? -1 : r.cpuUtilisation);
    n.put("cpuPressure", Double.isNaN(r.cpuPressure) ? -1 : r.cpuPressure);
    ArrayNode ops = n.putArray("sliceOps");
    for (long s : r.sliceOps) {
      ops.add(s);
    }
    ArrayNode bytes = n.putArray("sliceBytes");
    for (long s : r.sliceBytes) {
      bytes.add(s);
    }
    return n;
  }

  /** An iteration result from JSON. */
  public static IterationResult result(JsonNode n) {
    IterationResult r = new IterationResult();
    r.ops = n.get("ops").asLong();
    r.bytes = n.get("bytes").asLong();
    r.verified = n.get("verified").asLong();
    for (Map.Entry<String, JsonNode> e : n.get("errors").properties()) {
      r.errors.put(e.getKey(), e.getValue().asLong());
    }
    for (Map.Entry<String, JsonNode> e : n.path("expectedMisses").properties()) {
      r.expectedMisses.put(e.getKey(), e.getValue().asLong());
    }
    r.latency.add(decode(n.get("latency").asText()));
    r.requests.add(decode(n.get("requests").asText()));
    r.corrected.add(decode(n.get("corrected").asText()));
    r.ttfb.add(decode(n.get("ttfb").asText()));
    for (Map.Entry<String, JsonNode> e : n.get("perOp").properties()) {
      r.perOp.put(Op.valueOf(e.getKey()), decode(e.getValue().asText()));
    }
    r.windowStartNanos = n.get("windowStartNanos").asLong();
    r.windowEndNanos = n.get("windowEndNanos").asLong();
    r.startEpochNanos = n.get("startEpochNanos").asLong();
    JsonNode reason = n.get("invalidReason");
    r.invalidReason = reason == null || reason.isNull() ? null : reason.asText();
    double cpu = n.get("cpuUtilisation").asDouble();
    r.cpuUtilisation = cpu < 0 ? Double.NaN : cpu;
    double pressure = n.path("cpuPressure").asDouble(-1);
    r.cpuPressure = pressure < 0 ? Double.NaN : pressure;
    r.sliceOps = longs(n.get("sliceOps"));
    r.sliceBytes = longs(n.get("sliceBytes"));
    return r;
  }

  private static long[] longs(JsonNode array) {
    long[] values = new long[array.size()];
    for (int i = 0; i < values.length; i++) {
      values[i] = array.get(i).asLong();
    }
    return values;
  }

  /** Base64 of the histogram's compressed encoding. */
  public static String encode(Histogram h) {
    ByteBuffer buffer = ByteBuffer.allocate(h.getNeededByteBufferCapacity() + 64);
    int length = h.encodeIntoCompressedByteBuffer(buffer);
    return Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(buffer.array(), length));
  }

  /** The histogram {@link #encode} encoded. */
  public static Histogram decode(String base64) {
    try {
      return Histogram.decodeFromCompressedByteBuffer(
          ByteBuffer.wrap(Base64.getDecoder().decode(base64)), 0);
    } catch (java.util.zip.DataFormatException e) {
      throw new IllegalArgumentException("histogram: not a compressed HdrHistogram", e);
    }
  }
}
