package io.racs.proxy.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.racs.proxy.runtime.RacsServer;
import io.racs.proxy.runtime.ServerConfig;
import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.testing.TestArray;
import io.racs.proxy.testing.TestClients;
import io.racs.repos.ObjectInfo;
import io.racs.repos.ObjectStream;
import io.racs.repos.Repository;
import io.racs.repos.RepositoryException;
import io.racs.repos.decorator.FaultyRepository;
import io.racs.repos.decorator.MeteredRepository;
import io.racs.repos.decorator.Operation;
import io.racs.repos.memory.MemoryRepository;
import io.racs.testkit.CountingRepository;
import io.racs.testkit.CountingRepository.Kind;
import io.racs.testkit.SeededBytes;
import io.racs.testkit.TestSeed;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Proves that {@code /metrics} tells an operator which repository is slow or failing: each slot's
 * calls, errors, latency histogram and body bytes by operation, labelled by slot and repository
 * name, with counts exactly those of known traffic (direct calls, and S3 requests through the real
 * server checked against an independent count of what reached each repository).
 */
class RepositoryMetricsTest {
  private static final String ACCESS = "test-access";
  private static final String SECRET = "test-secret-key";

  /**
   * Every sample line, by its name and labels, the labels in name order (as the client library
   * writes them), so that a key built in any order ({@link #key}) finds it.
   */
  private static Map<String, Double> samples(String exposition) {
    Map<String, Double> out = new HashMap<>();
    for (String line : exposition.split("\n")) {
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      int space = line.lastIndexOf(' ');
      out.put(key(line.substring(0, space)), Double.parseDouble(line.substring(space + 1)));
    }
    return out;
  }

  /** {@code name{labels}} with its labels sorted by name. */
  private static String key(String series) {
    int open = series.indexOf('{');
    if (open < 0) {
      return series;
    }
    TreeMap<String, String> labels = new TreeMap<>();
    for (String pair : series.substring(open + 1, series.length() - 1).split(",(?=[a-z_]+=\")")) {
      labels.put(pair.substring(0, pair.indexOf('=')), pair.substring(pair.indexOf('=') + 1));
    }
    StringBuilder out = new StringBuilder(series.substring(0, open)).append('{');
    labels.forEach(
        (k, v) ->
            out.append(out.charAt(out.length() - 1) == '{' ? "" : ",")
                .append(k)
                .append('=')
                .append(v));
    return out.append('}').toString();
  }

  /** The sample {@code series} of {@code samples} (its labels in any order). */
  private static Double value(Map<String, Double> samples, String series) {
    return samples.get(key(series));
  }

  /** The Prometheus text of {@code slots}' repository metrics, as {@code /metrics} writes it. */
  private static String render(List<Repository> slots) throws Exception {
    return PrometheusTextFormatWriter.create().toDebugString(RepositoryMetrics.snapshots(slots));
  }

  private static String series(String metric, int slot, String name, String operation) {
    return metric
        + "{slot=\""
        + slot
        + "\",repository=\""
        + name
        + "\""
        + (operation == null ? "" : ",operation=\"" + operation + "\"")
        + "}";
  }

