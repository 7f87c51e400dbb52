package io.racs.proxy.store.heal;

import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.array.Identity;
import io.racs.proxy.store.array.IndexMerge;
import io.racs.proxy.store.array.KeyStamps;
import io.racs.proxy.store.array.RepositoryArray;
import io.racs.proxy.store.array.StoreContext;
import io.racs.proxy.store.array.Throttle;
import io.racs.proxy.store.bucket.BucketDocuments;
import io.racs.proxy.store.commit.VersionRemovals;
import io.racs.proxy.store.commit.VersionResolver;
import io.racs.proxy.store.format.Layout;
import io.racs.proxy.store.format.PartMeta;
import io.racs.proxy.store.format.PartRecord;
import io.racs.proxy.store.format.VersionId;
import io.racs.proxy.store.format.VersionMeta;
import io.racs.proxy.store.object.MultipartUploads;
import io.racs.proxy.store.object.ObjectTags;
import io.racs.proxy.store.stripe.ShardRebuilder;
import io.racs.repos.ObjectInfo;
import io.racs.repos.Repository;
import io.racs.repos.RepositoryException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.zip.CRC32C;

/**
 * Finds and repairs what failures leave behind, and collects leftovers: the on-demand {@code racs
 * heal} and the background scrub.
 *
 * <p>For every bucket record, index entry and upload record it makes sure each repository has a
 * copy (but for the records of an upload aborted or given up, which it collects instead); for the
 * current version of every key it checks each shard object (present, right size, and with {@code
 * deep} every piece's CRC32C) and rebuilds the bad ones from k good shards; superseded versions,
 * data no record refers to, and what crashed writes left inside repositories ({@link
 * io.racs.repos.Repository#purgeLeftovers}), older than the GC grace, are deleted. An empty
 * repository adopted into a slot is therefore filled completely. Work is throttled, reports
 * progress, and with a state file resumes after the last key it finished.
 */
public final class Healer {
  /** What to heal and how. Immutable; build with {@link #builder()}. */
  public static final class Options {
    private final String bucket;
    private final boolean dryRun;
    private final boolean deep;
    private final double megabytesPerSecond;
    private final Path stateFile;
    private final Checkpoint checkpoint;
    private final BooleanSupplier stop;
    private final Consumer<String> progress;

    private Options(Builder builder) {
      this.bucket = builder.bucket;
      this.dryRun = builder.dryRun;
      this.deep = builder.deep;
      this.megabytesPerSecond = builder.megabytesPerSecond;
      this.stateFile = builder.stateFile;
      this.checkpoint =
          builder.checkpoint != null
              ? builder.checkpoint
              : builder.stateFile != null ? Checkpoint.inFile(builder.stateFile) : Checkpoint.NONE;
      this.stop = builder.stop;
      this.progress = builder.progress;
    }

    /** Everything, repairing, with no limit and no output. */
    public static Options defaults() {
      return builder().build();
    }

    /** A builder that starts from {@link #defaults()}. */
    public static Builder builder() {
      return new Builder();
    }

    /** The one bucket to heal (then no leftovers are collected), or null for every bucket. */
    public String bucket() {
      return bucket;
    }

    /** Whether to report what would be repaired without changing anything. */
    public boolean dryRun() {
      return dryRun;
    }

    /** Whether to read every shard piece and check its CRC32C, not only the shards' sizes. */
    public boolean deep() {
      return deep;
    }

    /** The most bytes heal reads and writes per second, in MB (10^6 bytes); 0 or less, no limit. */
    public double megabytesPerSecond() {
      return megabytesPerSecond;
    }

    /** Where heal records the last key it finished, to resume after it; null for nowhere. */
    public Path stateFile() {
      return stateFile;
    }

    /** Where heal records the last key it finished (the state file's, unless another was set). */
    public Checkpoint checkpoint() {
      return checkpoint;
    }

    /** Asked before each object: true stops heal there, keeping its checkpoint. */
    public BooleanSupplier stop() {
      return stop;
    }

    /** Where heal says what it is doing, a line at a time. */
    public Consumer<String> progress() {
      return progress;
    }

    /** Builds {@link Options}; every setting starts as in {@link #defaults()}. */
    public static final class Builder {
      private String bucket;
      private boolean dryRun;
      private boolean deep;
      private double megabytesPerSecond;
      private Path stateFile;
      private Checkpoint checkpoint;
      private BooleanSupplier stop = () -> false;
      private Consumer<String> progress = line -> {};

      private Builder() {}

      /** Heals this bucket only, collecting no leftovers; null (the default) heals every bucket. */
      public Builder bucket(String bucket) {
        this.bucket = bucket;
        return this;
      }

      /** Reports what would be repaired without changing anything. */
      public Builder dryRun(boolean dryRun) {
        this.dryRun = dryRun;
        return this;
      }

      /** Reads every shard piece and checks its CRC32C. */
      public Builder deep(boolean deep) {
        this.deep = deep;
        return this;
      }

