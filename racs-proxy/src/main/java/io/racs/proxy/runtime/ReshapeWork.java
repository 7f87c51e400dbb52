package io.racs.proxy.runtime;

import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.racs.proxy.admin.Json;
import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.format.ArrayRecord;
import io.racs.proxy.store.reshape.ArrayRecords;
import io.racs.proxy.store.reshape.MoveEstimate;
import io.racs.proxy.store.reshape.MoveProgress;
import io.racs.proxy.store.reshape.Mover;
import java.util.Locale;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A proxy's part in a reshape (docs/reshape.md §5, §7): it reads the array record, runs the mover
 * while a reshape is {@code RUNNING} (when {@link BackgroundWork} lets it: the ZooKeeper leader or
 * the heal lease holder, in place of the scrub), and keeps what it last learned of the move for
 * {@code /metrics} and {@code /health/ready}, which never reach the repositories themselves. A
 * proxy that does not run the mover learns the progress from the mover's checkpoints when it reads
 * the record. A reshape the mover marked {@code FAILED} is not moved again (only {@code RUNNING}
 * is): the operator aborts it.
 *
 * <p>Thread-safe: {@link #refresh} and {@link #move} run on the background thread; the renderers
 * read volatile snapshots.
 */
final class ReshapeWork {
  private static final Logger LOG = LoggerFactory.getLogger(ReshapeWork.class);

  /** The mover's rate in a proxy: gentle, as the scrub's. */
  private static final double MOVER_MEGABYTES_PER_SECOND = 50;

  private final ErasureStore store;
  private volatile ArrayRecord record;
  private volatile MoveProgress progress;
  private volatile boolean moving;

  ReshapeWork(ErasureStore store) {
    this.store = store;
  }

  /**
   * Reads the array record (one listing on a read quorum) and, while a reshape runs, the mover's
   * progress; returns whether a reshape is running. A read that fails keeps what was known.
   */
  boolean refresh() {
    try {
      Optional<ArrayRecord> now = new ArrayRecords(store).current();
      record = now.orElse(null);
      if (running() && !moving) {
        progress = MoveProgress.latest(store, record.to().number()).orElse(progress);
      }
    } catch (StoreException e) {
      LOG.debug("reshape: cannot read the array record: {}", e.getMessage());
    }
    return running();
  }

  /** Whether the array record last read says a reshape is running. */
  boolean running() {
    ArrayRecord r = record;
    return r != null && r.state() == ArrayRecord.State.RUNNING;
  }

  /** Runs the mover until it completes, fails or {@code stop} says so; returns its report. */
  Mover.Report move(BooleanSupplier stop) {
    moving = true;
    try {
      Mover.Report report =
          Mover.run(
              store,
              Mover.Options.defaults()
                  .withRate(MOVER_MEGABYTES_PER_SECOND)
                  // The proxy closing interrupts the background thread: stop there too.
                  .withStop(() -> stop.getAsBoolean() || Thread.currentThread().isInterrupted())
                  .withProgress(line -> LOG.debug(line))
                  .withCounters(p -> progress = p));
      switch (report.outcome()) {
        case COMPLETE -> LOG.info("reshape complete: {} versions moved", report.versionsMoved());
        case FAILED -> LOG.warn("reshape: the mover failed: {}", report.reason());
        case STOPPED -> LOG.debug("reshape: the mover stopped: {}", report.reason());
      }
      refresh();
      return report;
    } finally {
      moving = false;
    }
  }

  /** The reshape's gauges, as Prometheus client library snapshots. */
  MetricSnapshots metrics() {
    MetricSnapshots.Builder out = MetricSnapshots.builder();
    ArrayRecord r = record;
    MoveProgress p = running() ? progress : null;
    gauge(
        out,
        "racs_reshape_running",
        "1 while a reshape of the array is recorded as running.",
        running() ? 1 : 0);
    gauge(out, "racs_reshape_moving", "1 while this proxy runs the mover.", moving ? 1 : 0);
    gauge(
        out,
        "racs_reshape_failed",
        "1 while the array record says the reshape failed (abort it; see /health/ready).",
        r != null && r.state() == ArrayRecord.State.FAILED ? 1 : 0);
    gauge(
        out,
        "racs_reshape_generation",
        "The generation of the array's layout that new data moves to (0: never reshaped).",
        r == null ? 0 : r.to().number());
    gauge(
        out,
        "racs_reshape_paused",
        "1 while the mover is paused or failed on an error (see /health/ready).",
        p != null && !p.problem().isEmpty() ? 1 : 0);
    gauge(
        out,
        "racs_reshape_versions_moved",
        "Versions the running reshape moved so far.",
        p == null ? 0 : p.versionsMoved());
    gauge(
        out,
        "racs_reshape_bytes_moved",
        "Stored bytes the running reshape moved so far.",
        p == null ? 0 : p.bytesMoved());
    // Left out while a reshape runs whose totals were not recorded: unknown, not zero.
    MoveEstimate estimate = running() ? MoveEstimate.of(r, p) : null;
    if (estimate == null || estimate.versionsRemaining().isPresent()) {
      gauge(
          out,
          "racs_reshape_versions_remaining",
          "Versions the running reshape's plan has left to move (never below 0).",
          estimate == null ? 0 : estimate.versionsRemaining().getAsLong());
      gauge(
          out,
          "racs_reshape_bytes_remaining",
          "Stored bytes the running reshape's plan has left to move (never below 0).",
          estimate == null ? 0 : estimate.bytesRemaining().getAsLong());
    }
    return out.build();
  }

  private static void gauge(MetricSnapshots.Builder out, String name, String help, long value) {
    out.metricSnapshot(
        GaugeSnapshot.builder()
            .name(name)
            .help(help)
            .dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().value(value).build())
            .build());
  }

  /** The reshape as a {@code /health/ready} member, {@code ,"reshape":{...}}; not readiness. */
  void appendReady(StringBuilder json) {
    ArrayRecord r = record;
    json.append(",\"reshape\":{\"state\":\"")
        .append(r == null ? "none" : r.state().name().toLowerCase(Locale.ROOT))
        .append('"');
    if (r != null) {
      json.append(",\"from\":")
          .append(Json.string(r.from().describe()))
          .append(",\"to\":")
          .append(Json.string(r.to().describe()));
      if (r.state() == ArrayRecord.State.FAILED) {
        json.append(",\"reason\":").append(Json.string(String.valueOf(r.reason())));
      }
    }
    MoveProgress p = running() ? progress : null;
    if (running()) {
      appendEstimate(json, MoveEstimate.of(r, p));
    }
    if (p != null) {
      json.append(",\"sweep\":")
          .append(p.sweep())
          .append(",\"versionsMoved\":")
          .append(p.versionsMoved())
          .append(",\"bytesMoved\":")
          .append(p.bytesMoved());
      if (!p.problem().isEmpty()) {
        json.append(",\"problem\":").append(Json.string(p.problem()));
      }
      if (!p.waiting().isEmpty()) {
        json.append(",\"waiting\":").append(Json.string(p.waiting()));
      }
    }
    json.append(",\"moving\":").append(moving).append('}');
  }

  /** {@code ,"remaining":{...},"eta":{...}}, or {@code "unknown"} for either. */
  private static void appendEstimate(StringBuilder json, MoveEstimate e) {
    if (e.versionsRemaining().isEmpty()) {
      json.append(",\"remaining\":\"unknown\"");
    } else {
      json.append(",\"remaining\":{\"versions\":")
          .append(e.versionsRemaining().getAsLong())
          .append(",\"bytes\":")
          .append(e.bytesRemaining().getAsLong())
          .append('}');
    }
    if (e.etaSeconds().isEmpty()) {
      json.append(",\"eta\":\"unknown\"");
    } else {
      json.append(",\"eta\":{\"seconds\":")
          .append(e.etaSeconds().getAsLong())
          .append(",\"bytesPerSecond\":")
          .append((long) e.etaBytesPerSecond())
          .append(",\"rate\":\"")
          .append(e.observed() ? "observed" : "recorded")
          .append("\"}");
    }
  }
}
