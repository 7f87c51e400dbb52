package io.racs.proxy.runtime;

import io.racs.proxy.coord.ZooKeeperCoordination;
import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.heal.AbandonedUploads;
import io.racs.proxy.store.heal.HealLease;
import io.racs.proxy.store.heal.HealOptions;
import io.racs.proxy.store.heal.HealReport;
import io.racs.proxy.store.heal.Healer;
import io.racs.proxy.store.reshape.Mover;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A proxy's background work: the heal scrub, every {@code scrubInterval} (off by default), the
 * lifecycle scan, every {@code lifecycleInterval} (on by default, so that lifecycle rules work with
 * the configuration as shipped, as MinIO's scanner does), and, while a reshape is recorded as
 * running, the reshape's mover in place of the scrub ({@link ReshapeWork}, the array record read
 * every {@link #RESHAPE_CHECK_INTERVAL}; a proxy with neither scrub nor lifecycle scan runs no
 * mover). Both are throttled, run on one thread (so never at once on one proxy), and run on one
 * proxy of the array at a time: with coordination only on the ZooKeeper leader, otherwise only
 * under the {@link HealLease}, taken before each run and given back after. Either stops before its
 * next object once this proxy no longer leads or holds the lease, and the next holder goes on.
 *
 * <p>Thread-safe: the runs are serialized by the scheduler's single thread, and the tests' direct
 * calls do not overlap with it.
 */
final class BackgroundWork implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(BackgroundWork.class);

  /** How often a proxy with background work reads the array record, to run a recorded reshape. */
  static final Duration RESHAPE_CHECK_INTERVAL = Duration.ofSeconds(30);

  /** The byte rate of the background heal scrub. */
  private static final double SCRUB_MEGABYTES_PER_SECOND = 50;

  private final ErasureStore store;
  private final ZooKeeperCoordination coordination;
  private final Duration abandonedUploadAge;
  private HealLease lease;
  private ScheduledExecutorService leaseRenewal;
  private ScheduledExecutorService scheduler;
  private volatile HealReport lastScrub;
  private volatile AbandonedUploads.Report lastUploads;
  private final ReshapeWork reshape;
  private volatile boolean scrubPaused;
  private final java.util.concurrent.atomic.AtomicBoolean scrubRunning =
      new java.util.concurrent.atomic.AtomicBoolean();

  /**
   * Background work for {@code store}, led through {@code coordination} (null: none, the heal lease
   * then decides), giving up uploads idle for {@code abandonedUploadAge} in the scrub.
   */
  BackgroundWork(
      ErasureStore store, ZooKeeperCoordination coordination, Duration abandonedUploadAge) {
    this.store = store;
    this.coordination = coordination;
    this.abandonedUploadAge = abandonedUploadAge;
    this.reshape = new ReshapeWork(store);
  }

  /**
   * Schedules the scrub and the lifecycle scan (a zero interval leaves one out) and, without
   * coordination, when either runs, takes part in the heal lease as {@code proxyId}.
   */
  void start(Duration scrubInterval, Duration lifecycleInterval, String proxyId) {
    if (scrubInterval.isZero() && lifecycleInterval.isZero()) {
      return;
    }
    if (coordination == null) {
      startLease(proxyId);
    }
    scheduler =
        Executors.newSingleThreadScheduledExecutor(Thread.ofVirtual().name("background").factory());
    if (!scrubInterval.isZero()) {
      long every = scrubInterval.toMillis();
      scheduler.scheduleWithFixedDelay(
          () -> {
            if (!scrubPaused) {
              scrubOnce(SCRUB_MEGABYTES_PER_SECOND);
            }
          },
          every,
          every,
          TimeUnit.MILLISECONDS);
    }
    if (!lifecycleInterval.isZero()) {
      long every = lifecycleInterval.toMillis();
      scheduler.scheduleWithFixedDelay(
          () -> lifecycleOnce(LifecycleScrub.DEFAULT_VERSIONS_PER_SECOND),
          every,
          every,
          TimeUnit.MILLISECONDS);
    }
    long check = RESHAPE_CHECK_INTERVAL.toMillis();
    scheduler.scheduleWithFixedDelay(this::reshapeOnce, check, check, TimeUnit.MILLISECONDS);
  }

  /** The heal lease of a proxy without coordination, renewed every third of its ttl. */
  private void startLease(String proxyId) {
    lease = HealLease.create(store, proxyId, HealLease.DEFAULT_TTL);
    long every = lease.renewEvery().toMillis();
    leaseRenewal =
        Executors.newSingleThreadScheduledExecutor(Thread.ofVirtual().name("lease").factory());
    leaseRenewal.scheduleWithFixedDelay(
        () -> {
          try {
            lease.renew();
          } catch (RuntimeException e) {
            LOG.warn("lease renewal failed: {}", e.toString());
          }
        },
        every,
        every,
        TimeUnit.MILLISECONDS);
  }

  /**
   * Runs the background scrub once if this proxy may (it is the leader, or it takes the heal lease,
   * or there is neither coordination nor a lease), and returns its report; null when it may not.
   */
  HealReport scrubOnce(double megabytesPerSecond) {
    if (reshape.refresh()) {
      return null; // the mover runs instead (reshapeOnce), under the same leadership or lease
    }
    if (!scrubRunning.compareAndSet(false, true)) {
      return null; // one scrub at a time: the scheduled one and one asked for from the console
    }
    try {
      return asHolder(stop -> scrub(megabytesPerSecond, () -> scrubPaused || stop.getAsBoolean()));
    } finally {
      scrubRunning.set(false);
    }
  }

  /**
   * Starts a scrub now on a thread of its own, as the schedule would (if this proxy may); false
   * when one is running already or the scrub is paused.
   */
  boolean startScrub() {
    if (scrubRunning.get() || scrubPaused) {
      return false;
    }
    Thread.ofVirtual().name("scrub-now").start(() -> scrubOnce(SCRUB_MEGABYTES_PER_SECOND));
    return true;
  }

  /**
   * Pauses the scrub (a running one stops before its next object, the schedule skips its runs) or
   * resumes it.
   */
  void pauseScrub(boolean paused) {
    scrubPaused = paused;
  }

  /** Whether the scrub is paused. */
  boolean scrubPaused() {
    return scrubPaused;
  }

  /** Whether a scrub is running now. */
  boolean scrubRunning() {
    return scrubRunning.get();
  }

  /**
   * Reads the array record and, while a reshape is running, runs the mover if this proxy may (as
   * {@link #scrubOnce}); returns its report, null when no reshape runs or this proxy may not move.
   */
  Mover.Report reshapeOnce() {
    try {
      if (!reshape.refresh()) {
        return null;
      }
      return asHolder(reshape::move);
    } catch (RuntimeException e) {
      LOG.warn("reshape: the mover failed: {}", e.toString());
      return null;
    }
  }

  /** What this proxy knows of the array's reshape, for the admin endpoints. */
  ReshapeWork reshape() {
    return reshape;
  }

  /**
   * Runs the lifecycle scan once if this proxy may (as {@link #scrubOnce}), judging at most {@code
   * versionsPerSecond} versions a second (0: no limit), and returns its report; null when it may
   * not.
   */
  LifecycleScrub.Report lifecycleOnce(double versionsPerSecond) {
    return asHolder(stop -> lifecycle(versionsPerSecond, stop));
  }

  /**
   * Runs {@code work} if this proxy leads or takes the lease, giving the lease back after; {@code
   * work} is given the test of whether it must stop (lost the leadership or the lease meanwhile).
   */
  private <T> T asHolder(Function<BooleanSupplier, T> work) {
    ZooKeeperCoordination c = coordination;
    HealLease l = lease;
    if (c != null && !c.leader()) {
      return null;
    }
    if (l != null && !l.tryAcquire()) {
      return null;
    }
    try {
      return work.apply(() -> !((c == null || c.leader()) && (l == null || l.held())));
    } finally {
      if (l != null) {
        l.release();
      }
    }
  }

  private HealReport scrub(double megabytesPerSecond, BooleanSupplier stop) {
    HealOptions.Builder options =
        HealOptions.builder()
            .deep(true)
            .megabytesPerSecond(megabytesPerSecond)
            .progress(line -> LOG.debug(line))
            .stop(stop);
    if (coordination != null) {
      options.checkpoint(coordination.scrubCheckpoint());
    }
    try {
      lastScrub = Healer.heal(store, options.build());
      if (lastScrub.shardsRebuilt() > 0 || !lastScrub.unrecoverable().isEmpty()) {
        LOG.warn("scrub: {}", String.join("; ", lastScrub.lines()));
      }
    } catch (RuntimeException e) {
      LOG.warn("scrub failed: {}", e.toString());
    }
    if (stop.getAsBoolean()) {
      return lastScrub; // lost the leadership or the lease meanwhile: the next holder goes on
    }
    AbandonedUploads.Report uploads = collectUploads(abandonedUploadAge, stop);
    lastUploads = uploads == null ? lastUploads : uploads;
    return lastScrub;
  }

  private LifecycleScrub.Report lifecycle(double versionsPerSecond, BooleanSupplier stop) {
    LifecycleScrub.Report report = null;
    try {
      report = new LifecycleScrub(store, store.config().clock(), stop, versionsPerSecond).run();
      if (!report.failures().isEmpty()) {
        LOG.warn("lifecycle: {}", String.join("; ", report.failures()));
      }
    } catch (RuntimeException e) {
      LOG.warn("lifecycle failed: {}", e.toString());
    }
    if (!stop.getAsBoolean()) {
      // Age zero: only the parts of uploads given up (by a rule, or aborted) are collected here;
      // giving up idle uploads by age stays the scrub's (abandonedUploadAge).
      collectUploads(Duration.ZERO, stop);
    }
    return report;
  }

  private AbandonedUploads.Report collectUploads(Duration age, BooleanSupplier stop) {
    try {
      AbandonedUploads.Report report = AbandonedUploads.run(store, age, stop);
      if (!report.failures().isEmpty()) {
        LOG.warn("abandoned uploads: {}", String.join("; ", report.failures()));
      }
      return report;
    } catch (RuntimeException e) {
      LOG.warn("abandoned uploads failed: {}", e.toString());
      return null;
    }
  }

  /** The last scrub's report; null before one ran. */
  HealReport lastScrub() {
    return lastScrub;
  }

  /** What the last scrub did with abandoned uploads; null before one ran. */
  AbandonedUploads.Report lastUploads() {
    return lastUploads;
  }

  /** The heal lease of a proxy without coordination that runs background work; null otherwise. */
  HealLease lease() {
    return lease;
  }

  /** Stops the schedules and gives the lease back. */
  @Override
  public void close() {
    if (scheduler != null) {
      scheduler.shutdownNow();
    }
    if (leaseRenewal != null) {
      leaseRenewal.shutdownNow();
      lease.release();
    }
  }
}