  @Test
  void render_whenKnownCalls_countsEachExactly() throws Exception {
    MeteredRepository metered = new MeteredRepository(MemoryRepository.create("a\"b"));
    metered.put("k1", new ByteArrayInputStream(new byte[3]), 3);
    metered.put("k2", new ByteArrayInputStream(new byte[5]), 5);
    try (ObjectStream stream = metered.get("k2")) {
      assertThat(stream.readAllBytes()).hasSize(5);
    }
    assertThatThrownBy(() -> metered.get("missing"))
        .isInstanceOf(RepositoryException.class)
        .extracting(e -> ((RepositoryException) e).kind())
        .isEqualTo(RepositoryException.Kind.NOT_FOUND);
    metered.list("", "", 10);
    FaultyRepository failing = new FaultyRepository(MemoryRepository.create("x"));
    failing.outage(true);
    MeteredRepository meteredFailing = new MeteredRepository(failing);
    assertThatThrownBy(() -> meteredFailing.head("k")).isInstanceOf(RepositoryException.class);
    Repository plain = MemoryRepository.create("plain");

    Map<String, Double> s = samples(render(List.of(plain, metered, meteredFailing)));

    String name = "a\\\"b"; // the quote escaped, as the text format wants it
    assertThat(value(s, series("racs_repository_requests_total", 1, name, "put"))).isEqualTo(2);
    assertThat(value(s, series("racs_repository_requests_total", 1, name, "get"))).isEqualTo(2);
    assertThat(value(s, series("racs_repository_requests_total", 1, name, "list"))).isEqualTo(1);
    assertThat(value(s, series("racs_repository_requests_total", 1, name, "head"))).isEqualTo(0);
    assertThat(value(s, series("racs_repository_requests_total", 1, name, "delete"))).isEqualTo(0);
    // A missing key is the repository answering, not failing: counted by kind only.
    assertThat(value(s, series("racs_repository_errors_total", 1, name, "get"))).isEqualTo(0);
    assertThat(value(s, series("racs_repository_errors_total", 1, name, "put"))).isEqualTo(0);
    assertThat(
            value(
                s,
                "racs_repository_errors_by_kind_total{slot=\"1\",repository=\""
                    + name
                    + "\",operation=\"get\",kind=\"not_found\"}"))
        .isEqualTo(1);
    assertThat(value(s, series("racs_repository_sent_bytes_total", 1, name, null))).isEqualTo(8);
    assertThat(value(s, series("racs_repository_received_bytes_total", 1, name, null)))
        .isEqualTo(5);
    String getLabels = "slot=\"1\",repository=\"" + name + "\",operation=\"get\"";
    assertThat(value(s, "racs_repository_request_duration_seconds_count{" + getLabels + "}"))
        .isEqualTo(2);
    assertThat(
            value(
                s,
                "racs_repository_request_duration_seconds_bucket{" + getLabels + ",le=\"+Inf\"}"))
        .isEqualTo(2);
    assertThat(value(s, series("racs_repository_errors_total", 2, "x", "head"))).isEqualTo(1);
    assertThat(value(s, series("racs_repository_requests_total", 2, "x", "head"))).isEqualTo(1);
    // A repository with no meter in its chain has no series, and scraping resets nothing.
    assertThat(s.keySet()).noneMatch(k -> k.contains("slot=\"0\""));
    assertThat(samples(render(List.of(plain, metered, meteredFailing)))).isEqualTo(s);
  }

  @Test
  void metered_whenChainHasAMeter_addsNoSecond() {
    MeteredRepository metered = new MeteredRepository(MemoryRepository.create("m"));
    FaultyRepository outer = new FaultyRepository(metered);
    List<Repository> out = RepositoryMetrics.metered(List.of(outer, MemoryRepository.create("p")));
    assertThat(out.get(0)).isSameAs(outer);
    assertThat(out.get(1)).isInstanceOf(MeteredRepository.class);
  }

