package io.racs.bench.object.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.racs.bench.cli.BenchMain;
import io.racs.bench.demo.EmbeddedZooKeeper;
import io.racs.proxy.cli.ExitCodes;
import java.io.File;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Proves {@code racs bench object} end to end on real memory and fs repositories with tiny
 * iterations: the results.json schema, verified GETs equal to counted GETs, monotone percentiles,
 * errors of a faulty repository counted by kind, injected latency visible in p50, open-loop
 * correction, exact mixes, the report files, compare, one-line errors for bad input, and the
 * in-process array coordinated through ZooKeeper (its config's section or {@code
 * --embedded-zookeeper}) reading warm keys with no LIST.
 */
class ObjectCommandTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;
  private Path config;
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  @BeforeEach
  void writeConfig() throws Exception {
    Path fs = Files.createDirectories(dir.resolve("fs"));
    config = dir.resolve("racs.yaml");
    Files.writeString(
        config,
        """
        repositories:
          - name: mem
            type: memory
          - name: disk
            type: fs
            path: %s
            durable: false
          - name: slow
            type: memory
            decorators:
              - latency: {delay: 10ms}
          - name: glacial
            type: memory
            decorators:
              - latency: {delay: 300ms}
          - name: broken
            type: memory
            decorators:
              - faulty: {failRate: 0.25, kind: UNAVAILABLE, seed: 3}
        """
            .formatted(fs));
  }

  private int run(String... args) {
    List<String> all = new ArrayList<>(List.of("object", "--config", config.toString(), "--quiet"));
    all.addAll(List.of(args));
    return BenchMain.run(
        new PrintWriter(out, true), new PrintWriter(err, true), all.toArray(String[]::new));
  }

  private static JsonNode results(Path out) throws Exception {
    return JSON.readTree(out.resolve("results.json").toFile());
  }

  private static JsonNode point(JsonNode root, String id) {
    for (JsonNode p : root.get("points")) {
      if (p.get("id").asText().equals(id)) {
        return p;
      }
    }
    throw new AssertionError("no point " + id + " in " + root.get("points"));
  }

  private static void assertMonotone(JsonNode latency) {
    double[] v = {
      latency.get("p50").asDouble(),
      latency.get("p90").asDouble(),
      latency.get("p99").asDouble(),
      latency.get("p999").asDouble(),
      latency.get("p9999").asDouble(),
      latency.get("max").asDouble()
    };
    for (int i = 1; i < v.length; i++) {
      assertThat(v[i]).as("percentile %d of %s", i, latency).isGreaterThanOrEqualTo(v[i - 1]);
    }
    assertThat(v[0]).isPositive();
  }

  @Test
  void object_whenGetAndPutOnMemoryAndFs_writesTheSchemaAndVerifiesEveryGet() throws Exception {
    Path o = dir.resolve("out");
    int code =
        run(
            "--repository",
            "mem,disk",
            "--op",
            "get,put",
            "--sizes",
            "4KiB",
            "--clients",
            "1,2",
            "--warmup",
            "1",
            "--iterations",
            "3",
            "--duration",
            "150ms",
            "--objects",
            "16",
            "--verify",
            "--out",
            o.toString());
    assertThat(code).as(err.toString()).isEqualTo(ExitCodes.OK);
    JsonNode root = results(o);
    assertThat(root.get("schemaVersion").asInt()).isEqualTo(2);
    assertThat(root.get("kind").asText()).isEqualTo("object");
    assertThat(root.get("targets")).hasSize(2);
    assertThat(root.get("points")).hasSize(8);
    for (JsonNode p : root.get("points")) {
      assertThat(p.get("iterations")).hasSize(3);
      assertThat(p.get("errorsTotal").asLong()).as(p.get("id").asText()).isZero();
      assertThat(p.get("ops").asLong()).isPositive();
      assertThat(p.at("/throughput/opsPerSecond/mean").asDouble()).isPositive();
      // On a loaded machine an iteration can lack a window (a client stopped before another
      // completed a request); it is then excluded and said so, and the interval needs two.
      int valid = 0;
      for (JsonNode i : p.get("iterations")) {
        valid += i.get("valid").asBoolean() ? 1 : 0;
      }
      assertThat(p.get("validIterations").asInt()).isEqualTo(valid);
      if (valid < 3) {
        assertThat(p.get("notes").toString()).contains("excluded: no window");
      }
      assertThat(p.at("/throughput/opsPerSecond/ciLow").isNumber()).isEqualTo(valid >= 2);
      assertMonotone(p.get("latencyMillis"));
      long iterationOps = 0;
      for (JsonNode i : p.get("iterations")) {
        iterationOps += i.get("ops").asLong();
        if (!i.get("valid").asBoolean()) {
          assertThat(i.get("opsPerSecond").isNull()).isTrue();
          assertThat(i.get("invalidReason").asText()).endsWith("raise --duration");
          continue;
        }
        assertThat(i.get("invalidReason").isNull()).isTrue();
        // The window ends when the first client stops, at its first completion after the
        // deadline: at most one request (which the window includes) past the 150 ms, plus however
        // long a loaded machine keeps the client's thread off a core (200 ms allowed: a run
        // beside other builds measured 135 ms of it).
        double maxSeconds = p.at("/latencyMillis/max").asDouble() / 1000;
        assertThat(i.get("windowSeconds").asDouble()).isBetween(0.01, 0.15 + maxSeconds + 0.2);
        assertThat(i.get("windowSeconds").asDouble() * 1000)
            .isGreaterThanOrEqualTo(i.get("requestP50Millis").asDouble());
      }
      assertThat(iterationOps).isEqualTo(p.get("ops").asLong());
      // The hlog holds exactly the measured requests.
      long logged = 0;
      HistogramLogReader reader =
          new HistogramLogReader(new File(o.toFile(), p.get("hlog").asText()));
      for (EncodableHistogram h = reader.nextIntervalHistogram();
          h != null;
          h = reader.nextIntervalHistogram()) {
        if ("latency".equals(h.getTag())) {
          logged += ((org.HdrHistogram.Histogram) h).getTotalCount();
        }
      }
      assertThat(logged).isEqualTo(p.get("ops").asLong());
      if (p.get("workload").asText().equals("get")) {
        assertThat(p.get("verifiedObjects").asLong()).isEqualTo(p.get("ops").asLong());
        assertMonotone(p.get("ttfbMillis"));
      }
    }
    assertThat(point(root, "disk/get/4KiB/c2/d0ms").get("targetKind").asText())
        .isEqualTo("repository");
    List<String> kinds = new ArrayList<>();
    root.get("ratios").forEach(r -> kinds.add(r.get("kind").asText()));
    assertThat(kinds).containsOnly("parallelismImpact").hasSize(4);
    assertThat(Files.readAllLines(o.resolve("results.csv"))).hasSize(9);
    String html = Files.readString(o.resolve("report.html"));
    assertThat(html).contains("<svg", "Throughput against clients", "parallelismImpact");
    assertThat(html).doesNotContain("<script", "http://cdn", "https://");
    assertThat(out.toString()).contains("mem/get/4KiB/c1/d0ms", "ops/s (99.9% CI)", "results: ");
  }

  @Test
  void object_whenRequestsOutlastTheIteration_reportsNoThroughputAndWarns() throws Exception {
    // Requests of 300 ms in a 50 ms iteration: each client completes one request, after the
    // deadline, so any window lies between two completions microseconds apart.
    Path o = dir.resolve("out");
    assertThat(
            run(
                "--repository",
                "glacial",
                "--op",
                "put",
                "--clients",
                "2",
                "--warmup",
                "0",
                "--iterations",
                "2",
                "--duration",
                "50ms",
                "--out",
                o.toString()))
        .as(err.toString())
        .isEqualTo(ExitCodes.OK);
    JsonNode p = point(results(o), "glacial/put/4KiB/c2/d0ms");
    assertThat(p.at("/throughput/opsPerSecond").isNull()).isTrue();
    assertThat(p.at("/throughput/megabytesPerSecond").isNull()).isTrue();
    assertThat(p.get("validIterations").asInt()).isZero();
    assertThat(p.get("warning").asText())
        .startsWith("no throughput: every iteration (2) was excluded; iteration 1: ");
    for (JsonNode i : p.get("iterations")) {
      assertThat(i.get("valid").asBoolean()).isFalse();
      assertThat(i.get("opsPerSecond").isNull()).isTrue();
      if (i.get("requestP50Millis").isNull()) {
        // On a loaded machine neither client may have started a request within the 50 ms.
        assertThat(i.get("invalidReason").asText())
            .isEqualTo("no window: no request completed: raise --duration");
        continue;
      }
      assertThat(i.get("requestP50Millis").asDouble()).isGreaterThanOrEqualTo(300.0);
      assertThat(i.get("invalidReason").asText())
          .matches(
              "(no window: a client stopped before every client had completed a request"
                  + "|window [0-9.]+ (µs|ms) shorter than a request) \\(p50 0\\.3 s\\):"
                  + " raise --duration");
    }
    String[] row = Files.readAllLines(o.resolve("results.csv")).get(1).split(",", -1);
    assertThat(row[9]).isEmpty();
    assertThat(row[row.length - 5]).isEqualTo("0"); // validIterations
    // repositoryRequestsPerOp and the costs of 1M operations: not an array.
    assertThat(List.of(row).subList(row.length - 3, row.length)).containsOnly("");
    assertThat(out.toString()).contains("no valid window");
    assertThat(err.toString())
        .startsWith(
            "racs bench object: warning: glacial/put/4KiB/c2/d0ms: no throughput: every"
                + " iteration (2) was excluded");
  }

  @Test
  void object_whenCountModeOfTwentyRequestsPerClient_keepsEveryWindow() throws Exception {
    // Two clients, 20 requests of at least 10 ms each: a window of about 19 requests per client.
    Path o = dir.resolve("out");
    assertThat(
            run(
                "--repository",
                "slow",
                "--op",
                "put",
                "--clients",
                "2",
                "--warmup",
                "0",
                "--iterations",
                "2",
                "--count",
                "40",
                "--out",
                o.toString()))
        .as(err.toString())
        .isEqualTo(ExitCodes.OK);
    JsonNode p = point(results(o), "slow/put/4KiB/c2/d0ms");
    assertThat(p.get("validIterations").asInt()).as(p.get("notes").toString()).isEqualTo(2);
    assertThat(p.get("warning").isNull()).isTrue();
    // At most 2 clients / 10 ms, plus the one extra completion each window end may hold.
    assertThat(p.at("/throughput/opsPerSecond/mean").asDouble()).isBetween(20.0, 2 / 0.010 * 1.1);
    assertThat(err.toString()).isEmpty();
  }

  @Test
  void object_whenFaultyRepository_countsItsErrorsByKind() throws Exception {
    Path o = dir.resolve("out");
    assertThat(
            run(
                "--repository",
                "broken",
                "--op",
                "put",
                "--clients",
                "2",
                "--warmup",
                "0",
                "--iterations",
                "2",
                "--count",
                "400",
                "--out",
                o.toString()))
        .as(err.toString())
        .isEqualTo(ExitCodes.OK);
    JsonNode p = point(results(o), "broken/put/4KiB/c2/d0ms");
    long errors = p.at("/errors/UNAVAILABLE").asLong();
    assertThat(errors).isEqualTo(p.get("errorsTotal").asLong()).isPositive();
    // Roughly a quarter of the measured requests fail; the ramp cut drops a few of the 800.
    double share = errors / (double) (errors + p.get("ops").asLong());
    assertThat(share).isBetween(0.15, 0.35);
    assertThat(out.toString()).contains("UNAVAILABLE");
  }

  @Test
  void object_whenLatencyDecoratorAndInjectedDelay_showTheDelayInP50() throws Exception {
    Path o = dir.resolve("out");
    assertThat(
            run(
                "--repository",
                "slow,mem",
                "--op",
                "head",
                "--objects",
                "8",
                "--clients",
                "2",
                "--delay",
                "0ms,10ms",
                "--warmup",
                "0",
                "--iterations",
                "2",
                "--duration",
                "200ms",
                "--out",
                o.toString()))
        .as(err.toString())
        .isEqualTo(ExitCodes.OK);
    JsonNode root = results(o);
    assertThat(point(root, "slow/head/4KiB/c2/d0ms").at("/latencyMillis/p50").asDouble())
        .isGreaterThanOrEqualTo(10.0);
    assertThat(point(root, "mem/head/4KiB/c2/d10ms").at("/latencyMillis/p50").asDouble())
        .isGreaterThanOrEqualTo(10.0);
    assertThat(point(root, "mem/head/4KiB/c2/d0ms").at("/latencyMillis/p50").asDouble())
        .isLessThan(10.0);
    List<String> latencyImpact = new ArrayList<>();
    for (JsonNode r : root.get("ratios")) {
      if (r.get("kind").asText().equals("latencyImpact")) {
        latencyImpact.add(r.get("numerator").asText());
        assertThat(r.get("value").asDouble()).isLessThan(1.0);
      }
    }
    assertThat(latencyImpact).contains("mem/head/4KiB/c2/d10ms", "slow/head/4KiB/c2/d10ms");
  }

  @Test
  void object_whenArray_measuresTheStoreInProcessWithTheDelayOnEachRepository() throws Exception {
    StringBuilder yaml =
        new StringBuilder(
            "array:\n  geometry: 4x2\n  slots: [m0, m1, m2, m3, m4, m5]\nrepositories:\n");
    for (int i = 0; i < 6; i++) {
      yaml.append("  - name: m").append(i).append("\n    type: memory\n");
    }
    yaml.append("  - name: direct\n    type: memory\n");
    config = Files.writeString(dir.resolve("array.yaml"), yaml);
    Path o = dir.resolve("out");
    assertThat(
            run(
                "--array",
                "racs",
                "--repository",
                "direct",
                "--op",
                "get",
                "--objects",
                "4",
                "--delay",
                "0ms,10ms",
                "--warmup",
                "0",
                "--iterations",
                "2",
                "--count",
                "10",
                "--overhead",
                "racs/direct",
                "--out",
                o.toString()))
        .as(err.toString())
        .isEqualTo(ExitCodes.OK);
    JsonNode root = results(o);
    List<String> kinds = new ArrayList<>();
    root.get("targets").forEach(t -> kinds.add(t.get("kind").asText()));
    assertThat(kinds).containsExactlyInAnyOrder("array", "repository");
    for (String id : List.of("racs/get/4KiB/c1/d0ms", "racs/get/4KiB/c1/d10ms")) {
      assertThat(point(root, id).get("errorsTotal").asLong()).as(id).isZero();
    }
    // A warm GET lists the key's index on all six repositories and reads k = 4 shards (inline
    // records here): 10 repository requests per GET, as docs/bench/cost.md pins. The first GET of
    // each key through a view is cold (one more read), and a view lists the bucket's records once
    // when it opens (six lists over the point's 20 GETs), so the means are a little above.
    JsonNode perOp = point(root, "racs/get/4KiB/c1/d10ms").get("repositoryRequestsPerOp");
    assertThat(perOp.get("list").asDouble()).isBetween(6.0, 6.0 + 6.0 / 20);
    assertThat(perOp.get("get").asDouble()).isBetween(4.0, 6.0);
    assertThat(point(root, "direct/get/4KiB/c1/d10ms").has("repositoryRequestsPerOp")).isFalse();
    // At AWS S3 Standard's prices: LIST $0.005 and GET $0.0004 per 1,000, so per 1M client GETs
    // $5 per LIST and $0.40 per GET a client GET cost; directly, one GET and 4 KiB out at $0.09
    // per 2^30 bytes.
    JsonNode cost = point(root, "racs/get/4KiB/c1/d10ms").get("costPerMillionOps");
    assertThat(cost.at("/array/list").asDouble())
        .isCloseTo(5 * perOp.get("list").asDouble(), within(1e-9));
    assertThat(cost.at("/array/get").asDouble())
        .isCloseTo(0.4 * perOp.get("get").asDouble(), within(1e-9));
    assertThat(cost.at("/array/transferOut").asDouble()).isPositive();
    assertThat(cost.at("/direct/get").asDouble()).isEqualTo(0.4);
    assertThat(cost.at("/direct/transferOut").asDouble()).isEqualTo(4096e6 / (1L << 30) * 0.09);
    assertThat(point(root, "direct/get/4KiB/c1/d10ms").has("costPerMillionOps")).isFalse();
    assertThat(root.at("/prices/source").asText()).startsWith("AWS S3 Standard, us-east-1");
    // Each repository call waits 10 ms, so a GET through the array takes at least that.
    assertThat(point(root, "racs/get/4KiB/c1/d10ms").at("/latencyMillis/p50").asDouble())
        .isGreaterThanOrEqualTo(10.0);
    List<String> ratios = new ArrayList<>();
    root.get("ratios")
        .forEach(r -> ratios.add(r.get("kind").asText() + " " + r.get("numerator").asText()));
    assertThat(ratios)
        .contains(
            "latencyImpact racs/get/4KiB/c1/d10ms",
            "overhead racs/get/4KiB/c1/d0ms",
            "overhead racs/get/4KiB/c1/d10ms");
  }

  /** Six memory repositories m0..m5 as a 4x2 array, one more called direct, and {@code tail}. */
  private Path arrayConfig(String tail) throws Exception {
    StringBuilder yaml =
        new StringBuilder(
            "array:\n  geometry: 4x2\n  slots: [m0, m1, m2, m3, m4, m5]\nrepositories:\n");
    for (int i = 0; i < 6; i++) {
      yaml.append("  - name: m").append(i).append("\n    type: memory\n");
    }
    yaml.append("  - name: direct\n    type: memory\n").append(tail);
    return Files.writeString(dir.resolve("array.yaml"), yaml);
  }

  @Test
  void object_whenArrayAtOneAndEightClientsOverDelayedRepositories_reportsParallelismAndCost()
      throws Exception {
    // GETs cost $0.001 per 1,000 and nothing else costs anything: the array's cost of 1M GETs is
    // its GETs per client GET, in dollars, and one repository directly costs exactly $1.
    config =
        arrayConfig(
            """
            prices:
              default: {listPer1000: 0, getPer1000: 0.001, transferOutPerGB: 0}
            """);
    Path o = dir.resolve("out");
    assertThat(
            run(
                "--array",
                "racs",
                "--op",
                "get",
                "--objects",
                "8",
                "--clients",
                "1,8",
                "--delay",
                "10ms",
                "--warmup",
                "0",
                "--iterations",
                "2",
                "--count",
                "64",
                "--out",
                o.toString()))
        .as(err.toString())
        .isEqualTo(ExitCodes.OK);
    JsonNode root = results(o);
    assertThat(root.at("/prices/default/getPer1000").decimalValue()).isEqualByComparingTo("0.001");
    assertThat(root.at("/prices/source").asText()).startsWith("the prices section of --config");
    JsonNode ratio = null;
    for (JsonNode r : root.get("ratios")) {
      if (r.get("kind").asText().equals("parallelismImpact")) {
        assertThat(r.get("denominator").asText()).isEqualTo("racs/get/4KiB/c1/d10ms");
        ratio = r;
      }
    }
    assertThat(ratio).as(root.get("ratios").toString()).isNotNull();
    assertThat(ratio.get("numerator").asText()).isEqualTo("racs/get/4KiB/c8/d10ms");
    // Eight clients waiting on 10 ms repositories overlap their waits.
    assertThat(ratio.get("value").asDouble()).isGreaterThan(1.0);
    for (String id : List.of("racs/get/4KiB/c1/d10ms", "racs/get/4KiB/c8/d10ms")) {
      JsonNode p = point(root, id);
      assertThat(p.get("errorsTotal").asLong()).as(id).isZero();
      JsonNode cost = p.get("costPerMillionOps");
      assertThat(cost.at("/array/total").asDouble())
          .as(id)
          .isCloseTo(p.at("/repositoryRequestsPerOp/get").asDouble(), within(1e-9));
      assertThat(cost.at("/array/list").asDouble()).isZero();
      assertThat(cost.at("/direct/total").asDouble()).isEqualTo(1.0);
      assertThat(cost.get("arrayOverDirect").asDouble())
          .isCloseTo(cost.at("/array/total").asDouble(), within(1e-9));
    }
    List<String> csv = Files.readAllLines(o.resolve("results.csv"));
    String[] row = csv.get(1).split(",", -1);
    assertThat(row[row.length - 1]).isEqualTo("1.00000"); // directCostPerMillionOps
    assertThat(Double.parseDouble(row[row.length - 2])).isGreaterThanOrEqualTo(4.0);
    assertThat(Files.readString(o.resolve("report.html")))
        .contains("<h2>Repository requests and cost</h2>", "racs/get/4KiB/c8/d10ms");
    assertThat(out.toString()).contains("cost of 1,000,000 client operations, USD");
  }

  /**
   * {@code --array-cold}: every GET and HEAD is that of a proxy that has not read the key, so each
   * reads the version's record after the listing (docs/bench/cost.md: a cold 1 MiB GET is 6 LIST
   * and 5 GET, a warm one 6 LIST and 4 GET; a cold HEAD 6 LIST and 1 GET, a warm one 6 LIST).
   */
  @Test
  void object_whenArrayCold_readsEveryRecordAgain() throws Exception {
    config = arrayConfig("");
    Path o = dir.resolve("out");
    assertThat(
            run(
                "--array",
                "racs",
                "--array-cold",
                "--op",
                "get,head",
                "--sizes",
                "1MiB",
                "--objects",
                "4",
                "--warmup",
                "0",
                "--iterations",
                "2",
                "--count",
                "10",
                "--out",
                o.toString()))
        .as(err.toString())
        .isEqualTo(ExitCodes.OK);
    JsonNode root = results(o);
    assertThat(root.get("targets").get(0).get("kind").asText()).isEqualTo("array-cold");
    JsonNode get = point(root, "racs/get/1MiB/c1/d0ms").get("repositoryRequestsPerOp");
    // A hedge (a shard or record late on a loaded machine) may add a GET now and then; warm would
    // be 4 and 0.
    assertThat(get.get("get").asDouble()).isBetween(5.0, 6.0);
    JsonNode head = point(root, "racs/head/1MiB/c1/d0ms").get("repositoryRequestsPerOp");
    assertThat(head.get("get").asDouble()).isBetween(1.0, 2.0);
    assertThat(head.get("list").asDouble()).isBetween(6.0, 6.0 + 6.0 / 20);
  }

  /**
   * GET and HEAD of two keys through the array at 0 and 10 ms, after a warmup iteration that reads
   * both keys through each view (a view's store lists a key the first time it reads it).
   */
  private JsonNode readTwoKeys(Path o, String... more) throws Exception {
    List<String> args =
        new ArrayList<>(
            List.of(
                "--array",
                "racs",
                "--op",
                "get,head",
                "--objects",
                "2",
                "--delay",
                "0ms,10ms",
                "--warmup",
                "1",
                "--iterations",
                "2",
                "--count",
                "10",
                "--out",
                o.toString()));
    args.addAll(List.of(more));
    assertThat(run(args.toArray(String[]::new))).as(err.toString()).isEqualTo(ExitCodes.OK);
    JsonNode root = results(o);
    for (JsonNode p : root.get("points")) {
      assertThat(p.get("errorsTotal").asLong()).as(p.get("id").asText()).isZero();
    }
    return root;
  }

  private static final List<String> READS =
      List.of(
          "racs/get/4KiB/c1/d0ms",
          "racs/get/4KiB/c1/d10ms",
          "racs/head/4KiB/c1/d0ms",
          "racs/head/4KiB/c1/d10ms");

  /**
   * {@code --embedded-zookeeper}: the array's views coordinate through a ZooKeeper in the bench's
   * process with the version cache on, so a warm GET or HEAD lists nothing (issue 20's steady-state
   * GET: k shard GETs) where the same run without it lists every repository on every read.
   */
  @Test
  void object_whenEmbeddedZooKeeper_warmReadsListNothing() throws Exception {
    config = arrayConfig("");
    JsonNode alone = readTwoKeys(dir.resolve("alone"));
    for (String id : READS) {
      assertThat(point(alone, id).at("/repositoryRequestsPerOp/list").asDouble())
          .as(id)
          .isGreaterThanOrEqualTo(6.0);
    }

    JsonNode cached = readTwoKeys(dir.resolve("cached"), "--embedded-zookeeper");
    assertThat(cached.at("/targets/0/description/coordination").asText())
        .as(cached.get("targets").toString())
        .matches("zookeeper 127\\.0\\.0\\.1:\\d+, version cache");
    // A warm HEAD answers from the record read before: no repository request at all, so its point
    // reports none (hence path, not get).
    for (String id : READS) {
      JsonNode perOp = point(cached, id).path("repositoryRequestsPerOp");
      assertThat(perOp.path("list").asDouble()).as(id + " " + perOp).isZero();
    }
    // A warm GET reads k = 4 shards (a hedge on a loaded machine may add one now and then).
    for (String id : List.of("racs/get/4KiB/c1/d0ms", "racs/get/4KiB/c1/d10ms")) {
      assertThat(point(cached, id).at("/repositoryRequestsPerOp/get").asDouble())
          .as(id)
          .isBetween(4.0, 5.0);
    }
  }

  /** The array follows the coordination section of --config as a proxy over it would. */
  @Test
  void object_whenTheConfigHasACoordinationSectionWithTheVersionCache_warmReadsListNothing()
      throws Exception {
    try (EmbeddedZooKeeper zookeeper = EmbeddedZooKeeper.startTemporary()) {
      config =
          arrayConfig(
              "coordination: {zookeeper: '"
                  + zookeeper.connectString()
                  + "', namespace: bench, versionCache: true}\n");
      JsonNode root = readTwoKeys(dir.resolve("out"));
      for (String id : READS) {
        JsonNode perOp = point(root, id).path("repositoryRequestsPerOp");
        assertThat(perOp.path("list").asDouble()).as(id + " " + perOp).isZero();
      }
    }
  }

  @Test
  void object_whenEmbeddedZooKeeperWithACoordinationSectionOrWithoutArray_failsWithOneLine()
      throws Exception {
    config = arrayConfig("coordination:\n  zookeeper: 127.0.0.1:1\n");
    Path o = dir.resolve("out");
    assertThat(run("--array", "racs", "--embedded-zookeeper", "--out", o.toString()))
        .isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString())
        .isEqualTo(
            "racs bench object: --embedded-zookeeper: "
                + config
                + " has a coordination section (expected: one or the other)"
                + System.lineSeparator());
    assertThat(o).doesNotExist();
    err.getBuffer().setLength(0);
    assertThat(run("--repository", "direct", "--embedded-zookeeper")).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString())
        .isEqualTo(
            "racs bench object: --embedded-zookeeper: needs --array NAME" + System.lineSeparator());
  }

  @Test
  void object_whenTheCoordinationSectionNamesNoZooKeeper_failsWithOneLineAfterTheWait()
      throws Exception {
    int port;
    try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
      port = free.getLocalPort();
    }
    config =
        arrayConfig("coordination: {zookeeper: '127.0.0.1:" + port + "', sessionTimeout: 1s}\n");
    assertThat(run("--array", "racs", "--out", dir.resolve("out").toString()))
        .isEqualTo(ExitCodes.FAILURE);
    assertThat(err.toString())
        .hasLineCount(1)
        .contains(
            "coordination: not connected to ZooKeeper at 127.0.0.1:"
                + port
                + " within 1000 ms (expected: a reachable ensemble, or no coordination"
                + " section)");
  }

  @Test
  void object_whenArrayColdWithoutArray_failsWithOneLine() throws Exception {
    config = arrayConfig("");
    assertThat(run("--repository", "direct", "--array-cold")).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString())
        .isEqualTo("racs bench object: --array-cold: needs --array NAME" + System.lineSeparator());
  }

  @Test
  void object_whenThePriceTableIsInvalid_failsWithOneLineBeforeAnythingRuns() throws Exception {
    config = arrayConfig("prices:\n  default: {putPer1000: -0.005}\n");
    Path o = dir.resolve("out");
    assertThat(run("--array", "racs", "--op", "put", "--out", o.toString()))
        .isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString())
        .isEqualTo(
            "racs bench object: "
                + config
                + ": prices: field 'default.putPer1000': -0.005 (expected: 0 or more)"
                + System.lineSeparator());
    assertThat(o).doesNotExist();
    config = arrayConfig("prices:\n  repositories: {m9: {getPer1000: 0}}\n");
    assertThat(run("--array", "racs", "--out", o.toString())).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("field 'repositories.m9': unknown repository");
    assertThat(o).doesNotExist();
  }

  @Test
  void object_whenOpenLoop_reportsCorrectedLatencyNextToUncorrected() throws Exception {
    Path o = dir.resolve("out");
    assertThat(
            run(
                "--repository",
                "slow",
                "--op",
                "head",
                "--objects",
                "4",
                "--clients",
                "2",
                "--rate",
                "400",
                "--arrivals",
                "poisson",
                "--warmup",
                "0",
                "--iterations",
                "2",
                "--duration",
                "300ms",
                "--out",
                o.toString()))
        .as(err.toString())
        .isEqualTo(ExitCodes.OK);
    JsonNode p = point(results(o), "slow/head/4KiB/c2/d0ms/r400");
    assertThat(p.get("loop").asText()).isEqualTo("open");
    // Two clients of 10 ms cannot keep up with 400/s: the queue shows only when corrected.
    assertMonotone(p.get("correctedLatencyMillis"));
    assertThat(p.at("/correctedLatencyMillis/p99").asDouble())
        .isGreaterThan(2 * p.at("/latencyMillis/p99").asDouble());
    assertThat(out.toString()).contains("corrected for coordinated omission");
  }

  @Test
  void object_whenMixedWithVerify_runsEveryOperationWithoutMismatch() throws Exception {
    Path o = dir.resolve("out");
    assertThat(
            run(
                "--repository",
                "disk",
                "--mix",
                "get=60,put=30,delete=10",
                "--sizes",
                "uniform:1KiB-8KiB",
                "--range",
                "random",
                "--keys",
                "zipf",
                "--clients",
                "2",
                "--warmup",
                "0",
                "--iterations",
                "2",
                "--count",
                "300",
                "--verify",
                "--out",
                o.toString()))
        .as(err.toString())
        .isEqualTo(ExitCodes.OK);
    JsonNode p = point(results(o), "disk/mixed/uniform:1KiB-8KiB/c2/d0ms");
    assertThat(p.get("mix").asText()).isEqualTo("put=3,get=6,delete=1");
    assertThat(p.at("/errors/VERIFY_MISMATCH").isMissingNode()).isTrue();
    assertThat(p.get("perOperation").has("get")).isTrue();
    assertThat(p.get("perOperation").has("put")).isTrue();
    assertThat(p.get("perOperation").has("delete")).isTrue();
    assertThat(p.get("verifiedObjects").asLong()).isPositive();
  }

  @Test
  void compare_whenTwoRuns_printsRatiosWithVerdicts() throws Exception {
    Path a = dir.resolve("a");
    Path b = dir.resolve("b");
    for (Path o : List.of(a, b)) {
      assertThat(
              run(
                  "--repository",
                  "mem",
                  "--op",
                  "head",
                  "--warmup",
                  "0",
                  "--iterations",
                  "3",
                  "--duration",
                  "100ms",
                  "--out",
                  o.toString()))
          .isEqualTo(ExitCodes.OK);
    }
    StringWriter compared = new StringWriter();
    int code =
        BenchMain.run(
            new PrintWriter(compared, true),
            new PrintWriter(err, true),
            "compare",
            a.resolve("results.json").toString(),
            b.resolve("results.json").toString(),
            "--html",
            dir.resolve("compare.html").toString());
    assertThat(code).isEqualTo(ExitCodes.OK);
    assertThat(compared.toString()).contains("mem/head/4KiB/c1/d0ms", "ops/s", "new/old");
    assertThat(compared.toString()).containsAnyOf("faster", "slower", "within noise");
    assertThat(compared.toString()).contains("html: " + dir.resolve("compare.html"));
    assertThat(Files.readString(dir.resolve("compare.html")))
        .contains("<h1>racs bench compare</h1>", "mem/head/4KiB/c1/d0ms", "<svg");
  }

  @Test
  void object_whenPrefixPerClientOverMoreKeysThanAnIntCounts_failsWithOneLine() {
    assertThat(
            run(
                "--repository",
                "mem",
                "--prefix-per-client",
                "--objects",
                "1000000",
                "--clients",
                "1,3000"))
        .isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString())
        .isEqualTo(
            "racs bench object: --prefix-per-client: 1000000 objects x 3000 clients (expected: at"
                + " most 2147483647 keys in all)"
                + System.lineSeparator());
  }

  @Test
  void object_whenPrefixPerClient_recordsItInThePlanAndRunsWithoutErrors() throws Exception {
    Path o = dir.resolve("out");
    assertThat(
            run(
                "--repository",
                "mem",
                "--op",
                "mixed",
                "--mix",
                "get=40,put=30,head=10,list=10,delete=10",
                "--verify",
                "--prefix-per-client",
                "--objects",
                "3",
                "--clients",
                "2",
                "--warmup",
                "0",
                "--iterations",
                "1",
                "--count",
                "60",
                "--out",
                o.toString()))
        .as(err.toString())
        .isEqualTo(ExitCodes.OK);
    JsonNode root = results(o);
    assertThat(root.at("/plan/prefixPerClient").asBoolean()).isTrue();
    assertThat(root.at("/plan/objects").asInt()).isEqualTo(3);
    JsonNode p = root.get("points").get(0);
    assertThat(p.get("errorsTotal").asLong()).as(p.toString()).isZero();
  }

  @Test
  void object_whenInputIsBad_failsWithOneLineAndUsageCode() {
    assertThat(run("--repository", "mem", "--sizes", "4KB")).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString())
        .startsWith("racs bench object: sizes: 4KB (expected: sizes such as 4KiB,1MiB")
        .hasLineCount(1);
    err.getBuffer().setLength(0);
    assertThat(run("--repository", "nope")).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString())
        .isEqualTo(
            "racs bench object: --repository: nope (expected one of: mem, disk, slow, glacial,"
                + " broken)"
                + System.lineSeparator());
    err.getBuffer().setLength(0);
    assertThat(
            run(
                "--endpoint",
                "http://127.0.0.1:1,http://127.0.0.1:1",
                "--access-key",
                "a",
                "--secret-key",
                "s"))
        .isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString())
        .isEqualTo(
            "racs bench object: --endpoint: http://127.0.0.1:1,http://127.0.0.1:1 (expected: each"
                + " URL once)"
                + System.lineSeparator());
    err.getBuffer().setLength(0);
    assertThat(
            run(
                "--endpoint",
                "http://127.0.0.1:1,http://127.0.0.1:2",
                "--access-key",
                "a",
                "--secret-key",
                "s",
                "--host-select",
                "random"))
        .isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString())
        .isEqualTo(
            "racs bench object: --host-select: random (expected: roundrobin or sticky)"
                + System.lineSeparator());
    err.getBuffer().setLength(0);
    assertThat(run("--array", "racs")).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString())
        .endsWith(
            "racs.yaml: array: missing section 'array' (expected: geometry, slots...)"
                + System.lineSeparator());
    err.getBuffer().setLength(0);
    assertThat(
            BenchMain.run(
                new PrintWriter(out),
                new PrintWriter(err, true),
                "compare",
                dir.resolve("missing.json").toString(),
                dir.resolve("missing.json").toString()))
        .isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("missing.json: no such file");
  }
}