      /** Limits heal's reads and writes to this many MB per second; 0 (the default), no limit. */
      public Builder megabytesPerSecond(double megabytesPerSecond) {
        this.megabytesPerSecond = megabytesPerSecond;
        return this;
      }

      /** Records progress in this file, so that an interrupted heal resumes; null, nowhere. */
      public Builder stateFile(Path stateFile) {
        this.stateFile = stateFile;
        return this;
      }

      /**
       * Records progress here instead of in a state file, so that an interrupted heal resumes (the
       * background scrub of several proxies keeps it in ZooKeeper, so that another proxy resumes
       * it); null, in the state file if one is set.
       */
      public Builder checkpoint(Checkpoint checkpoint) {
        this.checkpoint = checkpoint;
        return this;
      }

      /**
       * Asked before each object (and each bucket): once it answers true, heal stops there,
       * collects nothing, keeps its checkpoint and reports itself {@link Report#stopped()}. The
       * background scrub stops so when its proxy loses the leadership of the proxies.
       */
      public Builder stop(BooleanSupplier stop) {
        this.stop = Objects.requireNonNull(stop, "stop");
        return this;
      }

      /** Receives heal's progress lines; by default they go nowhere. */
      public Builder progress(Consumer<String> progress) {
        this.progress = Objects.requireNonNull(progress, "progress");
        return this;
      }

      /** The options. */
      public Options build() {
        return new Options(this);
      }
    }
  }

  /**
   * Where heal records how far it got: the bucket and the index entry it finished last. Written
   * after each object, read once at the start, cleared when a heal completes its scan.
   * Implementations must be safe to call from the one thread that runs the heal.
   */
  public interface Checkpoint {
    /** Records nothing. */
    Checkpoint NONE =
        new Checkpoint() {
          @Override
          public Optional<String> read() {
            return Optional.empty();
          }

          @Override
          public void write(String state) {}

          @Override
          public void clear() {}
        };

    /** The last state written and not cleared, if any. */
    Optional<String> read();

    /** Replaces the state. */
    void write(String state);

    /** Forgets the state: the next heal starts from the beginning. */
    void clear();

