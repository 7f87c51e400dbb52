package io.racs.bench.block;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.racs.bench.stats.Estimate;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * The parts every block {@code results.json} shares (the block schemas of {@code
 * racs-bench/RESULTS-SCHEMA.md}): the head (schema version, kind, tool, times, host, command),
 * estimates over iterations, verification failures, and {@code null} for unknown numbers.
 */
final class BlockJson {
  static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private BlockJson() {}

  /** A root node of {@code kind} with the shared head; {@code plan} and the rest follow. */
  static ObjectNode root(String kind, Instant startedAt, List<String> command) {
    ObjectNode root = MAPPER.createObjectNode();
    root.put("schemaVersion", SweepReport.SCHEMA_VERSION);
    root.put("kind", kind);
    root.put("tool", "racs-bench");
    root.put("startedAt", startedAt.toString());
    root.put("finishedAt", Instant.now().toString());
    ObjectNode host = root.putObject("host");
    host.put("cores", Runtime.getRuntime().availableProcessors());
    host.put("physicalMemoryBytes", BlockFile.physicalMemoryBytes());
    host.put("jvm", Runtime.version().toString());
    host.put("os", System.getProperty("os.name") + " " + System.getProperty("os.arch"));
    ArrayNode array = root.putArray("command");
    command.forEach(array::add);
    return root;
  }

  /** Puts {@code value}, or null when it is NaN. */
  static void number(ObjectNode o, String field, double value) {
    if (Double.isNaN(value) || Double.isInfinite(value)) {
      o.putNull(field);
    } else {
      o.put(field, value);
    }
  }

  /**
   * Puts {@code e} as {@code field}: {@code mean}, {@code ciLow}, {@code ciHigh}, {@code
   * halfWidth}, {@code stddev}, {@code n}, {@code confidence} (unknown ones null), the shape {@code
   * racs bench compare} reads.
   */
  static void estimate(ObjectNode o, String field, Estimate e) {
    ObjectNode n = o.putObject(field);
    number(n, "mean", e.mean());
    number(n, "ciLow", e.low());
    number(n, "ciHigh", e.high());
    number(n, "halfWidth", e.halfWidth());
    number(n, "stddev", e.stddev());
    n.put("n", e.n());
    n.put("confidence", e.confidence());
  }

  /** Puts {@code verifiedBlocks} and {@code verifyFailures[]}. */
  static void failures(ObjectNode o, long verified, List<Stamp.Failure> failures) {
    o.put("verifiedBlocks", verified);
    ArrayNode array = o.putArray("verifyFailures");
    for (Stamp.Failure f : failures) {
      ObjectNode fo = array.addObject();
      fo.put("offsetBytes", f.offsetBytes());
      fo.put("kind", f.kind().name().toLowerCase(Locale.ROOT));
      fo.put("detail", f.detail());
    }
  }

  /** Writes {@code root} as {@code dir/results.json}, creating {@code dir}. */
  static void write(Path dir, ObjectNode root) throws IOException {
    Files.createDirectories(dir);
    MAPPER.writeValue(dir.resolve("results.json").toFile(), root);
  }
}
