package io.racs.proxy.store.reshape;

import io.racs.proxy.codec.Geometry;
import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.array.ArrayHealth;
import io.racs.proxy.store.array.IndexMerge;
import io.racs.proxy.store.array.RepositoryHealth;
import io.racs.proxy.store.array.StoreContext;
import io.racs.proxy.store.array.Throttle;
import io.racs.proxy.store.commit.VersionResolver;
import io.racs.proxy.store.format.ArrayRecord;
import io.racs.proxy.store.format.Layout;
import io.racs.proxy.store.format.VersionMeta;
import io.racs.proxy.store.heal.Maintenance;
import io.racs.proxy.store.heal.SupersededCopies;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * The reshape's mover for a reshape that keeps the array's repositories and changes its geometry
 * (docs/reshape.md §5): sweeps every bucket's index in order from its checkpoint, and for each
 * version (delete markers too) that the resolver's one judgement finds outside the target layout
 * writes a copy in the target ({@link VersionCopier}); each older copy under a copy in the target
 * goes once that copy has settled ({@link SupersededCopies}, with the removal rule's consent). A
 * sweep that finds nothing to move or collect, from its start to its end, completes the reshape:
 * the array record is marked {@code COMPLETE}.
 *
 * <p>It keeps {@code --rate} ({@link Throttle}), pauses while a slot of the array is not usable
 * (and says so), checkpoints after each key ({@link MoveCheckpoints}), and stops before its next
 * key when told to, resumable from the checkpoint. Every step is idempotent: a version in the
 * target is skipped, a copy that failed to commit is replaced, and its data is collected.
 *
 * <p>One mover runs at a time (its caller holds the heal lease). Not thread-safe.
 */
public final class Mover {
  /** How a run ended. */
  public enum Outcome {
    /** Every version is in the target layout: the array record says {@code COMPLETE}. */
    COMPLETE,
    /** Told to stop (or paused until told to): resumable from the checkpoint. */
    STOPPED,
    /** Nothing to move (no reshape running, or one the mover cannot do), or a step kept failing. */
    FAILED
  }

  /**
   * What a run did.
   *
   * @param outcome how it ended
   * @param versionsMoved versions copied into the target layout by this reshape (all runs)
   * @param bytesMoved stored bytes copied by this reshape
   * @param copiesCollected older copies collected by this reshape
   * @param reason why it stopped or failed, one line; empty when complete
   */
  public record Report(
      Outcome outcome, long versionsMoved, long bytesMoved, long copiesCollected, String reason) {}

  /**
   * How to run.
   *
   * @param rateMegabytesPerSecond the rate to keep, MB/s (0: none)
   * @param progress where progress lines go
   * @param stop asked before each key: true stops the mover there
   * @param pause how long to wait before looking again at an unusable slot
   * @param sweeps how many sweeps one run makes at most before it stops
   * @param counters told where the mover stands each time it checkpoints
   * @param fence how long after the reshape was recorded (its {@code startedMillis}, by the store's
   *     clock) a proxy may still write the old layout: the sweep that completes begins no earlier
   */
  public record Options(
      double rateMegabytesPerSecond,
      Consumer<String> progress,
      BooleanSupplier stop,
      Duration pause,
      int sweeps,
      Consumer<MoveProgress> counters,
      Duration fence) {
    /** 50 MB/s, no progress lines, never stopped, a pause of 5 s, 10 sweeps, the fence of §6. */
    public static Options defaults() {
      return new Options(
          50, line -> {}, () -> false, Duration.ofSeconds(5), 10, p -> {}, RecordedLayout.FENCE);
    }

    /** The fence ({@link RecordedLayout#FENCE}); zero only when no proxy serves the array. */
    public Options withFence(Duration fence) {
      return new Options(rateMegabytesPerSecond, progress, stop, pause, sweeps, counters, fence);
    }

    public Options withRate(double megabytesPerSecond) {
      return new Options(megabytesPerSecond, progress, stop, pause, sweeps, counters, fence);
    }

    public Options withProgress(Consumer<String> progress) {
      return new Options(rateMegabytesPerSecond, progress, stop, pause, sweeps, counters, fence);
    }

    public Options withStop(BooleanSupplier stop) {
      return new Options(rateMegabytesPerSecond, progress, stop, pause, sweeps, counters, fence);
    }

    public Options withPause(Duration pause) {
      return new Options(rateMegabytesPerSecond, progress, stop, pause, sweeps, counters, fence);
    }

    /** Told where the mover stands at each checkpoint (for {@code /metrics}). */
    public Options withCounters(Consumer<MoveProgress> counters) {
      return new Options(rateMegabytesPerSecond, progress, stop, pause, sweeps, counters, fence);
    }
  }

  /** Thrown to end a run where it stands (told to stop): the checkpoint stays. */
  private static final class Stopped extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Stopped(String reason) {
      super(reason, null, false, false);
    }
  }

  private final Maintenance store;
  private final StoreContext context;
  private final VersionResolver resolver;
  private final Options options;
  private final ArrayRecords records;
  private ArrayRecord reshape;
  private MoveCheckpoints checkpoints;
  private VersionCopier copier;
  private int generation;
  private long versionsMoved;
  private long bytesMoved;
  private long copiesCollected;
  private int sweep = 1;
  // What the current sweep found still to do, and the first failure it met.
  private long found;
  private String failure;
  // Versions whose older copies wait for their new copy to settle, by version entry.
  private final List<String> settling = new ArrayList<>();
  // Where the last checkpoint stands, so that a pause or a failure is noted there.
  private String savedBucket = "";
  private String savedAfter = "";
  private long lastProgressNanos;
  private long lastHealthNanos;
  private long lastRecordNanos;
  private static final long RECORD_EVERY_NANOS = Duration.ofSeconds(10).toNanos();

  private Mover(Maintenance store, Options options) {
    this.store = store;
    this.context = store.context();
    this.resolver = store.resolver();
    this.options = options;
    this.records = new ArrayRecords(store);
  }

  /** Runs the mover over {@code store}, opened in the layout the reshape starts from. */
  public static Report run(Maintenance store, Options options) {
    return new Mover(store, options).run();
  }

  private Report run() {
    Optional<ArrayRecord> recorded = records.current();
    if (recorded.isEmpty()) {
      return report(Outcome.FAILED, "no reshape is recorded on the array");
    }
    reshape = recorded.get();
    switch (reshape.state()) {
      case COMPLETE -> {
        return report(Outcome.COMPLETE, "");
      }
      case ABORTED -> {
        return report(Outcome.FAILED, "the reshape to " + reshape.to().describe() + " was aborted");
      }
      case FAILED -> {
        return report(Outcome.FAILED, "the reshape failed: " + reshape.reason());
      }
      case RUNNING -> {
        // moved below
      }
    }
    if (!reshape.from().repositories().equals(reshape.to().repositories())) {
      return report(
          Outcome.FAILED,
          "the reshape "
              + reshape.from().describe()
              + " -> "
              + reshape.to().describe()
              + " changes the repositories: the mover moves geometry-only reshapes so far");
    }
    generation = reshape.to().number();
    copier =
        new VersionCopier(
            store,
            Geometry.parse(reshape.to().geometry()),
            generation,
            Throttle.megabytesPerSecond(options.rateMegabytesPerSecond()));
    checkpoints = new MoveCheckpoints(store, generation);
    try {
      Optional<MoveCheckpoints.Checkpoint> resume = checkpoints.latest();
      resume.ifPresent(
          c -> {
            versionsMoved = c.versionsMoved();
            bytesMoved = c.bytesMoved();
            copiesCollected = c.copiesCollected();
            sweep = c.sweep();
            options
                .progress()
                .accept("reshape: resuming sweep " + sweep + " in bucket " + c.bucket());
          });
      for (int run = 0; run < options.sweeps(); run++) {
        boolean whole = resume.isEmpty();
        // A proxy that has not re-read the array record yet still writes the old layout: only a
        // sweep begun past the fence may find the last of them (docs/reshape.md §6).
        boolean fenced =
            store.config().clock().millis() >= reshape.startedMillis() + options.fence().toMillis();
        found = 0;
        failure = null;
        sweepBuckets(resume);
        resume = Optional.empty();
        collectSettling();
        if (whole && found == 0 && failure == null && !fenced) {
          awaitFence(); // the next sweep, whole and fenced, may complete
        } else if (whole && found == 0 && failure == null) {
          checkRecord(true);
          records.write(reshape.next(records.nextId(), ArrayRecord.State.COMPLETE, null));
          checkpoints.clear();
          say(true);
          return report(Outcome.COMPLETE, "");
        }
        sweep++;
        save("", ""); // the next sweep starts from the first bucket
      }
      if (failure != null) {
        noteQuietly("failed: " + failure);
      }
      return report(
          failure != null ? Outcome.FAILED : Outcome.STOPPED,
          failure != null ? failure : "still moving after " + options.sweeps() + " sweeps");
    } catch (Stopped e) {
      say(true);
      return report(Outcome.STOPPED, e.getMessage());
    }
  }

  private Report report(Outcome outcome, String reason) {
    return new Report(outcome, versionsMoved, bytesMoved, copiesCollected, reason);
  }

  private void sweepBuckets(Optional<MoveCheckpoints.Checkpoint> resume) {
    List<String> buckets =
        new ArrayList<>(store.listBuckets().stream().map(b -> b.name()).sorted().toList());
    for (String bucket : buckets) {
      String from = resume.map(MoveCheckpoints.Checkpoint::bucket).orElse("");
      if (bucket.compareTo(from) < 0) {
        continue;
      }
      String after = bucket.equals(from) ? resume.get().after() : "";
      sweepBucket(bucket, after);
    }
  }

  private void sweepBucket(String bucket, String after) {
    IndexMerge merge = new IndexMerge(context.array, Layout.indexPrefix(bucket), after, 1000);
    String keyName = null;
    String last = after;
    for (IndexMerge.Entry e = merge.next(); e != null; e = merge.next()) {
      String name = e.name().substring(0, e.name().lastIndexOf(Layout.SEPARATOR));
      if (!name.equals(keyName)) {
        if (keyName != null) {
          save(bucket, last); // the key before is done
        }
        checkStop();
        checkRecord(false);
        awaitUsable();
        keyName = name;
      }
      last = e.names().get(e.names().size() - 1).name();
      if (Layout.isRemovalRecord(e.name())) {
        continue; // the version is gone in every copy; heal collects what is left
      }
      VersionResolver.Judgement judged = resolver.judge(merge, e, null);
      if (judged.standing() == VersionResolver.Standing.NOT_A_VERSION) {
        continue; // a write that failed, or a removed version: heal's
      }
      if (judged.standing() == VersionResolver.Standing.UNREADABLE) {
        failed("read " + e.versionEntry() + ": its record is unreadable");
        continue;
      }
      moveVersion(merge, e, judged);
      say(false);
    }
    context.requireReadQuorum(merge, "sweep " + bucket);
    if (keyName != null) {
      save(bucket, last);
    }
  }

  /** Copies one version into the target, or collects its older copies if it is there already. */
  private void moveVersion(
      IndexMerge merge, IndexMerge.Entry version, VersionResolver.Judgement judged) {
    VersionMeta meta = judged.meta().get();
    if (copier.inTarget(meta)) {
      collectOlder(version, judged);
      return;
    }
    found++;
    try {
      for (IndexMerge.Entry name : version.names()) {
        // A copy into this generation that does not decide: a move that failed. Records are never
        // written twice, so it goes before the copy is written again.
        if (Layout.isCopy(name.name()) && Layout.copyGeneration(name.name()) == generation) {
          Optional<VersionMeta> leftover = context.read(name, VersionMeta.class);
          if (leftover.isPresent()) {
            store.collector().removeSupersededCopy(name.name(), leftover.get());
          } else {
            store.collector().removeVersion(name.name(), Optional.empty());
          }
        }
      }
      bytesMoved += copier.copy(meta, judged.decided().name());
      versionsMoved++;
      settling.add(version.versionEntry());
    } catch (StoreException e) {
      failed(
          "copy "
              + meta.bucket()
              + "/"
              + meta.key()
              + " "
              + meta.versionId()
              + ": "
              + e.getMessage());
    }
  }

  /** Collects the older copies of a version decided by its copy in the target, once settled. */
  private void collectOlder(IndexMerge.Entry version, VersionResolver.Judgement judged) {
    List<IndexMerge.Entry> names = version.names();
    IndexMerge.Entry decided = judged.decided();
    if (names.size() < 2 || names.get(0).name().equals(decided.name())) {
      return; // nothing older than the deciding name
    }
    found++;
    if (!SupersededCopies.replaceSettled(store, decided, judged.meta())) {
      settling.add(version.versionEntry());
      return;
    }
    for (IndexMerge.Entry name : names) {
      if (name.name().equals(decided.name())) {
        break;
      }
      Optional<VersionMeta> meta = context.read(name, VersionMeta.class);
      if (meta.isPresent()) {
        store.collector().removeSupersededCopy(name.name(), meta.get());
        copiesCollected++;
      }
    }
  }

  /**
   * Waits for the copies written by this sweep to settle, then collects the copies they replaced,
   * each version judged again from a fresh listing.
   */
  private void collectSettling() {
    List<String> versions = new ArrayList<>(settling);
    settling.clear();
    for (String entry : versions) {
      IndexMerge merge = new IndexMerge(context.array, entry, "", 10);
      for (IndexMerge.Entry e = merge.next(); e != null; e = merge.next()) {
        if (!e.versionEntry().equals(entry) || Layout.isRemovalRecord(e.name())) {
          continue;
        }
        VersionResolver.Judgement judged = resolver.judge(merge, e, null);
        if (judged.standing() != VersionResolver.Standing.VERSION
            || !copier.inTarget(judged.meta().get())) {
          continue;
        }
        awaitSettled(judged.meta().get());
        collectOlder(e, judged);
      }
    }
    settling.clear(); // what still has not settled, the next sweep (or heal) collects
  }

  /**
   * Waits until {@code copy} has settled by the store's clock, looking whether to stop every pause;
   * gives up after the settle time and a pause more of this machine's time (a clock that does not
   * move): the next sweep collects it then.
   */
  private void awaitSettled(VersionMeta copy) {
    Instant at = SupersededCopies.settlesAt(store, copy);
    long budgetNanos = store.config().settleTime().plus(options.pause()).toNanos();
    long started = System.nanoTime();
    while (true) {
      checkStop();
      Duration left = Duration.between(store.config().clock().instant(), at);
      long waited = System.nanoTime() - started;
      if (left.isNegative() || left.isZero() || waited >= budgetNanos) {
        return;
      }
      // Pacing to a deadline, not a handoff between threads.
      LockSupport.parkNanos(Math.min(left.toNanos() + 1_000_000, options.pause().toNanos()));
    }
  }

  /** Waits, stopping when told to, until the fence has passed by the store's clock. */
  private void awaitFence() {
    long at = reshape.startedMillis() + options.fence().toMillis();
    options.progress().accept("reshape: waiting for every proxy to write the new layout");
    while (true) {
      checkStop();
      long left = at - store.config().clock().millis();
      if (left < 0) {
        return;
      }
      // Pacing to a deadline, not a handoff between threads.
      LockSupport.parkNanos(Math.min((left + 1) * 1_000_000, options.pause().toNanos()));
    }
  }

  /** Waits while a slot of the array is not usable, saying so once; stops when told to. */
  private void awaitUsable() {
    String said = null;
    while (true) {
      String down = unusable();
      if (down == null) {
        if (said != null) {
          options.progress().accept("reshape: resumed: every slot is usable again");
          noteQuietly(null);
        }
        return;
      }
      if (!down.equals(said)) {
        options.progress().accept("reshape: paused: " + down);
        noteQuietly("paused: " + down);
        said = down;
      }
      if (options.stop().getAsBoolean()) {
        throw new Stopped("paused: " + down);
      }
      LockSupport.parkNanos(options.pause().toNanos()); // pacing a retry, not a handoff
      lastHealthNanos = 0; // look again now
    }
  }

  /** The first slot not usable now, described; null when every one is. */
  private String unusable() {
    for (int slot = 0; slot < context.array.size(); slot++) {
      String unusable = context.array.health().unusable(slot);
      if (unusable != null) {
        return "slot " + slot + " is " + unusable;
      }
    }
    long now = System.nanoTime();
    if (lastHealthNanos != 0 && now - lastHealthNanos < Duration.ofSeconds(2).toNanos()) {
      return null;
    }
    lastHealthNanos = now;
    for (RepositoryHealth health : new ArrayHealth(context, store.slots()).report()) {
      if (!health.writable()) {
        return "slot "
            + health.slot()
            + " ("
            + health.name()
            + ") is "
            + health.state()
            + (health.reason().isEmpty() ? "" : ": " + health.reason());
      }
    }
    return null;
  }

  /**
   * Stops the run when the array record is no longer the reshape it moves (aborted meanwhile, by
   * any process): asked before each key, read at most every 10 s, and always before completing.
   */
  private void checkRecord(boolean now) {
    long at = System.nanoTime();
    if (!now && lastRecordNanos != 0 && at - lastRecordNanos < RECORD_EVERY_NANOS) {
      return;
    }
    lastRecordNanos = at;
    Optional<ArrayRecord> current = records.current();
    if (current.isEmpty() || !current.get().versionId().equals(reshape.versionId())) {
      throw new Stopped(
          "the reshape is "
              + current.map(r -> r.state().name().toLowerCase(java.util.Locale.ROOT)).orElse("gone")
              + " since this run began");
    }
  }

  private void checkStop() {
    if (options.stop().getAsBoolean()) {
      throw new Stopped("stopped; resumes from the checkpoint");
    }
  }

  private void failed(String what) {
    if (failure == null) {
      failure = what;
    }
    options.progress().accept("reshape: could not " + what);
  }

  private void save(String bucket, String after) {
    savedBucket = bucket;
    savedAfter = after;
    note(null);
  }

  /** Checkpoints where the last checkpoint stands, noting {@code problem} (null: none). */
  private void note(String problem) {
    checkpoints.save(
        new MoveCheckpoints.Checkpoint(
            1,
            sweep,
            savedBucket,
            savedAfter,
            versionsMoved,
            bytesMoved,
            copiesCollected,
            problem));
    options
        .counters()
        .accept(
            new MoveProgress(
                sweep,
                savedBucket,
                versionsMoved,
                bytesMoved,
                copiesCollected,
                problem == null ? "" : problem));
  }

  /** {@link #note} that does not fail the run: a pause is noted on an array that may be down. */
  private void noteQuietly(String problem) {
    try {
      note(problem);
    } catch (StoreException e) {
      options.progress().accept("reshape: could not note the pause: " + e.getMessage());
    }
  }

  private void say(boolean always) {
    long now = System.nanoTime();
    if (!always && now - lastProgressNanos < Duration.ofSeconds(1).toNanos()) {
      return;
    }
    lastProgressNanos = now;
    options
        .progress()
        .accept(
            "reshape: sweep "
                + sweep
                + ": "
                + versionsMoved
                + " versions moved, "
                + bytesMoved / 1_000_000
                + " MB, "
                + copiesCollected
                + " old copies collected");
  }
}
