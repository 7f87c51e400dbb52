package io.racs.proxy.testing;

import io.racs.proxy.codec.Geometry;
import io.racs.proxy.crypto.Keyring;
import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.api.StoreConfig;
import io.racs.repos.Repository;
import io.racs.repos.decorator.FaultyRepository;
import io.racs.repos.fs.FsRepository;
import io.racs.repos.memory.MemoryRepository;
import io.racs.testkit.CountingRepository;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.LongSupplier;
import java.util.function.UnaryOperator;

/**
 * The array a test runs an {@link ErasureStore} on, built in one way: a geometry ({@code DxP}),
 * memory repositories {@code mem0..} or fs repositories {@code r0..} under a test directory, the
 * decorators the test scripts faults or counts calls through (applied in the order asked for, the
 * first one nearest the base repositories), and the store's settings. Every setting not given keeps
 * {@link StoreConfig}'s default, so a test states exactly what it changes.
 *
 * <p>The layers stay reachable: {@link #base()} (or {@link #memories()}), {@link #faulty()} and
 * {@link #repositories()}, the list the store sees. {@link #reopen()} opens the store again over
 * the same repositories, as a restarted proxy would.
 */
public final class TestArray implements AutoCloseable {
  private final StoreConfig config;
  private final List<Repository> base;
  private final List<FaultyRepository> faulty;
  private final List<Repository> repositories;
  private ErasureStore store;

  private TestArray(
      StoreConfig config,
      List<Repository> base,
      List<FaultyRepository> faulty,
      List<Repository> repositories) {
    this.config = config;
    this.base = List.copyOf(base);
    this.faulty = List.copyOf(faulty);
    this.repositories = List.copyOf(repositories);
    this.store = ErasureStore.open(config, this.repositories);
  }

  /** An array of {@code geometry} ({@code DxP}, such as {@code 4x2}) with the default settings. */
  public static Builder builder(String geometry) {
    return builder(Geometry.parse(geometry));
  }

  /** {@link #builder(String)} from a parsed geometry. */
  public static Builder builder(Geometry geometry) {
    return new Builder(StoreConfig.builder(geometry), null);
  }

  /** An array whose store has exactly {@code config}; its settings can no longer be changed. */
  public static Builder builder(StoreConfig config) {
    return new Builder(null, Objects.requireNonNull(config, "config"));
  }

  /** The store that is open now (the last one {@link #reopen()} opened). */
  public ErasureStore store() {
    return store;
  }

  /** The settings every store of this array is opened with. */
  public StoreConfig config() {
    return config;
  }

  /** The base repositories, one per slot, under every decorator. */
  public List<Repository> base() {
    return base;
  }

  /** The base repositories of a memory array. */
  public List<MemoryRepository> memories() {
    List<MemoryRepository> memories = new ArrayList<>();
    for (Repository repository : base) {
      if (!(repository instanceof MemoryRepository memory)) {
        throw new IllegalStateException("not a memory array: " + repository);
      }
      memories.add(memory);
    }
    return memories;
  }

  /** The fault injectors {@link Builder#faulty()} put in, one per slot (empty if it was not). */
  public List<FaultyRepository> faulty() {
    return faulty;
  }

  /** The repositories the store sees: the base ones under every decorator asked for. */
  public List<Repository> repositories() {
    return repositories;
  }

  /**
   * Opens the store again over the same repositories, as a restarted proxy would; the previous
   * store is left open, as a proxy that has not yet noticed would be.
   */
  public ErasureStore reopen() {
    return reopen(config);
  }

  /** {@link #reopen()} with other settings (a proxy restarted with a changed configuration). */
  public ErasureStore reopen(StoreConfig settings) {
    store = ErasureStore.open(settings, repositories);
    return store;
  }

  @Override
  public void close() {
    store.close();
  }

  /** How a {@link TestArray} is made; every setting not given keeps {@link StoreConfig}'s. */
  public static final class Builder {
    private final StoreConfig.Builder settings;
    private final StoreConfig fixed;
    private Path fsRoot;
    private List<? extends Repository> given;
    private boolean durable;
    private final List<UnaryOperator<List<Repository>>> layers = new ArrayList<>();
    private int faultyLayer = -1;

    private Builder(StoreConfig.Builder settings, StoreConfig fixed) {
      this.settings = settings;
      this.fixed = fixed;
    }

    private Builder set(UnaryOperator<StoreConfig.Builder> setting) {
      if (settings == null) {
        throw new IllegalStateException("the settings were given whole: " + fixed);
      }
      setting.apply(settings);
      return this;
    }

    /** Stripe block size, as {@link StoreConfig.Builder#blockBytes}. */
    public Builder blockBytes(int bytes) {
      return set(s -> s.blockBytes(bytes));
    }

    /** As {@link StoreConfig.Builder#minPartBytes}. */
    public Builder minPartBytes(long bytes) {
      return set(s -> s.minPartBytes(bytes));
    }

