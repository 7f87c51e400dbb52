package io.racs.proxy.cli;

import io.racs.proxy.cli.progress.ProgressBar;
import io.racs.proxy.cli.progress.ProgressMode;
import io.racs.proxy.cli.progress.ProgressOption;
import io.racs.proxy.config.ArrayConfig;
import io.racs.proxy.coord.ZooKeeperCoordination;
import io.racs.proxy.runtime.CoordinationConfig;
import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.format.ArrayRecord;
import io.racs.proxy.store.reshape.ArrayRecords;
import io.racs.proxy.store.reshape.MoveEstimate;
import io.racs.proxy.store.reshape.MovePlan;
import io.racs.proxy.store.reshape.MoveProgress;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code racs reshape start}, {@code status} and {@code abort}: the reshape recorded on the array
 * ({@link ArrayRecords}, docs/reshape.md). {@code start} records the target and returns, {@code
 * status} says where the recorded reshape stands in its exit code (0 nothing in progress, 3
 * running, 1 failed or paused on an error), {@code abort} gives it up. The mover ({@code reshape
 * run}, {@link ReshapeRunCommand}) moves a started reshape.
 */
final class ReshapeRecordCommands {
  private static final String MOVER =
      "the mover moves it: racs reshape run --config FILE (or a proxy serving the array)";

  private ReshapeRecordCommands() {}

  /** {@code racs reshape start}. */
  @Command(
      name = "start",
      mixinStandardHelpOptions = true,
      versionProvider = VersionProvider.class,
      description = "Record --to's layout as the array's target and return.",
      exitCodeListHeading = "%nExit codes:%n",
      exitCodeList = {
        "0:recorded",
        "1:a reshape is already recorded (named), or the record did not reach a write quorum",
        "2:invalid command line, configuration or target (the array as it is, an added"
            + " repository not empty); nothing changed"
      })
  static final class Start implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Mixin ReshapeOptions.Config config;

    @Mixin ReshapeOptions.Target target;

