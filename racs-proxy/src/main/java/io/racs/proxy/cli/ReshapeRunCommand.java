package io.racs.proxy.cli;

import io.racs.proxy.cli.progress.ProgressBar;
import io.racs.proxy.cli.progress.ProgressOption;
import io.racs.proxy.config.ArrayConfig;
import io.racs.proxy.coord.ZooKeeperCoordination;
import io.racs.proxy.runtime.CoordinationConfig;
import io.racs.proxy.runtime.RacsServer;
import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.format.ArrayRecord;
import io.racs.proxy.store.heal.HealLease;
import io.racs.proxy.store.reshape.ArrayRecords;
import io.racs.proxy.store.reshape.MoveEstimate;
import io.racs.proxy.store.reshape.Mover;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code racs reshape run}: the mover in the foreground ({@link Mover}, docs/reshape.md §5), as
 * {@code racs heal} runs heal. One mover runs per array: with coordination configured this process
 * must become the ZooKeeper leader, otherwise it must take the heal lease ({@link HealLease}); when
 * another proxy leads or holds it, the command fails in one line naming it. It stops before its
 * next key on SIGINT or once it lost the leadership or the lease, resumable from its checkpoint.
 */
@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = "Run the mover of the recorded reshape in the foreground.",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:the reshape is complete",
      "1:the reshape failed, is paused on an error (named), another proxy runs the mover"
          + " (named), or the array could not be read",
      "2:invalid command line or configuration",
      "3:stopped (SIGINT, lost the lease or the leadership): resumable, run it again"
    })
