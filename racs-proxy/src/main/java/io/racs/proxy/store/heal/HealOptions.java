package io.racs.proxy.store.heal;

import java.nio.file.Path;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/** What to heal and how. Immutable; build with {@link #builder()}. */
public final class HealOptions {

  private final String bucket;
  private final boolean dryRun;
  private final boolean deep;
  private final double megabytesPerSecond;
  private final Path stateFile;
  private final HealCheckpoint checkpoint;
  private final BooleanSupplier stop;
  private final Consumer<String> progress;

  private HealOptions(Builder builder) {
    this.bucket = builder.bucket;
    this.dryRun = builder.dryRun;
    this.deep = builder.deep;
    this.megabytesPerSecond = builder.megabytesPerSecond;
    this.stateFile = builder.stateFile;
    this.checkpoint =
        builder.checkpoint != null
            ? builder.checkpoint
            : builder.stateFile != null
                ? HealCheckpoint.inFile(builder.stateFile)
                : HealCheckpoint.NONE;
    this.stop = builder.stop;
    this.progress = builder.progress;
  }

  /** Everything, repairing, with no limit and no output. */
  public static HealOptions defaults() {
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
  public HealCheckpoint checkpoint() {
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

  /** Builds {@link HealOptions}; every setting starts as in {@link #defaults()}. */
  public static final class Builder {
    private String bucket;
    private boolean dryRun;
    private boolean deep;
    private double megabytesPerSecond;
    private Path stateFile;
    private HealCheckpoint checkpoint;
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
     * background scrub of several proxies keeps it in ZooKeeper, so that another proxy resumes it);
     * null, in the state file if one is set.
     */
    public Builder checkpoint(HealCheckpoint checkpoint) {
      this.checkpoint = checkpoint;
      return this;
    }

    /**
     * Asked before each object (and each bucket): once it answers true, heal stops there, collects
     * nothing, keeps its checkpoint and reports itself {@link HealReport#stopped()}. The background
     * scrub stops so when its proxy loses the leadership of the proxies.
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
    public HealOptions build() {
      return new HealOptions(this);
    }
  }
}
