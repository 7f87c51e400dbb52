package io.racs.bench.object.cost;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.bench.object.run.IterationResult;
import io.racs.bench.object.run.PointResult;
import io.racs.bench.object.run.Workload;
import io.racs.bench.object.workload.KeyDistribution;
import io.racs.bench.object.workload.Mix;
import io.racs.bench.object.workload.Op;
import io.racs.bench.object.workload.RangeSpec;
import io.racs.bench.object.workload.SizeSpec;
import io.racs.bench.stats.ArrivalSchedule.Arrivals;
import io.racs.repos.price.PriceBook;
import io.racs.repos.price.Prices;
import java.math.BigDecimal;
import java.math.MathContext;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Proves the cost arithmetic on hand-made iterations, to the last digit: each repository's calls at
 * its own prices, divided by the client requests; GET bytes as transfer out per 2^30 bytes; the
 * direct baseline as one request of the operation's kind plus its bytes; a mix weighed by what it
 * completed; free deletes with no ratio; and no cost for a point that counted no repository calls.
 */
class CostTest {
  private static final PriceBook AWS = PriceBook.awsDefault();

  private static Workload workload(Mix mix, long sizeBytes) {
    return new Workload(
        mix,
        SizeSpec.fixed(sizeBytes),
        KeyDistribution.UNIFORM,
        RangeSpec.NONE,
        8,
        1,
        "t/",
        1,
        0,
        Arrivals.CONSTANT,
        Duration.ofSeconds(1),
        0,
        false,
        1,
        1000);
  }

  /** A point of one iteration that completed {@code requests} requests moving {@code bytes}. */
  private static PointResult point(Mix mix, long sizeBytes, long requests, long bytes) {
    PointResult p = new PointResult("racs", "array", workload(mix, sizeBytes), Duration.ZERO);
    IterationResult r = new IterationResult();
    r.requests.recordValueWithCount(1_000_000L, requests);
    r.ops = requests;
    r.bytes = bytes;
    p.iterations.add(r);
    return p;
  }

  private static Map<String, Long> calls(Object... opAndCount) {
    Map<String, Long> m = new TreeMap<>();
    for (int i = 0; i < opAndCount.length; i += 2) {
      m.put((String) opAndCount[i], ((Number) opAndCount[i + 1]).longValue());
    }
    return m;
  }

  @Test
  void of_whenGetsOnTwoRepositoriesWithTheirOwnPrices_pricesEachAtItsOwn() {
    // 10 GETs of 4 KiB; each repository listed 3 times and read 2 shards of 2 KiB per GET.
    PointResult p = point(Mix.of(Op.GET), 4096, 10, 10 * 4096);
    IterationResult it = p.iterations.getFirst();
    it.repositoryCallsByRepository.put("a0", calls("list", 30, "get", 20));
    it.repositoryCallsByRepository.put("a1", calls("list", 30, "get", 20));
    it.repositoryReadBytes.put("a0", 20L * 2048);
    it.repositoryReadBytes.put("a1", 20L * 2048);
    Prices a1 =
        new Prices(
            new BigDecimal("0.005"),
            new BigDecimal("0.005"),
            new BigDecimal("0.001"),
            new BigDecimal("0.0004"),
            BigDecimal.ZERO,
            new BigDecimal("0.0004"),
            BigDecimal.ZERO);
    PriceBook book = new PriceBook(Prices.AWS_S3_STANDARD_US_EAST_1, Map.of("a1", a1));

    Cost cost = Cost.of(p, book).orElseThrow();

    // Per 1M GETs: LIST 3 + 3 per GET at $0.005 per 1,000 = $30; GET 2 per GET at $0.0004 on a0
    // ($0.80) and at $0.001 on a1 ($2); a0 returned 4,096 bytes per GET: 4096 x 10^6 / 2^30 GB at
    // $0.09 = $0.34332275390625; a1's transfer is free.
    assertThat(cost.array().get("list")).isEqualByComparingTo("30");
    assertThat(cost.array().get("get")).isEqualByComparingTo("2.8");
    assertThat(cost.array().get("put")).isEqualByComparingTo("0");
    assertThat(cost.array().get("transferOut")).isEqualByComparingTo("0.34332275390625");
    assertThat(cost.arrayTotal()).isEqualByComparingTo("33.14332275390625");
    // Directly: one GET per GET ($0.40 per 1M) and the same 4,096 bytes out.
    assertThat(cost.direct().get("get")).isEqualByComparingTo("0.4");
    assertThat(cost.direct().get("list")).isEqualByComparingTo("0");
    assertThat(cost.direct().get("transferOut")).isEqualByComparingTo("0.34332275390625");
    assertThat(cost.directTotal()).isEqualByComparingTo("0.74332275390625");
    assertThat(cost.ratio())
        .hasValue(
            new BigDecimal("33.14332275390625")
                .divide(new BigDecimal("0.74332275390625"), MathContext.DECIMAL64)
                .doubleValue());
  }