public final class ReshapeRunCommand implements java.util.concurrent.Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin ReshapeOptions.Config config;

  @Option(
      names = "--rate",
      paramLabel = "MB/s",
      defaultValue = "50",
      description = "the mover's rate (default: ${DEFAULT-VALUE})")
  double rate;

  @Option(
      names = "--fence",
      paramLabel = "SECONDS",
      defaultValue = "60",
      description =
          "how long after the reshape was recorded a proxy may still write the old layout; the"
              + " completing sweep begins no earlier (default: ${DEFAULT-VALUE}, twice the layout"
              + " ttl; 0 only when no proxy serves the array)")
  long fenceSeconds;

  @Mixin ProgressOption progress;

  /** How long to wait for ZooKeeper's session and its leader election at most. */
  private static final Duration CONNECT_WAIT = Duration.ofSeconds(15);

  /** Set by the SIGINT hook. */
  private final AtomicBoolean interrupted = new AtomicBoolean();

  /** Asked with the other reasons to stop, before each key: for tests that stop a run. */
  BooleanSupplier alsoStop = () -> false;

  @Override
  @SuppressWarnings("try") // the coordination is only to be closed
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    if (!(rate > 0)) {
      throw new IllegalArgumentException("--rate: " + rate + " (expected: more than 0 MB/s)");
    }
    if (fenceSeconds < 0) {
      throw new IllegalArgumentException("--fence: " + fenceSeconds + " (expected: >= 0 seconds)");
    }
    ArrayConfig array = ArrayConfig.load(config.path);
    Optional<CoordinationConfig> coordination = CoordinationConfig.from(array.file());
    String id = "reshape-" + ProcessHandle.current().pid() + "@" + RacsServer.hostName();
    try (ErasureStore store = array.open();
        ZooKeeperCoordination joined = coordination.map(c -> lead(store, c, id)).orElse(null)) {
      HealLease lease = joined == null ? takeLease(store, id) : null;
      ScheduledExecutorService renewal = lease == null ? null : renew(lease);
      BooleanSupplier stop =
          () ->
              interrupted.get()
                  || alsoStop.getAsBoolean()
                  || (joined != null && !joined.leader())
                  || (lease != null && !lease.held());
      CountDownLatch done = new CountDownLatch(1);
      Thread hook = new Thread(() -> onSignal(done, out));
      Runtime.getRuntime().addShutdownHook(hook);
      try {
        out.printf(
            "reshape run: array %s, mover as %s (%s)%n",
            store.arrayId(), id, joined != null ? "ZooKeeper leader" : "heal lease");
        ProgressBar bar = ProgressBar.create(progress.mode(), out);
        Optional<ArrayRecord> moving = new ArrayRecords(store).current();
        Mover.Report report =
            Mover.run(
                store,
                Mover.Options.defaults()
                    .withRate(rate)
                    .withFence(Duration.ofSeconds(fenceSeconds))
                    .withStop(stop)
                    .withProgress(bar::message)
                    .withCounters(
                        p ->
                            moving.ifPresent(
                                r ->
                                    bar.update(
                                        ReshapeSteps.of(
                                            MoveEstimate.of(r, p), "sweep " + p.sweep())))));
        bar.finish();
        out.printf(
            "reshape run: %s: %d versions moved, %d bytes, %d old copies collected%s%n",
            report.outcome().name().toLowerCase(java.util.Locale.ROOT),
            report.versionsMoved(),
            report.bytesMoved(),
            report.copiesCollected(),
            report.reason().isEmpty() ? "" : "; " + stopReason(report, lease, joined));
        return switch (report.outcome()) {
          case COMPLETE -> ExitCodes.OK;
          case STOPPED -> ExitCodes.RUNNING;
          case FAILED -> ExitCodes.FAILURE;
        };
      } finally {
        done.countDown();
        removeHook(hook);
        if (renewal != null) {
          renewal.shutdownNow();
          lease.release();
        }
      }
    }
  }

  /** The report's reason, with why the run was told to stop when it was. */
  private String stopReason(Mover.Report report, HealLease lease, ZooKeeperCoordination joined) {
    if (report.outcome() != Mover.Outcome.STOPPED) {
      return report.reason();
    }
    if (interrupted.get()) {
      return report.reason() + " (interrupted)";
    }
    if (lease != null && !lease.held()) {
      return report.reason() + " (lost the heal lease)";
    }
    if (joined != null && !joined.leader()) {
      return report.reason() + " (lost the ZooKeeper leadership)";
    }
    return report.reason();
  }

  /**
   * SIGINT: the run stops before its next key and says so; the process then exits 3 (resumable)
   * rather than the signal's 130, once the run has finished (at most a minute).
   */
  private void onSignal(CountDownLatch done, PrintWriter out) {
    interrupted.set(true);
    try {
      if (done.await(1, TimeUnit.MINUTES)) {
        out.flush();
        Runtime.getRuntime().halt(ExitCodes.RUNNING);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void removeHook(Thread hook) {
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException e) {
      // the JVM is shutting down: the hook runs, and exits 3
    }
  }

  /** Takes the heal lease as {@code id}, or fails in one line naming who holds it. */
  private static HealLease takeLease(ErasureStore store, String id) {
    HealLease lease = HealLease.create(store, id, HealLease.DEFAULT_TTL);
    if (!lease.tryAcquire()) {
      Optional<String> holder = lease.holder();
      throw new IllegalStateException(
          holder.isEmpty()
              ? "could not take the heal lease (its record reached no write quorum, or the"
                  + " lease records no read quorum): try again"
              : "the heal lease is held by "
                  + holder.get()
                  + ": one mover runs per array (a proxy serving it runs the mover itself)");
    }
    return lease;
  }

  private static ScheduledExecutorService renew(HealLease lease) {
    ScheduledExecutorService renewal =
        Executors.newSingleThreadScheduledExecutor(Thread.ofVirtual().name("lease").factory());
    long every = lease.renewEvery().toMillis();
    renewal.scheduleWithFixedDelay(lease::renew, every, every, TimeUnit.MILLISECONDS);
    return renewal;
  }

  /**
   * Joins the array's ZooKeeper and waits to become its leader: fails in one line naming the leader
   * when another member leads.
   */
  private static ZooKeeperCoordination lead(
      ErasureStore store, CoordinationConfig config, String id) {
    ZooKeeperCoordination joined = RacsServer.join(store, config, id, id);
    try {
      if (!joined.awaitConnected(CONNECT_WAIT)) {
        throw new IllegalStateException(
            "coordination: not connected to ZooKeeper at "
                + config.zookeeper()
                + " within "
                + CONNECT_WAIT.toMillis()
                + " ms");
      }
      long deadline = System.nanoTime() + CONNECT_WAIT.toNanos();
      while (!joined.leader()) {
        Optional<String> leader = joined.leaderId();
        if (leader.isPresent() && !leader.get().equals(id)) {
          throw new IllegalStateException(
              "the ZooKeeper leader "
                  + leader.get()
                  + " runs the mover: one mover runs per array (a proxy serving it runs it)");
        }
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException(
              "coordination: no leader elected within " + CONNECT_WAIT.toMillis() + " ms");
        }
        LockSupport.parkNanos(Duration.ofMillis(50).toNanos()); // pacing the election, no handoff
      }
      return joined;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      joined.close();
      throw new IllegalStateException("interrupted waiting for ZooKeeper", e);
    } catch (RuntimeException e) {
      joined.close();
      throw e;
    }
  }
}
