package io.racs.proxy.admin;

import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.api.ObjectStore.BucketInfo;
import io.racs.proxy.store.array.RepositoryHealth;
import io.racs.proxy.store.heal.HealReport;
import io.racs.repos.price.PriceBook;
import java.math.BigDecimal;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The console's one JSON document ({@code /console/api/state}), which its page polls: the version
 * and uptime, the array (geometry, readiness, each repository's state and reason with its traffic
 * from {@link RepositoryMetrics#summaries}), the buckets with the settings the store knows without
 * a listing, the background work (the last scrub, the reshape as {@code /health/ready} shows it)
 * and the recent access log. Each repository also has its price so far ({@link
 * RepositoryMetrics#pricesSoFar}) and its latency over time ({@link LatencyHistory}).
 */
final class ConsoleState {
  private ConsoleState() {}

  /**
   * The prices the console's "price so far" is at: AWS S3 Standard's, or a repository type's own
   * published table, as the bench's default ({@link PriceBook}); the {@code prices:} section of a
   * repository-set file is the bench's and is not read here.
   */
  private static final PriceBook PRICES = PriceBook.awsDefault();

  /**
   * The state of {@code sources} now; uptime counted from {@code startedMillis}; each repository's
   * latency over time from {@code history}, which is sampled first.
   */
  static String json(
      AdminSources sources, Clock clock, long startedMillis, LatencyHistory history) {
    ErasureStore store = sources.store().get();
    AdminSources.Opening opening = sources.opening().get();
    ReadyReport ready = ReadyReport.of(sources);
    String version = ConsoleState.class.getPackage().getImplementationVersion();
    StringBuilder json = new StringBuilder("{\"version\":");
    json.append(Json.string(version == null ? "(development)" : version))
        .append(",\"uptimeSeconds\":")
        .append((clock.millis() - startedMillis) / 1000)
        .append(",\"array\":{\"id\":")
        .append(Json.string(store == null ? "" : store.arrayId()))
        .append(",\"dataShards\":")
        .append(opening.config().geometry().dataShards())
        .append(",\"parityShards\":")
        .append(opening.config().geometry().parityShards())
        .append(",\"writeQuorum\":")
        .append(opening.config().writeQuorum())
        .append(",\"ready\":")
        .append(ready.ready())
        .append(",\"open\":")
        .append(store != null)
        .append(",\"notOpenReason\":")
        .append(store == null ? Json.string(opening.reason()) : "null")
        .append(",\"repositories\":[");
    Map<Integer, RepositoryMetrics.Summary> traffic = new HashMap<>();
    Map<Integer, BigDecimal> prices = Map.of();
    if (store != null) {
      for (RepositoryMetrics.Summary s : RepositoryMetrics.summaries(store.repositories())) {
        traffic.put(s.slot(), s);
      }
      prices = RepositoryMetrics.pricesSoFar(store.repositories(), PRICES);
      history.sample(store.repositories(), clock.millis());
    }
    List<RepositoryHealth> health = store != null ? store.health() : opening.repositories();
    for (int i = 0; i < health.size(); i++) {
      RepositoryHealth h = health.get(i);
      RepositoryMetrics.Summary t = traffic.get(h.slot());
      json.append(i == 0 ? "" : ",")
          .append("{\"slot\":")
          .append(h.slot())
          .append(",\"name\":")
          .append(Json.string(h.name()))
          .append(",\"state\":\"")
          .append(ReadyReport.state(h))
          .append("\",\"reason\":")
          .append(Json.string(h.reason()));
      if (t != null) {
        json.append(",\"requests\":")
            .append(t.requests())
            .append(",\"errors\":")
            .append(t.errors())
            .append(",\"p50Seconds\":")
            .append(number(t.p50Seconds()))
            .append(",\"p99Seconds\":")
            .append(number(t.p99Seconds()))
            .append(",\"priceSoFar\":")
            .append(Json.string(prices.getOrDefault(h.slot(), BigDecimal.ZERO).toPlainString()))
            .append(",\"latency\":[");
        List<LatencyHistory.Point> points = history.of(h.slot());
        for (int p = 0; p < points.size(); p++) {
          LatencyHistory.Point point = points.get(p);
          json.append(p == 0 ? "" : ",")
              .append("{\"millis\":")
              .append(point.millis())
              .append(",\"calls\":")
              .append(point.calls())
              .append(",\"p50Seconds\":")
              .append(number(point.p50Seconds()))
              .append(",\"p99Seconds\":")
              .append(number(point.p99Seconds()))
              .append('}');
        }
        json.append(']');
      }
      json.append('}');
    }
    json.append("]},\"buckets\":[");
    List<BucketInfo> buckets = store == null ? List.of() : store.listBuckets();
    for (int i = 0; i < buckets.size(); i++) {
      String name = buckets.get(i).name();
      json.append(i == 0 ? "" : ",")
          .append("{\"name\":")
          .append(Json.string(name))
          .append(",\"created\":")
          .append(Json.string(String.valueOf(buckets.get(i).created())))
          .append(",\"versioning\":\"")
          .append(store.versioning(name).name().toLowerCase(Locale.ROOT))
          .append("\",\"encryption\":")
          .append(store.bucketEncryption(name).isPresent())
          .append(",\"lifecycle\":")
          .append(store.bucketLifecycle(name).isPresent())
          .append(",\"cors\":")
          .append(store.bucketCors(name).isPresent())
          .append('}');
    }
    json.append("],\"readOnly\":")
        .append(sources.readOnly())
        .append(",\"background\":{\"lifecycle\":\"")
        .append(sources.lifecycleOn() ? "on" : "off")
        .append("\",\"scrubPaused\":")
        .append(sources.actions().scrubPaused())
        .append(",\"scrubRunning\":")
        .append(sources.actions().scrubRunning())
        .append(",\"lastScrub\":");
    HealReport scrub = sources.lastScrub().get();
    if (scrub == null) {
      json.append("null");
    } else {
      json.append("{\"objectsScanned\":")
          .append(scrub.objectsScanned())
          .append(",\"shardsRebuilt\":")
          .append(scrub.shardsRebuilt())
          .append(",\"recordsRepaired\":")
          .append(scrub.recordsRepaired())
          .append(",\"unrecoverable\":")
          .append(scrub.unrecoverable().size())
          .append(",\"stopped\":")
          .append(scrub.stopped())
          .append('}');
    }
    if (store != null) {
      sources.readyMembers().accept(json); // the reshape, as /health/ready shows it
    }
    json.append(",\"pricesSource\":")
        .append(Json.string(PRICES.source()))
        .append("},\"accessLog\":{\"enabled\":")
        .append(sources.accessLog().enabled())
        .append(",\"lines\":[");
    List<String> lines = sources.accessLog().recent();
    for (int i = 0; i < lines.size(); i++) {
      json.append(i == 0 ? "" : ",").append(Json.string(lines.get(i)));
    }
    return json.append("]}}\n").toString();
  }

  private static String number(double value) {
    return Double.isFinite(value) ? Double.toString(value) : "null";
  }
}
