package io.racs.bench.object.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import io.racs.bench.demo.EmbeddedZooKeeper;
import io.racs.proxy.cli.ExitCodes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Proves {@code racs bench object --array} measures the store in process over its repositories: the
 * delay on each repository, parallelism and repository-call cost per client count, cold reads that
 * read every record again, and views coordinated through ZooKeeper (the config's section or {@code
 * --embedded-zookeeper}) reading warm keys with no LIST.
 */
class ObjectArrayCommandTest extends ObjectCommandSupport {
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
    // each key through a view is cold (one more read), and a view lists the bucket's records and
    // the array's records (its recorded layout, see docs/reshape.md) once when it opens (twelve
    // lists over the point's 20 GETs), so the means are a little above.
    JsonNode perOp = point(root, "racs/get/4KiB/c1/d10ms").get("repositoryRequestsPerOp");
    assertThat(perOp.get("list").asDouble()).isBetween(6.0, 6.0 + 12.0 / 20);
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
}
