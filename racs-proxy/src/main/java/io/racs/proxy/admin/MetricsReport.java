package io.racs.proxy.admin;

import io.prometheus.metrics.config.EscapingScheme;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.expositionformats.ExpositionFormatWriter;
import io.prometheus.metrics.expositionformats.OpenMetricsTextFormatWriter;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.racs.proxy.coord.ZooKeeperCoordination;
import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.api.StoreStats;
import io.racs.proxy.store.heal.HealReport;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.function.Consumer;
import java.util.function.ToLongFunction;

/**
 * The body of {@code /metrics}, kept by the Prometheus client library in a registry of this admin
 * server's own (not the library's static default one: a JVM may run several proxies): the S3
 * server's request metrics, the store's counters, each repository's traffic ({@link
 * RepositoryMetrics}), the heal backlog, what {@link AdminSources#moreMetrics} adds (the reshape's)
 * and, with coordination, the proxy's place among the others. Every value but the S3 server's is a
 * callback or a collector reading the store's state at scrape time. The store's families appear
 * once the array opened.
 *
 * <p>The format is negotiated: an {@code Accept} header naming {@code application/openmetrics-text}
 * gets OpenMetrics text (ending in {@code # EOF}); anything else the Prometheus text format 0.0.4.
 * Thread-safe: scrapes may run at once.
 */
public final class MetricsReport {
  private final PrometheusRegistry registry = new PrometheusRegistry();
  private final PrometheusTextFormatWriter prometheusText = PrometheusTextFormatWriter.create();
  private final OpenMetricsTextFormatWriter openMetrics = OpenMetricsTextFormatWriter.create();

  /**
   * An exposition and its media type.
   *
   * @param contentType the {@code Content-Type} to answer with
   * @param body the exposition's bytes (UTF-8)
   */
  public record Exposition(String contentType, byte[] body) {}

  private MetricsReport() {}

  /** A report of what {@code sources} know, its metrics registered. */
  public static MetricsReport of(AdminSources sources) {
    MetricsReport report = new MetricsReport();
    PrometheusRegistry registry = report.registry;
    sources.metrics().register(registry);
    registry.register(
        GaugeWithCallback.builder()
            .name("racs_array_open")
            .help("1 once the array opened; 0 while the proxy waits for it.")
            .callback(c -> c.call(sources.store().get() == null ? 0 : 1))
            .build());
    storeCounter(
        registry,
        sources,
        "racs_store_degraded_stripes_total",
        "Stripes read that needed parity (a data shard was missing, corrupt or slow).",
        StoreStats::degradedStripes);
    storeCounter(
        registry,
        sources,
        "racs_store_slow_shard_stripes_total",
        "Degraded stripes that needed parity only because a data shard was slow.",
        StoreStats::slowShardStripes);
    storeCounter(
        registry,
        sources,
        "racs_store_corrupt_pieces_total",
        "Shard pieces whose CRC32C did not match (bitrot) when read.",
        StoreStats::corruptPieces);
    storeCounter(
        registry,
        sources,
        "racs_store_unavailable_pieces_total",
        "Shard reads that failed or timed out.",
        StoreStats::unavailablePieces);
    registry.register(
        CounterWithCallback.builder()
            .name("racs_store_hedged_reads_total")
            .help(
                "Reads that asked one more repository because the one asked was late (shard: a"
                    + " shard stream; record: a version record).")
            .labelNames("kind")
            .callback(
                c -> {
                  ErasureStore store = sources.store().get();
                  if (store != null) {
                    c.call(store.stats().hedgedShardReads(), "shard");
                    c.call(store.stats().hedgedRecordReads(), "record");
                  }
                })
            .build());
    storeCounter(
        registry,
        sources,
        "racs_store_stamped_reads_total",
        "GETs and HEADs that found the current version without a listing"
            + " (coordination.versionCache).",
        StoreStats::stampedReads);
    storeCounter(
        registry,
        sources,
        "racs_store_under_replicated_writes_total",
        "Versions committed on fewer than all repositories (heal completes them).",
        StoreStats::underReplicatedWrites);
    registry.register(
        () -> {
          ErasureStore store = sources.store().get();
          return store == null
              ? MetricSnapshots.of()
              : RepositoryMetrics.snapshots(store.repositories());
        });
    openGauge(
        registry,
        sources,
        "racs_heal_backlog_objects",
        "Objects the last scrub could not repair.",
        c -> {
          HealReport scrub = sources.lastScrub().get();
          c.call(scrub == null ? 0 : scrub.unrecoverable().size());
        });
    registry.register(
        () ->
            sources.store().get() == null ? MetricSnapshots.of() : sources.moreMetrics().collect());
    coordinationGauge(
        registry,
        sources,
        "racs_coordination_connected",
        "1 while the ZooKeeper session is connected.",
        c -> c.connected() ? 1 : 0);
    coordinationGauge(
        registry,
        sources,
        "racs_coordination_leader",
        "1 while this proxy runs the background work.",
        c -> c.leader() ? 1 : 0);
    coordinationGauge(
        registry,
        sources,
        "racs_coordination_members",
        "Live proxies of the array.",
        c -> c.members().size());
    return report;
  }

  /** The exposition now, in the format {@code accept} (an {@code Accept} header, or null) asks. */
  public Exposition render(String accept) {
    ExpositionFormatWriter writer =
        openMetrics.accepts(accept) ? openMetrics : (ExpositionFormatWriter) prometheusText;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      writer.write(out, registry.scrape(), EscapingScheme.fromAcceptHeader(accept));
    } catch (IOException e) {
      throw new UncheckedIOException("metrics: cannot write to memory", e);
    }
    return new Exposition(writer.getContentType(), out.toByteArray());
  }

  /** A counter of the store's stats, shown once the array opened. */
  private static void storeCounter(
      PrometheusRegistry registry,
      AdminSources sources,
      String name,
      String help,
      ToLongFunction<StoreStats> value) {
    registry.register(
        CounterWithCallback.builder()
            .name(name)
            .help(help)
            .callback(
                c -> {
                  ErasureStore store = sources.store().get();
                  if (store != null) {
                    c.call(value.applyAsLong(store.stats()));
                  }
                })
            .build());
  }

  /** A gauge shown once the array opened. */
  private static void openGauge(
      PrometheusRegistry registry,
      AdminSources sources,
      String name,
      String help,
      Consumer<GaugeWithCallback.Callback> value) {
    registry.register(
        GaugeWithCallback.builder()
            .name(name)
            .help(help)
            .callback(
                c -> {
                  if (sources.store().get() != null) {
                    value.accept(c);
                  }
                })
            .build());
  }

  /** A gauge shown while the proxy has coordination, once the array opened. */
  private static void coordinationGauge(
      PrometheusRegistry registry,
      AdminSources sources,
      String name,
      String help,
      ToLongFunction<ZooKeeperCoordination> value) {
    openGauge(
        registry,
        sources,
        name,
        help,
        c -> {
          ZooKeeperCoordination coordination = sources.coordination().get();
          if (coordination != null) {
            c.call(value.applyAsLong(coordination));
          }
        });
  }
}