    /** A checkpoint kept in a local file, replaced atomically on each write. */
    static Checkpoint inFile(Path file) {
      return new Checkpoint() {
        @Override
        public Optional<String> read() {
          if (!Files.isRegularFile(file)) {
            return Optional.empty();
          }
          try {
            return Optional.of(Files.readString(file, StandardCharsets.UTF_8));
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }

        @Override
        public void write(String state) {
          try {
            Path temp = file.resolveSibling(file.getFileName() + ".tmp");
            Files.writeString(temp, state, StandardCharsets.UTF_8);
            Files.move(
                temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }

        @Override
        public void clear() {
          try {
            Files.deleteIfExists(file);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }
      };
    }
  }

  /** Thrown through heal's steps when {@link Options#stop()} says stop. */
  private static final class Stopped extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Stopped() {
      super("stopped", null, false, false);
    }
  }

  /** What a heal found and did. */
  public record Report(
      long objectsScanned,
      long recordsRepaired,
      long shardsRebuilt,
      long bytesRead,
      long bytesWritten,
      long leftoversCollected,
      List<String> unrecoverable,
      List<String> unreachableSlots,
      List<String> notDone,
      boolean dryRun,
      boolean stopped) {
    /** One line per figure, as {@code racs heal} prints it. */
    public List<String> lines() {
      List<String> lines = new ArrayList<>();
      lines.add((dryRun ? "would heal" : "healed") + ": " + objectsScanned + " objects scanned");
      lines.add("  records " + (dryRun ? "to repair" : "repaired") + ": " + recordsRepaired);
      lines.add("  shards " + (dryRun ? "to rebuild" : "rebuilt") + ": " + shardsRebuilt);
      lines.add("  bytes read: " + bytesRead + ", written: " + bytesWritten);
      lines.add("  leftovers " + (dryRun ? "to collect" : "collected") + ": " + leftoversCollected);
      lines.add(
          "  unreachable repositories: "
              + (unreachableSlots.isEmpty() ? "none" : unreachableSlots.size()));
      unreachableSlots.forEach(u -> lines.add("    " + u));
      lines.add(
          "  unrecoverable objects: " + (unrecoverable.isEmpty() ? "none" : unrecoverable.size()));
      unrecoverable.forEach(u -> lines.add("    " + u));
      lines.add("  not done: " + (notDone.isEmpty() ? "none" : notDone.size()));
      notDone.forEach(u -> lines.add("    " + u));
      return lines;
    }

    /**
     * Whether heal did everything it should: no object unrecoverable, no repository unreachable or
     * failing, nothing left undone. {@code racs heal} exits 1 otherwise.
     */
    public boolean complete() {
      return unrecoverable.isEmpty() && unreachableSlots.isEmpty() && notDone.isEmpty();
    }
  }

  private final Maintenance store;
  private final StoreContext context;
  private final RepositoryArray array;
  private final Options options;
  private final Throttle throttle;
  private final int k;
  private final int n;
  private long objects;
  private long records;
  private long shards;
  private long read;
  private long written;
  private long leftovers;
  private final List<String> unrecoverable = new ArrayList<>();
  private final List<String> notDone = new ArrayList<>();
  // Slots that failed (at the probe, or on a call during the run), with the first failure: skipped
  // from then on, so that one failing repository costs one error, not one per object.
  private final Map<Integer, String> unreachable = new TreeMap<>();
  // Set when part of the scan failed: then what no record refers to is not known, and nothing is
  // collected as a leftover.
  private boolean scanIncomplete;
  private final Set<String> referenced = new HashSet<>();
  private long lastProgress = System.nanoTime();

  private Healer(Maintenance store, Options options) {
    this.store = store;
    this.context = store.context();
    this.array = context.array;
    this.options = options;
    this.throttle = Throttle.megabytesPerSecond(options.megabytesPerSecond());
    this.k = store.config().geometry().dataShards();
    this.n = store.config().geometry().totalShards();
  }

  /** Runs a heal over {@code store}. */
  public static Report heal(Maintenance store, Options options) {
    return new Healer(store, options).run();
  }

  private Report run() {
    try {
      return scan();
    } catch (Stopped e) {
      // Told to stop (its proxy lost the leadership): the checkpoint stays for whoever resumes.
      notDone.add("stopped before the end; resumes from the checkpoint");
      options.progress().accept("heal: stopped; resumes from the checkpoint");
      return report(true);
    }
  }

  /** Throws {@link Stopped} once the options say stop. */
  private void checkStop() {
    if (options.stop().getAsBoolean()) {
      throw new Stopped();
    }
  }

  private Report scan() {
    store.awaitCollections(); // what the store is still collecting is not a leftover
    if (!options.dryRun()) {
      // Before the probes, so that a slot adoption keeps out counts as unreachable below.
      adopt();
    }
    for (int slot = 0; slot < n; slot++) {
      try {
        array.slot(slot).probe();
      } catch (RepositoryException e) {
        markUnreachable(slot, e);
      }
    }
    String[] resume = readState();
    // A resumed heal does not scan what lies before its checkpoint, so it does not know which data
    // those versions refer to: it must not collect leftovers (they would include live data), nor
    // confirm adopted slots. The next heal, a whole one, does both.
    scanIncomplete = resume != null;
    // Each step runs whatever failed before it: a failure is listed, and heal carries on.
    attempt("copy bucket records", () -> replicateRecords(Layout.bucketPrefix()));
    for (BucketDocuments.Kind kind : BucketDocuments.Kind.values()) {
      attempt("copy " + kind + " records", () -> replicateRecords(kind.prefix()));
    }
    List<String> buckets = new ArrayList<>();
    if (options.bucket() != null) {
      buckets.add(options.bucket());
    } else {
      attempt("list buckets", () -> store.listBuckets().forEach(b -> buckets.add(b.name())));
    }
    for (String bucket : buckets) {
      attempt(
          "copy tag-set records of " + bucket,
          () -> replicateCommitted(ObjectTags.bucketPrefix(bucket)));
    }
    for (String bucket : buckets) {
      checkStop();
      if (resume != null && bucket.compareTo(resume[0]) < 0) {
        continue;
      }
      String after = resume != null && bucket.equals(resume[0]) ? resume[1] : "";
      // The part records before the index: a completion commits its version, then removes its part
      // records. Read after the scan, a completion that committed behind the scan would be named by
      // neither, and its data (as old as its parts) would be collected as a leftover. Read before,
      // a part record that is gone was removed after its version committed, before the scan began.
      attempt("read upload records of " + bucket, () -> collectUploadReferences(bucket));
      attempt("heal bucket " + bucket, () -> healBucket(bucket, after));
      attempt("heal upload records of " + bucket, () -> healUploads(bucket));
    }
    if (options.bucket() == null) {
      // Invisible to the scan, and only ever past the grace: collected whatever else failed.
      purgeWriteLeftovers();
    }
    if (options.bucket() == null && unreachable.isEmpty() && !scanIncomplete) {
      attempt("collect leftovers", this::collectLeftovers);
      if (!options.dryRun() && unrecoverable.isEmpty() && notDone.isEmpty()) {
        // Every object was checked on every slot, so adopted slots are now full members.
        store.slots().confirm();
      }
    }
    checkStop(); // a heal stopped at its very end keeps its checkpoint all the same
    clearState();
    return report(false);
  }

  private Report report(boolean stopped) {
    return new Report(
        objects,
        records,
        shards,
        read,
        written,
        leftovers,
        List.copyOf(unrecoverable),
        unreachable.entrySet().stream()
            .map(u -> u.getKey() + " (" + array.slot(u.getKey()).name() + "): " + u.getValue())
            .toList(),
        List.copyOf(notDone),
        options.dryRun(),
        stopped);
  }

  /** Runs one step of heal; a failure is listed as not done, and heal carries on. */
  private void attempt(String what, Runnable step) {
    try {
      step.run();
    } catch (Stopped e) {
      throw e;
    } catch (RuntimeException e) {
      failed(what, e);
    }
  }

  private void failed(String what, RuntimeException e) {
    scanIncomplete = true;
    String line = what + ": " + e.getMessage();
    notDone.add(line);
    options.progress().accept("heal: could not " + line);
  }

  /** Leaves a slot out for the rest of the run, remembering the first failure. */
  private void markUnreachable(int slot, Exception cause) {
    String message = cause.getMessage() != null ? cause.getMessage() : cause.toString();
    if (unreachable.putIfAbsent(slot, message) == null) {
      options
          .progress()
          .accept(
              "heal: slot " + slot + " (" + array.slot(slot).name() + ") unreachable: " + message);
    }
  }

  /** Adopts empty slots the array can prove are being replaced, and reports those it cannot. */
  private void adopt() {
    Identity.Adoption adoption = store.slots().adoptUnmarked();
    for (int slot : adoption.adopted()) {
      records++;
      options
          .progress()
          .accept("heal: slot " + slot + " (" + array.slot(slot).name() + ") is new: adopted");
    }
    adoption
        .refused()
        .forEach(
            (slot, reason) -> {
              String line = "slot " + slot + " (" + array.slot(slot).name() + ") " + reason;
              notDone.add(line);
              options.progress().accept("heal: " + line);
            });
  }

  // The index entry heal met last: a removal record lists right after the entry it removes.
  private String previousEntry;

  private void healBucket(String bucket, String after) {
    IndexMerge merge = new IndexMerge(array, Layout.indexPrefix(bucket), after, 1000);
    String lastKeyName = null;
    boolean lastKeySettled = true;
    // The key whose null version (the newest record flagged nullVersion) heal met last, and whether
    // it has settled: older flagged records of that key are superseded (see NullVersions).
    String nullKeyName = null;
    boolean nullSettled = false;
    for (IndexMerge.Entry e = merge.next(); e != null; e = merge.next()) {
      checkStop();
      String previous = previousEntry;
      previousEntry = e.name();
      String keyName = e.name().substring(0, e.name().lastIndexOf(Layout.SEPARATOR));
      boolean newest = !keyName.equals(lastKeyName);
      if (!newest && !lastKeySettled && !keepsVersionsSurely(bucket)) {
        // Superseded by a version that has not settled: readers may still need it, so it is not
        // collected, and its data is no leftover either.
        referenceData(e);
        continue;
      }
      if (Layout.isRemovalRecord(e.name())) {
        healRemoval(merge, e, previous);
        continue;
      }
      if (store.resolver().removed(merge, e)) {
        if (listedOnWriteQuorum(merge.peek())) {
          // Removed by its id: its removal record counts, so the entry and data go at once.
          collectRemoved(e);
        } else {
          // Its removal record counts only through repositories that did not list: once they do,
          // it may not, and this version is current again. It stays (healRemoval spreads the
          // record, and a later run collects the version).
          referenceData(e);
        }
        continue;
      }
      VersionResolver.Judgement judged = store.resolver().judge(merge, e, null);
      Optional<VersionMeta> meta = judged.meta();
      // A versioned bucket keeps every version, so each is healed as the newest one is (read just
      // before a version would be collected, so that versioning turned on meanwhile counts).
      boolean kept;
      try {
        kept = !newest && store.keepsVersions(bucket);
      } catch (RuntimeException ex) {
        failed("read versioning of " + bucket, ex);
        continue; // neither collected nor healed: the next run decides
      }
      if ((newest || kept) && judged.standing() == VersionResolver.Standing.NOT_A_VERSION) {
        // A write that crashed while committing (or one still committing, left alone for the
        // GC grace); either way the key's next version decides.
        if (VersionId.time(Layout.versionOf(e.name())).isBefore(graceCutoff())) {
          collectVersion(e, meta);
        }
        continue;
      }
      if (newest) {
        lastKeyName = keyName;
        // A version only through repositories that did not list supersedes nothing for sure: the
        // versions under it are left as under one that has not settled.
        lastKeySettled =
            listedOnWriteQuorum(e)
                && VersionId.time(Layout.versionOf(e.name()))
                    .isBefore(store.config().clock().instant().minus(store.config().settleTime()));
      }
      if (judged.standing() == VersionResolver.Standing.VERSION && meta.get().nullVersion()) {
        if (kept && keyName.equals(nullKeyName) && nullSettled) {
          // Superseded by the key's null version, which has settled: removed for good, as the
          // write that superseded it would have done had its proxy not stopped first.
          removeSupersededNull(meta.get());
          continue;
        }
        if (!keyName.equals(nullKeyName)) {
          nullKeyName = keyName;
          nullSettled =
              listedOnWriteQuorum(e)
                  && VersionId.time(Layout.versionOf(e.name()))
                      .isBefore(
                          store.config().clock().instant().minus(store.config().settleTime()));
        }
      }
      try {
        healEntry(bucket, keyName, e, meta, newest || kept);
      } catch (RuntimeException ex) {
        failed(meta.map(m -> "heal " + bucket + "/" + m.key()).orElse("heal " + e.name()), ex);
      }
    }
  }

  /** Removes a null record its key's newer null version superseded (a removal record first). */
  private void removeSupersededNull(VersionMeta version) {
    if (options.dryRun()) {
      return;
    }
    attempt(
        "remove superseded null version " + version.bucket() + "/" + version.key(),
        () -> store.removeVersion(version.bucket(), version.key(), version.versionId()));
  }

  /**
   * Whether the bucket keeps every version, false when that cannot be read now: a version a kept
   * key's newest version has not yet settled over is healed like any kept one, not skipped.
   */
  private boolean keepsVersionsSurely(String bucket) {
    try {
      return store.keepsVersions(bucket);
    } catch (RuntimeException e) {
      return false;
    }
  }

  /**
   * Marks the data of an entry heal leaves alone as referenced, so that {@link #collectLeftovers}
   * does not take it for the data of a failed write.
   */
  private void referenceData(IndexMerge.Entry e) {
    context
        .read(e, VersionMeta.class)
        .ifPresent(meta -> meta.parts().forEach(part -> referenced.add(part.dataId())));
  }

  private void healEntry(
      String bucket,
      String keyName,
      IndexMerge.Entry e,
      Optional<VersionMeta> meta,
      boolean newest) {
    if (!newest) {
      collectVersion(e, meta);
      return;
    }
    objects++;
    if (meta.isEmpty()) {
      unreadableNewest(bucket, keyName, e);
      return;
    }
    VersionMeta version = meta.get();
    if (isInline(version)) {
      healInline(e, version);
    } else {
      for (PartMeta part : version.parts()) {
        referenced.add(part.dataId()); // first: whatever fails below, the data is not a leftover
      }
      replicate(e);
      for (PartMeta part : version.parts()) {
        healPart(version, part);
      }
    }
    writeState(bucket, e.name());
    progress();
  }

  /**
   * The newest entry of a key whose record no repository could read: a version collected under this
   * heal (superseded by a write during the run, which is no failure) unless a fresh resolution of
   * the key still finds it unreadable.
   */
  private void unreadableNewest(String bucket, String keyName, IndexMerge.Entry e) {
    String versionId = Layout.versionOf(e.name());
    try {
      Optional<VersionMeta> now = store.resolver().newestOfIndexKey(keyName);
      if (now.isEmpty() || !now.get().versionId().equals(versionId)) {
        return; // superseded or deleted during the run
      }
    } catch (StoreException ex) {
      // Still unreadable: reported below.
    }
    unrecoverable.add(
        bucket + ": the record of version " + versionId + " is unreadable on every repository");
  }

  /**
   * Reports a version heal could not repair, unless it was superseded during the run: then its data
   * may have been collected under the repair, and the key's new version needs no repair.
   */
  private void failedRepair(VersionMeta version, StoreException cause) {
    try {
      Optional<VersionMeta> now = store.resolver().newest(version.bucket(), version.key());
      if (now.isEmpty() || !now.get().versionId().equals(version.versionId())) {
        return;
      }
    } catch (StoreException ex) {
      // The key cannot be resolved now either: report the repair's own cause.
    }
    unrecoverable.add(version.bucket() + "/" + version.key() + " (" + cause.getMessage() + ")");
  }

  private void healPart(VersionMeta version, PartMeta part) {
    Set<Integer> bad = new TreeSet<>();
    long expected = part.shardObjectBytes(k);
    for (int i = 0; i < n; i++) {
      int slot = part.slots().get(i);
      if (unreachable.containsKey(slot)) {
        continue;
      }
      Repository repository = array.slot(slot);
      String name = Layout.shard(part.dataId(), i);
      try {
        Optional<ObjectInfo> info = repository.head(name);
        if (info.isEmpty() || info.get().sizeBytes() != expected) {
          bad.add(i);
        } else if (options.deep() && !piecesIntact(repository, name, part)) {
          bad.add(i);
        }
      } catch (RepositoryException ex) {
        markUnreachable(slot, ex);
      }
    }
    if (bad.isEmpty()) {
      return;
    }
    if (options.dryRun()) {
      shards += bad.size();
      return;
    }
    while (!bad.isEmpty()) {
      Set<Integer> unreadable = new TreeSet<>();
      for (int i = 0; i < n; i++) {
        if (unreachable.containsKey(part.slots().get(i))) {
          unreadable.add(i);
        }
      }
      bad.removeAll(unreadable);
      if (bad.isEmpty()) {
        return;
      }
      try {
        ShardRebuilder.Result result =
            ShardRebuilder.rebuild(
                array, context.codec, context.config, part, bad, unreadable, throttle);
        shards += result.shardsRebuilt();
        read += result.bytesRead();
        written += result.bytesWritten();
        return;
      } catch (ShardRebuilder.TargetFailed ex) {
        // That repository failed, not the object: leave it out and rebuild the others.
        markUnreachable(ex.slot(), ex);
      } catch (StoreException ex) {
        failedRepair(version, ex);
        return;
      }
    }
  }

  private Instant graceCutoff() {
    return store.config().clock().instant().minus(store.config().gcGrace());
  }

  private static boolean isInline(VersionMeta version) {
    return version.parts().size() == 1 && version.parts().get(0).inline();
  }

  /**
   * An inline version's records each hold a different shard, so a missing or damaged one is rebuilt
   * from k others rather than copied.
   */
  private void healInline(IndexMerge.Entry e, VersionMeta version) {
    PartMeta part = version.parts().get(0);
    Set<Integer> bad = new TreeSet<>();
    Set<Integer> unreadable = new TreeSet<>();
    for (int i = 0; i < n; i++) {
      int slot = part.slots().get(i);
      if (unreachable.containsKey(slot)) {
        unreadable.add(i);
      } else if (!e.slots().contains(slot)) {
        bad.add(i);
      } else if (options.deep()) {
        Optional<byte[]> stored;
        try {
          stored = RepositoryArray.getBytes(array.slot(slot), e.name());
        } catch (RepositoryException | UncheckedIOException ex) {
          markUnreachable(slot, ex);
          unreadable.add(i);
          continue;
        }
        long length = stored.map(b -> (long) b.length).orElse(0L);
        read += length;
        throttle.consume(length);
        if (stored.isEmpty()
            || Layout.decode(stored.get(), VersionMeta.class).isEmpty()
            || ShardRebuilder.inlineShard(stored.get(), part, k).isEmpty()) {
          bad.add(i);
        }
      }
    }
    if (bad.isEmpty()) {
      return;
    }
    if (options.dryRun()) {
      shards += bad.size();
      records += bad.size();
      return;
    }
    KeyStamps.Registration registration = registerCopies(e); // the records are the entry's copies
    try {
      rebuildInline(e, version, part, bad, unreadable);
    } finally {
      context.leave(registration, unreachable.isEmpty());
    }
  }

  private void rebuildInline(
      IndexMerge.Entry e,
      VersionMeta version,
      PartMeta part,
      Set<Integer> bad,
      Set<Integer> unreadable) {
    while (!bad.isEmpty()) {
      try {
        ShardRebuilder.Result result =
            ShardRebuilder.rebuildInline(array, context.codec, version, e.name(), bad, unreadable);
        shards += result.shardsRebuilt();
        records += result.shardsRebuilt();
        read += result.bytesRead();
        written += result.bytesWritten();
        throttle.consume(result.bytesRead() + result.bytesWritten());
        return;
      } catch (ShardRebuilder.TargetFailed ex) {
        // That repository failed, not the object: leave it out and rebuild the others.
        markUnreachable(ex.slot(), ex);
        for (int i = 0; i < n; i++) {
          if (part.slots().get(i) == ex.slot()) {
            bad.remove(i);
            unreadable.add(i);
          }
        }
      } catch (StoreException ex) {
        failedRepair(version, ex);
        return;
      }
    }
  }

  /** Reads a whole shard object and checks every piece's CRC32C. */
  private boolean piecesIntact(Repository repository, String name, PartMeta part) {
    CRC32C crc = new CRC32C();
    byte[] piece = new byte[part.pieceBytes() + Layout.CRC_BYTES];
    try (InputStream in = repository.get(name)) {
      for (long s = 0; s < part.stripes(k); s++) {
        int length = part.pieceBytes(k, s);
        if (in.readNBytes(piece, 0, length + Layout.CRC_BYTES) < length + Layout.CRC_BYTES) {
          return false;
        }
        read += length + Layout.CRC_BYTES;
        throttle.consume(length);
        crc.reset();
        crc.update(piece, 0, length);
        if ((int) crc.getValue() != ShardRebuilder.readInt(piece, length)) {
          return false;
        }
      }
      return true;
    } catch (IOException | RepositoryException e) {
      return false;
    }
  }

  /** Copies a record to every reachable repository that lacks it. */
  private void replicate(IndexMerge.Entry e) {
    boolean lacking = false;
    for (int slot = 0; slot < n && !lacking; slot++) {
      lacking = !e.slots().contains(slot) && !unreachable.containsKey(slot);
    }
    if (!lacking) {
      return;
    }
    Optional<byte[]> bytes = Optional.empty();
    for (int slot : e.slots()) {
      if (unreachable.containsKey(slot)) {
        continue;
      }
      try {
        bytes = RepositoryArray.getBytes(array.slot(slot), e.name());
      } catch (RuntimeException ex) {
        markUnreachable(slot, ex); // another slot that lists it has a copy
        continue;
      }
      if (bytes.isPresent()) {
        break;
      }
    }
    if (bytes.isEmpty()) {
      return;
    }
    KeyStamps.Registration registration =
        options.dryRun() ? KeyStamps.Registration.NONE : registerCopies(e);
    boolean everywhere = true;
    try {
      for (int slot = 0; slot < n; slot++) {
        if (!e.slots().contains(slot) && !unreachable.containsKey(slot)) {
          if (!options.dryRun()) {
            try {
              RepositoryArray.putBytes(array.slot(slot), e.name(), bytes.get());
            } catch (RuntimeException ex) {
              markUnreachable(slot, ex);
              everywhere = false;
              continue;
            }
            written += bytes.get().length;
          }
          records++;
        }
      }
    } finally {
      context.leave(registration, everywhere);
    }
  }

  /**
   * Registers copies of an index entry about to be written, as any write of a key's entries is
   * ({@link KeyStamps}), when they could change what a reader resolves: an entry on fewer than a
   * write quorum of repositories counted only by those that did not answer, and more copies may
   * make it a version for every reader. One already on a write quorum is a version (or a removal)
   * for every reader, so copying it changes no answer, and a replaced repository refilled with
   * every entry costs ZooKeeper nothing.
   */
  private KeyStamps.Registration registerCopies(IndexMerge.Entry e) {
    return listedOnWriteQuorum(e) ? KeyStamps.Registration.NONE : context.registerWrite(e.name());
  }

  /**
   * Whether the repositories that listed {@code e} number a write quorum, so that it is a version
   * (or a removal that counts) for every reader whichever repositories answer. An entry that counts
   * only through repositories whose listing failed may not count once they answer (it may be what a
   * failed or crashed write left), and then what it hides is current. Heal deletes nothing on the
   * strength of such an entry: that would make the guess final, losing the current version, and no
   * proxy that kept the current answer (docs/coordination.md, the version cache) would hear of it,
   * since deletions do not register.
   */
  private boolean listedOnWriteQuorum(IndexMerge.Entry e) {
    return e.slots().size() >= store.config().writeQuorum();
  }

  private void replicateRecords(String prefix) {
    IndexMerge merge = new IndexMerge(array, prefix, "", 1000);
    for (IndexMerge.Entry e = merge.next(); e != null; e = merge.next()) {
      replicate(e);
    }
  }

  /**
   * Copies the records under {@code prefix} that a write quorum holds to every repository; one on
   * fewer may be what a failed write left, which must not become an answer by being copied.
   */
  private void replicateCommitted(String prefix) {
    IndexMerge merge = new IndexMerge(array, prefix, "", 1000);
    for (IndexMerge.Entry e = merge.next(); e != null; e = merge.next()) {
      if (e.slots().size() >= store.config().writeQuorum()) {
        replicate(e);
      }
    }
  }

  /**
   * Copies the records of a bucket's multipart uploads (upload records, part records, and the marks
   * of uploads given up) to every repository, but not those of an upload given up (aborted or
   * abandoned) while its mark counts: a repository that missed their deletion must not spread them
   * again, or the upload would come back. A mark that counts is copied, so that it stays on a write
   * quorum whichever repositories are lost later; one that does not (a failed abort's) is not, and
   * the upload it names is healed as any other. A mark that counts and is older than the GC grace
   * is collected with whatever of its upload is left ({@link MultipartUploads#collectAbandoned}),
   * so that aborts leave nothing behind also where no scrub runs.
   */
  private void healUploads(String bucket) {
    MultipartUploads uploads = store.uploads();
    IndexMerge merge = new IndexMerge(array, Layout.uploadPrefix(bucket), "", 1000);
    List<MultipartUploads.AbandonedRecord> old = new ArrayList<>();
    // An upload record is copied once the entry after it is known (its mark sorts right after it).
    IndexMerge.Entry record = null;
    String givenUp = null; // the record of the last upload whose mark counts
    for (IndexMerge.Entry e = merge.next(); e != null; e = merge.next()) {
      if (Layout.isRemovalRecord(e.name())) {
        boolean counts = uploads.markCounts(merge, e);
        if (record != null && (!counts || !e.name().equals(Layout.removalRecord(record.name())))) {
          replicate(record);
        }
        record = null;
        if (counts) {
          givenUp = Layout.removedEntry(e.name());
          replicate(e);
          context
              .read(e, MultipartUploads.AbandonedRecord.class)
              .filter(mark -> mark.abandonedMillis() < graceCutoff().toEpochMilli())
              .ifPresent(old::add);
        }
        continue;
      }
      if (record != null) {
        replicate(record);
        record = null;
      }
      if (!Layout.isPartRecord(e.name())) {
        record = e;
      } else if (givenUp == null || !e.name().startsWith(givenUp + "/")) {
        replicate(e);
      }
    }
    if (record != null) {
      replicate(record);
    }
    for (MultipartUploads.AbandonedRecord mark : old) {
      leftovers++;
      if (options.dryRun()) {
        continue;
      }
      try {
        uploads.collectAbandoned(mark);
      } catch (StoreException ex) {
        notDone.add(ex.getMessage());
      }
    }
  }

  private void collectUploadReferences(String bucket) {
    IndexMerge merge = new IndexMerge(array, Layout.uploadPrefix(bucket), "", 1000);
    for (IndexMerge.Entry e = merge.next(); e != null; e = merge.next()) {
      if (Layout.isPartRecord(e.name())) {
        context.read(e, PartRecord.class).ifPresent(r -> referenced.add(r.part().dataId()));
      }
    }
  }

  /**
   * A version's removal record (see {@link VersionRemovals}). One that counts is kept on every
   * repository, so that it stays on a write quorum whichever repositories are lost later, until the
   * version it removes is gone: then it is deleted, once every repository's listing has proved it
   * lacks the version's entry (the entry listed right before the record, and the merge has just
   * passed that place on all {@code n}) and the version is older than the GC grace (a late copy of
   * the entry from its own commit could still land before that). One that does not count is what a
   * removal that failed left behind, collected past the GC grace like a failed write.
   */
  private void healRemoval(IndexMerge merge, IndexMerge.Entry e, String previous) {
    boolean old = VersionId.time(Layout.versionOf(e.name())).isBefore(graceCutoff());
    if (!store.resolver().removalCounts(merge, e)) {
      if (old) {
        discardEverywhere(e.name());
      }
      return;
    }
    boolean entryGone =
        !Layout.removedEntry(e.name()).equals(previous)
            && merge.unprovenSlots().isEmpty()
            && unreachable.isEmpty();
    if (entryGone && old) {
      Optional<VersionMeta> removed = context.read(e, VersionMeta.class);
      removed.ifPresent(version -> store.collector().deleteData(version));
      discardEverywhere(e.name());
      return;
    }
    replicate(e);
  }

  /** Deletes a version its removal record removed: data first, then its entry (durably). */
  private void collectRemoved(IndexMerge.Entry e) {
    leftovers++;
    if (options.dryRun()) {
      return;
    }
    Optional<VersionMeta> meta = context.read(e, VersionMeta.class);
    if (meta.isPresent()) {
      store.collector().deleteRemoved(e.name(), meta.get());
    } else {
      store.collector().removeVersion(e.name(), meta); // no data known: the entry only
    }
  }

  /** Deletes a removal record on every repository that answers. */
  private void discardEverywhere(String name) {
    leftovers++;
    if (options.dryRun()) {
      return;
    }
    array.fanOut(
        (slot, repository) -> {
          repository.delete(name);
          return null;
        });
  }

  /** Deletes a superseded version: data first, then its index entry. */
  private void collectVersion(IndexMerge.Entry e, Optional<VersionMeta> meta) {
    leftovers++;
    if (options.dryRun()) {
      return;
    }
    store.collector().removeVersion(e.name(), meta);
  }

  /**
   * Has every reachable repository remove what crashed writes left inside it (an fs repository's
   * temporary files) past the GC grace.
   */
  private void purgeWriteLeftovers() {
    for (int slot = 0; slot < n; slot++) {
      if (unreachable.containsKey(slot)) {
        continue;
      }
      try {
        leftovers += array.slot(slot).purgeLeftovers(store.config().gcGrace(), options.dryRun());
      } catch (RuntimeException e) {
        markUnreachable(slot, e);
      }
    }
  }

  /** Deletes shard objects no record refers to, once they are older than the GC grace. */
  private void collectLeftovers() {
    Instant cutoff = store.config().clock().instant().minus(store.config().gcGrace());
    for (int slot = 0; slot < n; slot++) {
      Repository repository = array.slot(slot);
      try {
        for (ObjectInfo info : RepositoryArray.listAll(repository, Layout.dataPrefix())) {
          String name = info.key();
          String dataId = Layout.dataIdOfShard(name);
          if (referenced.contains(dataId)) {
            continue;
          }
          if (VersionId.valid(dataId) && VersionId.time(dataId).isAfter(cutoff)) {
            continue; // may belong to a write still running
          }
          if (!options.dryRun()) {
            repository.delete(name);
          }
          leftovers++;
        }
      } catch (RuntimeException e) {
        notDone.add(
            "collect leftovers on slot "
                + slot
                + " ("
                + repository.name()
                + "): "
                + e.getMessage());
      }
    }
  }

  private void progress() {
    long now = System.nanoTime();
    if (now - lastProgress >= Duration.ofSeconds(1).toNanos()) {
      lastProgress = now;
      options
          .progress()
          .accept(
              "heal: "
                  + objects
                  + " objects scanned, "
                  + shards
                  + " shards rebuilt, "
                  + records
                  + " records repaired, "
                  + (read + written) / 1_000_000
                  + " MB moved");
    }
  }

  private String[] readState() {
    Optional<String> saved = options.checkpoint().read();
    if (saved.isEmpty()) {
      return null;
    }
    String[] state = saved.get().split("\t", 2);
    if (state.length == 2) {
      options.progress().accept("heal: resuming in bucket " + state[0]);
      return state;
    }
    return null;
  }

  private void writeState(String bucket, String name) {
    if (!options.dryRun()) {
      options.checkpoint().write(bucket + "\t" + name);
    }
  }

  private void clearState() {
    if (!options.dryRun()) {
      options.checkpoint().clear();
    }
  }
}