  @Test
  void scrape_afterS3Traffic_matchesWhatReachedEachRepositoryAndNamesTheFailingOne()
      throws Exception {
    long seed = TestSeed.get();
    CountingRepository.Ledger ledger = new CountingRepository.Ledger(6);
    TestArray array =
        TestArray.builder("4x2").counting(ledger).faulty().wrap(RepositoryMetrics::metered).open();
    List<MemoryRepository> memories = array.memories();
    List<FaultyRepository> faulty = array.faulty();
    ErasureStore store = array.store();
    byte[] data = SeededBytes.bytes(seed, 1 << 20);
    HttpClient http = HttpClient.newHttpClient();
    try (RacsServer server =
            RacsServer.start(
                store,
                ServerConfig.defaults()
                    .with("127.0.0.1:0", Map.of(ACCESS, SECRET))
                    .withAdmin("127.0.0.1:0")
                    // The users' background re-read would list between the scrape and the count.
                    .withUsersRefresh(java.time.Duration.ZERO));
        S3Client s3 = TestClients.s3(server.port(), ACCESS, SECRET)) {
      s3.createBucket(b -> b.bucket("bkt"));
      s3.putObject(b -> b.bucket("bkt").key("k"), RequestBody.fromBytes(data));
      // The bucket's record and the object's shard and record on every repository: the PUT
      // answered at 4 of 6, so the rest is waited for by count.
      assertThat(ledger.awaitTotal(Kind.PUT, 6 + 12, Duration.ofSeconds(30))).isTrue();
      faulty.get(5).failOperation(Operation.LIST, RepositoryException.Kind.UNAVAILABLE);
      assertThat(s3.getObjectAsBytes(b -> b.bucket("bkt").key("k")).asByteArray()).isEqualTo(data);
      assertThat(ledger.awaitIdle(Duration.ofSeconds(30))).isTrue();

      HttpResponse<String> scrape =
          http.send(
              HttpRequest.newBuilder(
                      URI.create("http://127.0.0.1:" + server.adminPort() + "/metrics"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(scrape.statusCode()).isEqualTo(200);
      Map<String, Double> s = samples(scrape.body());

      double failedLists = value(s, series("racs_repository_errors_total", 5, "mem5", "list"));
      assertThat(failedLists).as("the failing repository's listings").isGreaterThanOrEqualTo(1);
      for (int slot = 0; slot < 6; slot++) {
        String name = "mem" + slot;
        for (Kind kind : List.of(Kind.PUT, Kind.GET, Kind.HEAD, Kind.LIST)) {
          String op = kind.name().toLowerCase(java.util.Locale.ROOT);
          double failed = slot == 5 && kind == Kind.LIST ? failedLists : 0;
          assertThat(value(s, series("racs_repository_requests_total", slot, name, op)))
              .as("slot %d %s", slot, op)
              .isEqualTo(ledger.count(slot, kind) + failed);
          assertThat(value(s, series("racs_repository_errors_total", slot, name, op)))
              .as("slot %d %s errors", slot, op)
              .isEqualTo(failed);
          assertThat(
                  value(
                      s, series("racs_repository_request_duration_seconds_count", slot, name, op)))
              .isEqualTo(ledger.count(slot, kind) + failed);
        }
        // Every byte a repository holds was sent to it by a PUT (nothing was deleted).
        long stored = 0;
        for (ObjectInfo object : memories.get(slot).list("", "", 1000).objects()) {
          stored += object.sizeBytes();
        }
        assertThat(value(s, series("racs_repository_sent_bytes_total", slot, name, null)))
            .as("slot %d bytes sent", slot)
            .isEqualTo(stored);
      }
      // The GET read four data shards of a quarter MiB each, and records, from the repositories.
      double received = 0;
      for (int slot = 0; slot < 6; slot++) {
        received +=
            value(s, series("racs_repository_received_bytes_total", slot, "mem" + slot, null));
      }
      assertThat(received).isGreaterThanOrEqualTo(data.length);
    }
  }

  @Test
  void scrape_afterAGetThatHedgedAroundAFrozenRepository_countsTheHedge() throws Exception {
    long seed = TestSeed.get();
    TestArray array =
        TestArray.builder("4x2")
            .stallGrace(Duration.ofMillis(400))
            .faulty()
            .wrap(RepositoryMetrics::metered)
            .open();
    List<FaultyRepository> faulty = array.faulty();
    ErasureStore store = array.store();
    byte[] data = SeededBytes.bytes(seed, 1 << 20);
    HttpClient http = HttpClient.newHttpClient();
    try (RacsServer server =
            RacsServer.start(
                store,
                ServerConfig.defaults()
                    .with("127.0.0.1:0", Map.of(ACCESS, SECRET))
                    .withAdmin("127.0.0.1:0")
                    // The users' background re-read would list between the scrape and the count.
                    .withUsersRefresh(java.time.Duration.ZERO));
        S3Client s3 = TestClients.s3(server.port(), ACCESS, SECRET)) {
      s3.createBucket(b -> b.bucket("bkt"));
      s3.putObject(b -> b.bucket("bkt").key("k"), RequestBody.fromBytes(data));
      // Data shard 0's repository stops answering: the GET asks the data shards first (no
      // repository has a history yet), so it must hedge to a parity shard.
      int frozen = store.head("bkt", "k").parts().get(0).slots().get(0);
      faulty.get(frozen).freeze();
      try {
        assertThat(s3.getObjectAsBytes(b -> b.bucket("bkt").key("k")).asByteArray())
            .isEqualTo(data);
        HttpResponse<String> scrape =
            http.send(
                HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + server.adminPort() + "/metrics"))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
        Map<String, Double> s = samples(scrape.body());
        assertThat(scrape.body()).contains("# TYPE racs_store_hedged_reads_total counter");
        assertThat(value(s, "racs_store_hedged_reads_total{kind=\"shard\"}"))
            .isPositive()
            .isEqualTo(store.stats().hedgedShardReads());
        assertThat(value(s, "racs_store_hedged_reads_total{kind=\"record\"}"))
            .isEqualTo(store.stats().hedgedRecordReads());
      } finally {
        faulty.get(frozen).thaw();
      }
    }
  }

  @Test
  void quantile_whenCountsInBuckets_returnsTheBucketBoundHoldingTheRank() {
    long[] counts = new long[MeteredRepository.BUCKET_BOUNDS_SECONDS.length + 1];
    assertThat(RepositoryMetrics.quantile(counts, 0.5)).isNaN();
    counts[0] = 98; // <= 1 ms
    counts[5] = 1; // <= 50 ms
    counts[counts.length - 1] = 1; // past the last bound
    assertThat(RepositoryMetrics.quantile(counts, 0.50)).isEqualTo(0.001);
    assertThat(RepositoryMetrics.quantile(counts, 0.99)).isEqualTo(0.05);
    assertThat(RepositoryMetrics.quantile(counts, 1.0)).isInfinite();
  }
}
