package io.racs.proxy.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.admin.RepositoryMetrics;
import io.racs.proxy.config.ArrayConfig;
import io.racs.proxy.store.ErasureStore;
import io.racs.repos.RepositoryException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Holds the names, types and label names of every metric family a real proxy exposes on {@code
 * /metrics} to a golden list, since operators' dashboards and alerts depend on them: a renamed
 * metric, a changed type or a label added or lost fails here. The list is the one place that names
 * them for the tests ({@link DashboardMetricsTest} checks the Grafana dashboard against it). Both
 * formats {@code /metrics} negotiates, Prometheus text and OpenMetrics, show the same families.
 */
class MetricFamiliesTest {
  /**
   * Family name to its type and sorted label names ({@code le} of a histogram's buckets left out),
   * as a single proxy without coordination shows them once its array opened and served a request.
   */
  static final Map<String, String> GOLDEN =
      Map.ofEntries(
          Map.entry("racs_array_open", "gauge []"),
          Map.entry("racs_heal_backlog_objects", "gauge []"),
          Map.entry(
              "racs_repository_errors_by_kind_total",
              "counter [kind, operation, repository, slot]"),
          Map.entry("racs_repository_errors_total", "counter [operation, repository, slot]"),
          Map.entry("racs_repository_received_bytes_total", "counter [repository, slot]"),
          Map.entry(
              "racs_repository_request_duration_seconds",
              "histogram [operation, repository, slot]"),
          Map.entry("racs_repository_requests_total", "counter [operation, repository, slot]"),
          Map.entry("racs_repository_sent_bytes_total", "counter [repository, slot]"),
          Map.entry("racs_reshape_bytes_moved", "gauge []"),
          Map.entry("racs_reshape_bytes_remaining", "gauge []"),
          Map.entry("racs_reshape_failed", "gauge []"),
          Map.entry("racs_reshape_generation", "gauge []"),
          Map.entry("racs_reshape_moving", "gauge []"),
          Map.entry("racs_reshape_paused", "gauge []"),
          Map.entry("racs_reshape_running", "gauge []"),
          Map.entry("racs_reshape_versions_moved", "gauge []"),
          Map.entry("racs_reshape_versions_remaining", "gauge []"),
          Map.entry("racs_s3_received_bytes_total", "counter []"),
          Map.entry("racs_s3_request_duration_seconds", "histogram []"),
          Map.entry("racs_s3_requests_in_flight", "gauge []"),
          Map.entry("racs_s3_requests_total", "counter [operation, status]"),
          Map.entry("racs_s3_sent_bytes_total", "counter []"),
          Map.entry("racs_s3_transport", "gauge [transport]"),
          Map.entry("racs_store_corrupt_pieces_total", "counter []"),
          Map.entry("racs_store_degraded_stripes_total", "counter []"),
          Map.entry("racs_store_hedged_reads_total", "counter [kind]"),
          Map.entry("racs_store_slow_shard_stripes_total", "counter []"),
          Map.entry("racs_store_stamped_reads_total", "counter []"),
          Map.entry("racs_store_under_replicated_writes_total", "counter []"),
          Map.entry("racs_store_unavailable_pieces_total", "counter []"));

  /** The families a proxy shows only with ZooKeeper coordination (MultiProxyServerTest). */
  static final Map<String, String> COORDINATION =
      Map.of(
          "racs_coordination_connected", "gauge []",
          "racs_coordination_leader", "gauge []",
          "racs_coordination_members", "gauge []");

  @TempDir Path dir;

  @Test
  void families_whenArrayOpenAndServing_matchTheGoldenList() throws Exception {
    assertThat(families(scrape(dir, new String[] {null}).getFirst().body()))
        .isEqualTo(new TreeMap<>(GOLDEN));
  }