  @Test
  void of_whenPutsAndProbes_pricesPutsAsWritesAndProbesAsOtherRequests() {
    // 4 PUTs of 1 MiB: 12 PUTs, 6 LISTs and 2 probes per PUT on one repository.
    PointResult p = point(Mix.of(Op.PUT), 1 << 20, 4, 4L << 20);
    IterationResult it = p.iterations.getFirst();
    it.repositoryCallsByRepository.put("a0", calls("put", 48, "list", 24, "probe", 8));
    it.repositoryReadBytes.put("a0", 0L);

    Cost cost = Cost.of(p, AWS).orElseThrow();

    assertThat(cost.array().get("put")).isEqualByComparingTo("60"); // 12 x 0.005 x 1000
    assertThat(cost.array().get("list")).isEqualByComparingTo("30");
    assertThat(cost.array().get("other")).isEqualByComparingTo("0.8"); // 2 x 0.0004 x 1000
    assertThat(cost.array().get("transferOut")).isEqualByComparingTo("0");
    assertThat(cost.arrayTotal()).isEqualByComparingTo("90.8");
    // Uploads are free: one PUT per PUT.
    assertThat(cost.directTotal()).isEqualByComparingTo("5");
    assertThat(cost.ratio()).hasValue(90.8 / 5);
  }

  @Test
  void of_whenDeletes_directIsFreeAndThereIsNoRatio() {
    PointResult p = point(Mix.of(Op.DELETE), 4096, 5, 0);
    p.iterations
        .getFirst()
        .repositoryCallsByRepository
        .put("a0", calls("list", 60, "get", 5, "put", 30));

    Cost cost = Cost.of(p, AWS).orElseThrow();

    assertThat(cost.array().get("delete")).isEqualByComparingTo("0");
    // 12 LIST and 6 PUT per DELETE at $0.005, 1 GET at $0.0004, per 1,000 x 10^6.
    assertThat(cost.arrayTotal()).isEqualByComparingTo("90.4");
    assertThat(cost.directTotal()).isEqualByComparingTo("0");
    assertThat(cost.ratio()).isEmpty();
  }

  @Test
  void of_whenMix_weighsTheDirectRequestsByWhatTheMixCompleted() {
    PointResult p = point(Mix.parse("put=50,get=50"), 1024, 10, 10 * 1024);
    IterationResult it = p.iterations.getFirst();
    it.perOp.put(Op.PUT, IterationResult.newHistogram());
    it.perOp.put(Op.GET, IterationResult.newHistogram());
    it.perOp.get(Op.PUT).recordValueWithCount(1_000_000L, 5);
    it.perOp.get(Op.GET).recordValueWithCount(1_000_000L, 5);
    it.repositoryCallsByRepository.put("a0", calls("get", 10));

    Cost cost = Cost.of(p, AWS).orElseThrow();

    assertThat(cost.array().get("get")).isEqualByComparingTo("0.4");
    // Half PUTs ($2.50 per 1M), half GETs ($0.20) of 1,024 bytes: 512 x 10^6 / 2^30 x $0.09.
    assertThat(cost.direct().get("put")).isEqualByComparingTo("2.5");
    assertThat(cost.direct().get("get")).isEqualByComparingTo("0.2");
    assertThat(cost.direct().get("transferOut")).isEqualByComparingTo("0.04291534423828125");
  }

  @Test
  void of_whenThePointCountedNoRepositoryCalls_isEmpty() {
    assertThat(Cost.of(point(Mix.of(Op.GET), 4096, 10, 40960), AWS)).isEmpty();
    PointResult none = new PointResult("racs", "array", workload(Mix.of(Op.GET), 1), Duration.ZERO);
    assertThat(Cost.of(none, AWS)).isEmpty();
  }
}
