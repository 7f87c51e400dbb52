package io.racs.proxy.admin;

import io.racs.proxy.coord.ZooKeeperCoordination;
import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.heal.HealReport;

/**
 * The body of {@code /metrics} in the Prometheus text format: the S3 server's request metrics, the
 * store's counters, each repository's traffic ({@link RepositoryMetrics}), the heal backlog and,
 * with coordination, the proxy's place among the others.
 */
public final class MetricsReport {
  private MetricsReport() {}

  /** The exposition of {@code sources} now. */
  public static String render(AdminSources sources) {
    ErasureStore store = sources.store().get();
    StringBuilder out = new StringBuilder(sources.metrics().render());
    out.append("# HELP racs_array_open 1 once the array opened; 0 while the proxy waits for it.\n")
        .append("# TYPE racs_array_open gauge\n")
        .append("racs_array_open ")
        .append(store == null ? 0 : 1)
        .append('\n');
    if (store == null) {
      return out.toString();
    }
    out.append("# TYPE racs_store_degraded_stripes_total counter\n")
        .append("racs_store_degraded_stripes_total ")
        .append(store.stats().degradedStripes())
        .append('\n');
    out.append("# TYPE racs_store_slow_shard_stripes_total counter\n")
        .append("racs_store_slow_shard_stripes_total ")
        .append(store.stats().slowShardStripes())
        .append('\n');
    out.append("# TYPE racs_store_corrupt_pieces_total counter\n")
        .append("racs_store_corrupt_pieces_total ")
        .append(store.stats().corruptPieces())
        .append('\n');
    out.append("# TYPE racs_store_unavailable_pieces_total counter\n")
        .append("racs_store_unavailable_pieces_total ")
        .append(store.stats().unavailablePieces())
        .append('\n');
    out.append(
            "# HELP racs_store_hedged_reads_total Reads that asked one more repository because"
                + " the one asked was late (shard: a shard stream; record: a version record).\n")
        .append("# TYPE racs_store_hedged_reads_total counter\n")
        .append("racs_store_hedged_reads_total{kind=\"shard\"} ")
        .append(store.stats().hedgedShardReads())
        .append('\n')
        .append("racs_store_hedged_reads_total{kind=\"record\"} ")
        .append(store.stats().hedgedRecordReads())
        .append('\n');
    out.append(
            "# HELP racs_store_stamped_reads_total GETs and HEADs that found the current version"
                + " without a listing (coordination.versionCache).\n")
        .append("# TYPE racs_store_stamped_reads_total counter\n")
        .append("racs_store_stamped_reads_total ")
        .append(store.stats().stampedReads())
        .append('\n');
    out.append("# TYPE racs_store_under_replicated_writes_total counter\n")
        .append("racs_store_under_replicated_writes_total ")
        .append(store.stats().underReplicatedWrites())
        .append('\n');
    out.append(RepositoryMetrics.render(store.repositories()));
    HealReport scrub = sources.lastScrub().get();
    out.append("# HELP racs_heal_backlog_objects Objects the last scrub could not repair.\n")
        .append("# TYPE racs_heal_backlog_objects gauge\n")
        .append("racs_heal_backlog_objects ")
        .append(scrub == null ? 0 : scrub.unrecoverable().size())
        .append('\n');
    sources.metricsLines().accept(out);
    ZooKeeperCoordination c = sources.coordination().get();
    if (c != null) {
      out.append("# HELP racs_coordination_connected 1 while the ZooKeeper session is connected.\n")
          .append("# TYPE racs_coordination_connected gauge\n")
          .append("racs_coordination_connected ")
          .append(c.connected() ? 1 : 0)
          .append('\n');
      out.append("# HELP racs_coordination_leader 1 while this proxy runs the background work.\n")
          .append("# TYPE racs_coordination_leader gauge\n")
          .append("racs_coordination_leader ")
          .append(c.leader() ? 1 : 0)
          .append('\n');
      out.append("# HELP racs_coordination_members Live proxies of the array.\n")
          .append("# TYPE racs_coordination_members gauge\n")
          .append("racs_coordination_members ")
          .append(c.members().size())
          .append('\n');
    }
    return out.toString();
  }
}
