package io.racs.proxy.admin;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.repos.ObjectStream;
import io.racs.repos.Repository;
import io.racs.repos.decorator.MeteredRepository;
import io.racs.repos.memory.MemoryRepository;
import io.racs.repos.price.PriceBook;
import io.racs.repos.price.Prices;
import java.io.ByteArrayInputStream;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Proves the console's per-repository traffic: the price so far is each operation's calls and the
 * GETs' bytes at the price book's prices (the same {@link Prices} arithmetic the bench's costs
 * use), and the latency history samples only the calls of each interval, no more often than {@link
 * LatencyHistory#EVERY}, keeping the last {@link LatencyHistory#POINTS}.
 */
class ConsoleTrafficTest {
  private static void put(Repository r, String key, int bytes) {
    r.put(key, new ByteArrayInputStream(new byte[bytes]), bytes);
  }

  private static void get(Repository r, String key) throws Exception {
    try (ObjectStream in = r.get(key)) {
      in.readAllBytes();
    }
  }

  @Test
  void pricesSoFar_whenCallsMade_priceThemAtTheBook() throws Exception {
    Repository metered = new MeteredRepository(MemoryRepository.create("r0"));
    Repository unmetered = MemoryRepository.create("r1");
    for (int i = 0; i < 10; i++) {
      put(metered, "k" + i, 1000);
    }
    for (int i = 0; i < 4; i++) {
      get(metered, "k" + i);
    }
    metered.head("k0");
    metered.delete("k1");

    Map<Integer, BigDecimal> prices =
        RepositoryMetrics.pricesSoFar(List.of(metered, unmetered), PriceBook.awsDefault());

    Prices aws = Prices.AWS_S3_STANDARD_US_EAST_1;
    BigDecimal expected =
        new BigDecimal("0.005")
            .multiply(BigDecimal.TEN)
            .add(new BigDecimal("0.0004").multiply(BigDecimal.valueOf(5)))
            .divide(BigDecimal.valueOf(1000))
            .add(aws.transferOut(BigDecimal.valueOf(4000), MathContext.DECIMAL64));
    assertThat(prices).containsOnlyKeys(0);
    assertThat(prices.get(0)).isEqualByComparingTo(expected);
  }

  @Test
  void sample_whenCallsBetweenSamples_recordsTheIntervalOnly() {
    Repository r = new MeteredRepository(MemoryRepository.create("r0"));
    LatencyHistory history = new LatencyHistory();
    put(r, "before", 10);
    history.sample(List.of(r), 0); // the baseline: no point yet
    assertThat(history.of(0)).isEmpty();

    put(r, "a", 10);
    put(r, "b", 10);
    history.sample(List.of(r), 1000); // too soon: skipped
    assertThat(history.of(0)).isEmpty();
    history.sample(List.of(r), LatencyHistory.EVERY.toMillis());
    assertThat(history.of(0))
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.calls()).isEqualTo(2);
              assertThat(p.p50Seconds()).isPositive().isLessThanOrEqualTo(p.p99Seconds());
            });

    history.sample(List.of(r), 2 * LatencyHistory.EVERY.toMillis());
    assertThat(history.of(0))
        .hasSize(2)
        .last()
        .satisfies(
            p -> {
              assertThat(p.calls()).isZero();
              assertThat(p.p50Seconds()).isNaN();
            });
  }

  @Test
  void sample_whenManySamples_keepsTheLastPoints() {
    Repository r = new MeteredRepository(MemoryRepository.create("r0"));
    LatencyHistory history = new LatencyHistory();
    long every = LatencyHistory.EVERY.toMillis();
    for (int i = 0; i <= LatencyHistory.POINTS + 10; i++) {
      history.sample(List.of(r), i * every);
    }
    List<LatencyHistory.Point> points = history.of(0);
    assertThat(points).hasSize(LatencyHistory.POINTS);
    assertThat(points.get(points.size() - 1).millis())
        .isEqualTo((LatencyHistory.POINTS + 10) * every);
  }
}