  @Test
  void format_whenAcceptAsksForOpenMetrics_isOpenMetricsElsePrometheusText() throws Exception {
    List<HttpResponse<String>> scrapes =
        scrape(
            dir,
            "application/openmetrics-text; version=1.0.0; charset=utf-8",
            null,
            "text/plain",
            // Protobuf is not among the formats served: asked for, it gets the text format.
            "application/vnd.google.protobuf; proto=io.prometheus.client.MetricFamily;"
                + " encoding=delimited");
    HttpResponse<String> openMetrics = scrapes.getFirst();
    assertThat(openMetrics.headers().firstValue("Content-Type"))
        .hasValueSatisfying(t -> assertThat(t).startsWith("application/openmetrics-text"));
    assertThat(openMetrics.body())
        .endsWith("# EOF\n")
        // OpenMetrics names a counter's family without _total, its samples with it.
        .contains("# TYPE racs_store_degraded_stripes counter\n")
        .contains("\nracs_store_degraded_stripes_total 0.0\n");
    Map<String, String> openMetricsFamilies = new TreeMap<>();
    families(openMetrics.body())
        .forEach(
            (name, type) ->
                openMetricsFamilies.put(
                    type.startsWith("counter ") ? name + "_total" : name, type));
    assertThat(openMetricsFamilies).isEqualTo(new TreeMap<>(GOLDEN));
    for (HttpResponse<String> text : scrapes.subList(1, scrapes.size())) {
      assertThat(text.headers().firstValue("Content-Type"))
          .hasValue("text/plain; version=0.0.4; charset=utf-8");
      assertThat(text.body())
          .doesNotContain("# EOF")
          .contains("# TYPE racs_store_degraded_stripes_total counter\n");
      assertThat(families(text.body())).isEqualTo(new TreeMap<>(GOLDEN));
    }
  }

  /**
   * The families of {@code exposition}: each {@code # TYPE} line's name and type, with the label
   * names its samples carry (a counter's or histogram's samples by their suffixed names).
   */
  static Map<String, String> families(String exposition) {
    Map<String, String> types = new TreeMap<>();
    Map<String, Set<String>> labels = new TreeMap<>();
    for (String line : exposition.lines().toList()) {
      if (line.startsWith("# TYPE ")) {
        String[] parts = line.split(" ");
        types.put(parts[2], parts[3]);
        labels.put(parts[2], new TreeSet<>());
      } else if (!line.startsWith("#") && !line.isBlank()) {
        String sample = line.split("[{ ]")[0];
        String family = family(sample, types);
        assertThat(family).as("the family of sample " + line).isNotNull();
        int open = line.indexOf('{');
        if (open >= 0) {
          for (String pair :
              line.substring(open + 1, line.lastIndexOf('}')).split(",(?=[a-z_]+=\")")) {
            String name = pair.substring(0, pair.indexOf('='));
            if (!name.equals("le")) {
              labels.get(family).add(name);
            }
          }
        }
      }
    }
    Map<String, String> out = new TreeMap<>();
    types.forEach((name, type) -> out.put(name, type + " " + labels.get(name)));
    return out;
  }

  private static String family(String sample, Map<String, String> types) {
    if (types.containsKey(sample)) {
      return sample;
    }
    for (String suffix : new String[] {"_bucket", "_sum", "_count", "_total"}) {
      if (sample.endsWith(suffix)) {
        String base = sample.substring(0, sample.length() - suffix.length());
        if (types.containsKey(base)) {
          return base;
        }
      }
    }
    return null;
  }

  /**
   * {@code /metrics} of a real proxy over six metered fs repositories whose array opened, after an
   * S3 request and a read of a key that is not there (so each repository answered not_found once),
   * one scrape for each {@code Accept} header of {@code accepts} (null: none).
   */
  static List<HttpResponse<String>> scrape(Path dir, String... accepts) throws Exception {
    StringBuilder yaml = new StringBuilder("array:\n  geometry: 4x2\nrepositories:\n");
    for (int i = 0; i < 6; i++) {
      Files.createDirectories(dir.resolve("r" + i));
      yaml.append("  - {name: r")
          .append(i)
          .append(", type: fs, path: ")
          .append(dir.resolve("r" + i))
          .append("}\n");
    }
    ArrayConfig array = ArrayConfig.load(Files.writeString(dir.resolve("racs.yaml"), yaml));
    ErasureStore store =
        ErasureStore.open(array.store(), RepositoryMetrics.metered(array.openRepositories()));
    try (RacsServer server =
        RacsServer.start(
            store,
            ServerConfig.defaults()
                .with("127.0.0.1:0", Map.of("access", "secret-key"))
                .withAdmin("127.0.0.1:0"))) {
      for (var repository : store.repositories()) {
        try {
          repository.get("no-such-key").close();
        } catch (RepositoryException e) {
          // not_found: counted by kind, so racs_repository_errors_by_kind_total has samples
        }
      }
      HttpClient http = HttpClient.newHttpClient();
      http.send(
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/bkt/k"))
              .GET()
              .build(),
          HttpResponse.BodyHandlers.discarding());
      List<HttpResponse<String>> out = new ArrayList<>();
      for (String accept : accepts) {
        HttpRequest.Builder request =
            HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + server.adminPort() + "/metrics"));
        if (accept != null) {
          request.header("Accept", accept);
        }
        out.add(http.send(request.GET().build(), HttpResponse.BodyHandlers.ofString()));
      }
      return out;
    }
  }
}