    @Override
    public Integer call() {
      PrintWriter out = spec.commandLine().getOut();
      double rate = target.rate();
      ReshapeTarget t = ReshapeTarget.load(config.path, target.path);
      if (t.unchanged()) {
        throw new IllegalArgumentException(
            "--to: the array already is "
                + t.from(0).describe()
                + " (expected: another geometry or other repositories)");
      }
      try (ErasureStore store = t.from.open()) {
        ArrayRecords records = new ArrayRecords(store);
        Optional<ArrayRecord> now = records.current();
        int generation = 0;
        // The layout the reshape starts from, with its slot ids (docs/reshape.md §2): the recorded
        // one, or generation 0 over ids 0..n-1.
        ArrayRecord.Generation from = t.from(0);
        if (now.isPresent()) {
          ArrayRecord r = now.get();
          if (r.state() == ArrayRecord.State.RUNNING || r.state() == ArrayRecord.State.FAILED) {
            throw new IllegalStateException(
                "a reshape is already recorded ("
                    + (r.state() == ArrayRecord.State.FAILED
                        ? "failed: " + r.reason()
                        : r.state().name().toLowerCase(java.util.Locale.ROOT))
                    + "): "
                    + r.from().describe()
                    + " -> "
                    + r.to().describe()
                    + "; abort it first");
          }
          ArrayRecord.Generation is = r.state() == ArrayRecord.State.COMPLETE ? r.to() : r.from();
          if (!is.geometry().equals(t.from(0).geometry()) || !is.repositories().equals(t.before)) {
            throw new IllegalArgumentException(
                "--config: the array is "
                    + is.describe()
                    + " as recorded, not "
                    + t.from(0).describe());
          }
          generation = is.number();
          // An aborted reshape's target may have given ids: they are never given again.
          from =
              new ArrayRecord.Generation(
                  is.number(),
                  is.geometry(),
                  is.repositories(),
                  is.slotIds(),
                  Math.max(is.unusedSlot(), r.to().unusedSlot()));
        }
        // What moves, counted as plan counts it, so that status can say what is left.
        MovePlan plan = new MovePlan(t.before, new MovePlan.Target(t.to.store(), t.after));
        ReshapePlanCommand.walk(store, plan);
        ArrayRecord.Totals totals = new ArrayRecord.Totals(plan.moved(), plan.storedBytes());
        ArrayRecord record =
            new ArrayRecord(
                1,
                store.arrayId(),
                records.nextId(),
                ArrayRecord.State.RUNNING,
                from,
                // Kept repositories keep their slot ids; added ones take ids never given before.
                from.followedBy(generation + 1, t.to.store().geometry().toString(), t.after),
                store.config().clock().millis(),
                rate,
                null,
                totals,
                null); // the phase: entered by the mover
        records.write(record);
        announce(t.from, spec.commandLine().getErr());
        out.printf(
            "reshape start: recorded on array %s: %s (generation %d -> %d)%n",
            store.arrayId(), t.describe(), generation, generation + 1);
        out.println("  " + t.changes());
        out.printf(
            "  to move: %d versions, %d bytes (of %d versions)%n",
            totals.versions(), totals.bytes(), plan.versions());
        out.println("  " + MOVER);
        return ExitCodes.OK;
      }
    }
  }

  /** {@code racs reshape status}. */
  @Command(
      name = "status",
      mixinStandardHelpOptions = true,
      versionProvider = VersionProvider.class,
      description = "Say where the recorded reshape stands (in the exit code, too).",
      exitCodeListHeading = "%nExit codes:%n",
      exitCodeList = {
        "0:no reshape in progress: complete, aborted or none recorded (the line says which)",
        "1:the reshape failed or is paused on an error (named), or the array could not be read",
        "2:invalid command line or configuration",
        "3:the reshape is running"
      })
  static final class Status implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Mixin ReshapeOptions.Config config;

    @Mixin ProgressOption progressOption;

    @Override
    public Integer call() {
      PrintWriter out = spec.commandLine().getOut();
      ArrayConfig array = ArrayConfig.load(config.path);
      try (ErasureStore store = array.inspect()) {
        Optional<ArrayRecord> now = new ArrayRecords(store).current();
        if (now.isEmpty()) {
          out.printf(
              "reshape status: none recorded; array %s is %s over %d repositories%n",
              store.arrayId(), array.store().geometry(), array.slots().size());
          return ExitCodes.OK;
        }
        ArrayRecord r = now.get();
        String move = r.from().describe() + " -> " + r.to().describe();
        return switch (r.state()) {
          case RUNNING -> {
            out.printf(
                "reshape status: running since %s: %s (generation %d -> %d)%n",
                Instant.ofEpochMilli(r.startedMillis()), move, r.from().number(), r.to().number());
            Optional<MoveProgress> progress = MoveProgress.latest(store, r.to().number());
            MoveEstimate estimate = MoveEstimate.of(r, progress.orElse(null));
            if (progress.isEmpty()) {
              out.println("  nothing moved yet; " + MOVER);
              estimate.describe().lines().forEach(line -> out.println("  " + line));
              yield ExitCodes.RUNNING;
            }
            MoveProgress p = progress.get();
            out.printf(
                "  sweep %d%s: %d versions moved, %d bytes, %d old copies collected%n",
                p.sweep(),
                p.bucket().isEmpty() ? "" : ", in bucket " + p.bucket(),
                p.versionsMoved(),
                p.bytesMoved(),
                p.copiesCollected());
            estimate.describe().lines().forEach(line -> out.println("  " + line));
            if (progressOption.mode() == ProgressMode.BAR) {
              // One drawing: the status is a moment, not a run to follow.
              ProgressBar bar = ProgressBar.create(ProgressMode.BAR, out);
              bar.update(ReshapeSteps.of(estimate, "sweep " + p.sweep()));
              bar.finish();
            }
            if (!p.waiting().isEmpty()) {
              out.println("  the mover is " + p.waiting()); // no error: still running
            }
            if (!p.problem().isEmpty()) {
              out.println("  the mover is " + p.problem());
              yield ExitCodes.FAILURE;
            }
            yield ExitCodes.RUNNING;
          }
          case COMPLETE -> {
            out.println("reshape status: complete: the array is " + r.to().describe());
            yield ExitCodes.OK;
          }
          case ABORTED -> {
            out.printf(
                "reshape status: aborted: the array is %s (the reshape to %s was given up)%n",
                r.from().describe(), r.to().describe());
            yield ExitCodes.OK;
          }
          case FAILED -> {
            out.printf("reshape status: failed: %s (%s)%n", r.reason(), move);
            yield ExitCodes.FAILURE;
          }
        };
      }
    }
  }

  /** {@code racs reshape abort}. */
  @Command(
      name = "abort",
      mixinStandardHelpOptions = true,
      versionProvider = VersionProvider.class,
      description = "Give up the recorded reshape: the array returns to its layout before it.",
      exitCodeListHeading = "%nExit codes:%n",
      exitCodeList = {
        "0:abort recorded",
        "1:nothing to abort (none recorded, complete or aborted already), or the record did not"
            + " reach a write quorum",
        "2:invalid command line or configuration"
      })
  static final class Abort implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Mixin ReshapeOptions.Config config;

    @Override
    public Integer call() {
      PrintWriter out = spec.commandLine().getOut();
      try (ErasureStore store = ArrayConfig.load(config.path).open()) {
        ArrayRecords records = new ArrayRecords(store);
        Optional<ArrayRecord> now = records.current();
        if (now.isEmpty()
            || now.get().state() == ArrayRecord.State.COMPLETE
            || now.get().state() == ArrayRecord.State.ABORTED) {
          throw new IllegalStateException(
              "nothing to abort: "
                  + now.map(r -> "the reshape to " + r.to().describe() + " is " + r.state())
                      .orElse("no reshape recorded"));
        }
        ArrayRecord r = now.get();
        records.write(r.next(records.nextId(), ArrayRecord.State.ABORTED, null));
        announce(ArrayConfig.load(config.path), spec.commandLine().getErr());
        out.printf(
            "reshape abort: recorded: the array stays %s (the reshape to %s is given up)%n",
            r.from().describe(), r.to().describe());
        return ExitCodes.OK;
      }
    }
  }

  /**
   * Tells the proxies, when the configuration names coordination, that the array record changed, so
   * that each re-reads it at once rather than within 10 s (docs/reshape.md §6); says on stderr when
   * it could not (the proxies then see it at their next re-read).
   */
  private static void announce(ArrayConfig array, PrintWriter err) {
    Optional<CoordinationConfig> coordination = CoordinationConfig.from(array.file());
    if (coordination.isEmpty()) {
      return;
    }
    CoordinationConfig c = coordination.get();
    if (!ZooKeeperCoordination.announceLayoutOnce(
        c.zookeeper(), c.namespace(), c.sessionTimeout(), UsersCommand.ANNOUNCE_WAIT)) {
      err.printf(
          "reshape: the record is written, but could not be announced through ZooKeeper at %s;"
              + " the proxies see it at their next re-read (within 10 s)%n",
          c.zookeeper());
      err.flush();
    }
  }
}