    /** As {@link StoreConfig.Builder#inlineBytes}. */
    public Builder inlineBytes(int bytes) {
      return set(s -> s.inlineBytes(bytes));
    }

    /** As {@link StoreConfig.Builder#writeQuorum}. */
    public Builder writeQuorum(int writeQuorum) {
      return set(s -> s.writeQuorum(writeQuorum));
    }

    /** As {@link StoreConfig.Builder#slowShardTimeout}. */
    public Builder slowShardTimeout(Duration timeout) {
      return set(s -> s.slowShardTimeout(timeout));
    }

    /** As {@link StoreConfig.Builder#stallGrace}. */
    public Builder stallGrace(Duration grace) {
      return set(s -> s.stallGrace(grace));
    }

    /** As {@link StoreConfig.Builder#gcGrace}. */
    public Builder gcGrace(Duration grace) {
      return set(s -> s.gcGrace(grace));
    }

    /** As {@link StoreConfig.Builder#settleTime}. */
    public Builder settleTime(Duration settleTime) {
      return set(s -> s.settleTime(settleTime));
    }

    /**
     * No GC grace and no settle time: superseded versions and their data are collected at once, so
     * that a test can count what is left. Without this the shipped defaults hold.
     */
    public Builder settled() {
      return gcGrace(Duration.ZERO).settleTime(Duration.ZERO);
    }

    /** As {@link StoreConfig.Builder#keys}. */
    public Builder keys(Keyring keys) {
      return set(s -> s.keys(keys));
    }

    /** As {@link StoreConfig.Builder#hedge}. */
    public Builder hedge(StoreConfig.Hedge hedge) {
      return set(s -> s.hedge(hedge));
    }

    /** The store's wall clock, as {@link StoreConfig.Builder#clock}. */
    public Builder clock(Clock clock) {
      return set(s -> s.clock(clock));
    }

    /** The store's monotonic ticker, as {@link StoreConfig.Builder#ticker}. */
    public Builder ticker(LongSupplier ticker) {
      return set(s -> s.ticker(ticker));
    }

    /**
     * Fs repositories {@code r0..} in directories of the same names under {@code dir} (created if
     * missing), without syncs, instead of memory ones.
     */
    public Builder fs(Path dir) {
      return fs(dir, false);
    }

    /** {@link #fs(Path)}, syncing each write if {@code durable}. */
    public Builder fs(Path dir, boolean durable) {
      this.fsRoot = Objects.requireNonNull(dir, "dir");
      this.durable = durable;
      return this;
    }

    /**
     * {@code base} as the base repositories instead of new ones: another store's, as a second proxy
     * over the same array would see them (the decorators asked for are still applied over them).
     */
    public Builder over(List<? extends Repository> base) {
      this.given = List.copyOf(base);
      return this;
    }

    /** Each repository behind a {@link FaultyRepository} of its own, kept in {@link #faulty()}. */
    public Builder faulty() {
      if (faultyLayer >= 0) {
        throw new IllegalStateException("faulty() was already asked for");
      }
      faultyLayer = layers.size();
      return wrap(rs -> rs.stream().<Repository>map(FaultyRepository::new).toList());
    }

    /** Each repository behind a new {@link FaultyRepository} held by {@code gate}. */
    public Builder gated(FaultyRepository.Gate gate) {
      return wrap(rs -> FaultyRepository.gated(rs, gate));
    }

    /** Each repository's calls counted into {@code ledger} under its slot. */
    public Builder counting(CountingRepository.Ledger ledger) {
      return wrap(rs -> CountingRepository.wrap(rs, ledger));
    }

    /** Any other decorator, applied to the whole list of the layers so far. */
    public Builder wrap(UnaryOperator<List<Repository>> layer) {
      layers.add(Objects.requireNonNull(layer, "layer"));
      return this;
    }

    /**
     * Makes the repositories and opens the store over them. A builder may open several arrays
     * (after {@link #over} again, say): each gets settings of the same values.
     */
    public TestArray open() {
      StoreConfig config = fixed != null ? fixed : settings.build();
      List<Repository> base = new ArrayList<>();
      for (int i = 0; i < config.geometry().totalShards(); i++) {
        if (given != null) {
          base.add(given.get(i));
        } else {
          base.add(fsRoot == null ? MemoryRepository.create("mem" + i) : fsRepository(i));
        }
      }
      List<Repository> seen = base;
      List<FaultyRepository> faulty = new ArrayList<>();
      for (int i = 0; i < layers.size(); i++) {
        seen = layers.get(i).apply(seen);
        if (i == faultyLayer) {
          seen.forEach(r -> faulty.add((FaultyRepository) r));
        }
      }
      return new TestArray(config, base, faulty, seen);
    }

    private Repository fsRepository(int slot) {
      try {
        Path root = Files.createDirectories(fsRoot.resolve("r" + slot));
        return FsRepository.builder(root).name("r" + slot).durable(durable).build();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }
}
