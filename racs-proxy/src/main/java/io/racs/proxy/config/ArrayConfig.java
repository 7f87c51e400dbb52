package io.racs.proxy.config;

import io.racs.proxy.codec.Geometry;
import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.api.StoreConfig;
import io.racs.repos.Repository;
import io.racs.repos.config.ConfigSection;
import io.racs.repos.config.RepositoryConfig;
import io.racs.repos.config.RepositoryConfigLoader;
import io.racs.repos.config.RepositoryFactory;
import io.racs.repos.config.RepositorySetConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The {@code array:} section of a RACS configuration file: how the repositories of the file form an
 * erasure-coded array. The proxy, {@code racs heal} and {@code racs recover} read it; the {@code
 * repositories:} section beside it is racs-repos' own.
 *
 * <pre>{@code
 * array:
 *   geometry: 4x2            # data x parity; the array needs exactly d + p repositories
 *   slots: [a, b, c, d, e, f]   # repository names in slot order (default: all, in file order)
 *   blockSize: 1MiB          # data bytes per stripe
 *   writeQuorum: 4           # default max(d, p + 1)
 *   slowShardTimeout: 30s    # a repository this slow counts as failed for the operation
 *   stallGrace: 1s           # a repository this far behind its peers counts as stalled
 *   gcGrace: 1h              # heal leaves younger unreferenced data alone
 *   inlineSize: 128KiB       # objects this small live in their records (0: never)
 *   hedge:                   # reads ask one more repository when one is late (StoreConfig.Hedge)
 *     enabled: true          # default true
 *     percentile: 95         # late: past this percentile of the repository's recent latency
 *     minDelay: 2ms          # never hedge sooner than this
 *     maxDelay: 250ms        # never wait longer than this by the repository's own history
 * }</pre>
 *
 * <p>Errors are one line naming the file, the section and the field.
 */
public record ArrayConfig(
    RepositorySetConfig file, StoreConfig store, List<RepositoryConfig> slots) {
  /** The fields of the section, as written. */
  private record Section(
      String geometry,
      List<String> slots,
      String blockSize,
      Integer writeQuorum,
      String slowShardTimeout,
      String stallGrace,
      String gcGrace,
      String inlineSize,
      Hedge hedge) {}

  /** The {@code hedge:} mapping of the section. */
  private record Hedge(Boolean enabled, String percentile, String minDelay, String maxDelay) {}

  private static final String SIZE = "a size such as 1MiB (at most 1GiB)";

  /** Loads and checks {@code path}. */
  public static ArrayConfig load(Path path) {
    return from(RepositoryConfigLoader.create().load(path));
  }

  /** Reads the array section of an already loaded file. */
  public static ArrayConfig from(RepositorySetConfig file) {
    ConfigSection section = file.configSection("array");
    if (section.node() == null) {
      throw section.error("", "missing section 'array' (expected: geometry, slots...)");
    }
    Section array = section.bind(Section.class);
    Geometry geometry;
    try {
      geometry = Geometry.parse(array.geometry());
    } catch (IllegalArgumentException e) {
      throw section.error("geometry", e.getMessage());
    }
    List<RepositoryConfig> slots = new ArrayList<>();
    if (array.slots() == null) {
      slots.addAll(file.repositories());
    } else {
      Set<String> seen = new HashSet<>();
      for (String name : array.slots()) {
        if (!seen.add(name)) {
          throw section.error("slots", "repository '" + name + "' named twice");
        }
        slots.add(
            file.repository(name)
                .orElseThrow(() -> section.error("slots", "no repository named '" + name + "'")));
      }
    }
    if (slots.size() != geometry.totalShards()) {
      throw section.error(
          "slots",
          slots.size()
              + " repositories (expected: "
              + geometry.totalShards()
              + " for "
              + geometry
              + ")");
    }
    StoreConfig.Builder builder = StoreConfig.builder(geometry);
    section
        .size("blockSize", array.blockSize(), 1, 1L << 30, SIZE)
        .ifPresent(bytes -> builder.blockBytes((int) bytes));
    if (array.writeQuorum() != null) {
      builder.writeQuorum(array.writeQuorum());
    }
    section
        .duration("slowShardTimeout", array.slowShardTimeout(), "30s")
        .ifPresent(builder::slowShardTimeout);
    section.duration("stallGrace", array.stallGrace(), "1s").ifPresent(builder::stallGrace);
    section.duration("gcGrace", array.gcGrace(), "30s").ifPresent(builder::gcGrace);
    if (array.inlineSize() != null) {
      // 0 turns inlining off; any other size must be a real one.
      builder.inlineBytes(
          array.inlineSize().trim().equals("0")
              ? 0
              : (int)
                  section.size("inlineSize", array.inlineSize(), 1, 1L << 30, SIZE).orElseThrow());
    }
    builder.hedge(hedge(section, array.hedge()));
    builder.keys(EncryptionConfig.from(file).keys());
    StoreConfig store;
    try {
      store = builder.build();
    } catch (IllegalArgumentException e) {
      throw section.error("", e.getMessage());
    }
    return new ArrayConfig(file, store, List.copyOf(slots));
  }

  /** The hedge settings, each absent one at its default. */
  private static StoreConfig.Hedge hedge(ConfigSection section, Hedge hedge) {
    StoreConfig.Hedge defaults = StoreConfig.Hedge.DEFAULT;
    if (hedge == null) {
      return defaults;
    }
    double percentile = defaults.percentile();
    if (hedge.percentile() != null) {
      try {
        percentile = Double.parseDouble(hedge.percentile().trim());
      } catch (NumberFormatException e) {
        percentile = Double.NaN;
      }
      if (!(percentile >= 50 && percentile <= 99.9)) {
        throw section.error(
            "hedge.percentile",
            "expected a percentile from 50 to 99.9, got '" + hedge.percentile() + "'");
      }
    }
    var minDelay =
        section.duration("hedge.minDelay", hedge.minDelay(), "2ms").orElse(defaults.minDelay());
    var maxDelay =
        section.duration("hedge.maxDelay", hedge.maxDelay(), "250ms").orElse(defaults.maxDelay());
    if (maxDelay.compareTo(minDelay) < 0) {
      throw section.error(
          "hedge.maxDelay",
          "expected at least hedge.minDelay (" + minDelay + "), got '" + hedge.maxDelay() + "'");
    }
    return new StoreConfig.Hedge(
        hedge.enabled() == null || hedge.enabled(), percentile, minDelay, maxDelay);
  }

  /** Builds the repositories, in slot order. */
  public List<Repository> openRepositories() {
    List<Repository> repositories = new ArrayList<>();
    for (RepositoryConfig slot : slots) {
      repositories.add(RepositoryFactory.create(slot));
    }
    return repositories;
  }

  /** Opens the store (checking identity markers, adopting empty slots). */
  public ErasureStore open() {
    return ErasureStore.open(store, openRepositories());
  }

  /** Opens the store without writing anything, as recovery does. */
  public ErasureStore openReadOnly() {
    return ErasureStore.openReadOnly(store, openRepositories());
  }

  /** Opens the store read-only whatever layout the array record names ({@code reshape status}). */
  public ErasureStore inspect() {
    return ErasureStore.inspect(store, openRepositories());
  }
}
