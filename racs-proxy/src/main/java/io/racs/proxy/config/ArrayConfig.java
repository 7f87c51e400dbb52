package io.racs.proxy.config;

import com.fasterxml.jackson.databind.JsonNode;
import io.racs.proxy.codec.Geometry;
import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.StoreConfig;
import io.racs.repos.Repository;
import io.racs.repos.config.ConfigException;
import io.racs.repos.config.RepositoryConfig;
import io.racs.repos.config.RepositoryConfigLoader;
import io.racs.repos.config.RepositoryFactory;
import io.racs.repos.config.RepositorySetConfig;
import io.racs.repos.config.Units;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
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
 *   gcGrace: 1h              # heal leaves younger unreferenced data alone
 *   inlineSize: 128KiB       # objects this small live in their records (0: never)
 * }</pre>
 *
 * <p>Errors are one line naming the file, the section and the field.
 */
public record ArrayConfig(
    RepositorySetConfig file, StoreConfig store, List<RepositoryConfig> slots) {
  private static final Set<String> FIELDS =
      Set.of(
          "geometry",
          "slots",
          "blockSize",
          "writeQuorum",
          "slowShardTimeout",
          "gcGrace",
          "inlineSize");

  /** Loads and checks {@code path}. */
  public static ArrayConfig load(Path path) {
    return from(RepositoryConfigLoader.create().load(path));
  }

  /** Reads the array section of an already loaded file. */
  public static ArrayConfig from(RepositorySetConfig file) {
    JsonNode array =
        file.section("array")
            .orElseThrow(
                () -> error(file, "", "missing section 'array' (expected: geometry, slots...)"));
    for (Iterator<String> names = array.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      if (!FIELDS.contains(name)) {
        throw error(
            file, name, "unknown field (expected one of " + new java.util.TreeSet<>(FIELDS) + ")");
      }
    }
    Geometry geometry;
    try {
      geometry = Geometry.parse(text(file, array, "geometry").orElse(null));
    } catch (IllegalArgumentException e) {
      throw error(file, "geometry", e.getMessage());
    }
    List<RepositoryConfig> slots = new ArrayList<>();
    JsonNode slotNames = array.get("slots");
    if (slotNames == null) {
      slots.addAll(file.repositories());
    } else {
      if (!slotNames.isArray()) {
        throw error(file, "slots", "expected a list of repository names");
      }
      Set<String> seen = new HashSet<>();
      for (JsonNode name : slotNames) {
        String text = name.asText();
        if (!seen.add(text)) {
          throw error(file, "slots", "repository '" + text + "' named twice");
        }
        slots.add(
            file.repository(text)
                .orElseThrow(() -> error(file, "slots", "no repository named '" + text + "'")));
      }
    }
    if (slots.size() != geometry.totalShards()) {
      throw error(
          file,
          "slots",
          slots.size()
              + " repositories (expected: "
              + geometry.totalShards()
              + " for "
              + geometry
              + ")");
    }
    StoreConfig.Builder builder = StoreConfig.builder(geometry);
    text(file, array, "blockSize")
        .ifPresent(t -> builder.blockBytes((int) size(file, "blockSize", t, 1L << 30)));
    text(file, array, "writeQuorum")
        .ifPresent(
            t -> {
              try {
                builder.writeQuorum(Integer.parseInt(t));
              } catch (NumberFormatException e) {
                throw error(file, "writeQuorum", "expected a whole number, got '" + t + "'");
              }
            });
    text(file, array, "slowShardTimeout")
        .ifPresent(t -> builder.slowShardTimeout(duration(file, "slowShardTimeout", t)));
    text(file, array, "gcGrace").ifPresent(t -> builder.gcGrace(duration(file, "gcGrace", t)));
    text(file, array, "inlineSize")
        .ifPresent(
            t ->
                builder.inlineBytes(
                    t.trim().equals("0") ? 0 : (int) size(file, "inlineSize", t, 1L << 30)));
    StoreConfig store;
    try {
      store = builder.build();
    } catch (IllegalArgumentException e) {
      throw error(file, "", e.getMessage());
    }
    return new ArrayConfig(file, store, List.copyOf(slots));
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

  private static Optional<String> text(RepositorySetConfig file, JsonNode array, String field) {
    JsonNode node = array.get(field);
    if (node == null || node.isNull()) {
      return Optional.empty();
    }
    if (!node.isValueNode()) {
      throw error(file, field, "expected a value");
    }
    return Optional.of(node.asText());
  }

  private static long size(RepositorySetConfig file, String field, String text, long max) {
    OptionalLong bytes = Units.size(text);
    if (bytes.isEmpty() || bytes.getAsLong() < 1 || bytes.getAsLong() > max) {
      throw error(file, field, "expected a size such as 1MiB (at most 1GiB), got '" + text + "'");
    }
    return bytes.getAsLong();
  }

  private static Duration duration(RepositorySetConfig file, String field, String text) {
    return Units.duration(text)
        .orElseThrow(
            () -> error(file, field, "expected a duration such as 30s, got '" + text + "'"));
  }

  private static ConfigException error(RepositorySetConfig file, String field, String problem) {
    return new ConfigException(
        file.source()
            + ": array"
            + (field.isEmpty() ? "" : ": field '" + field + "'")
            + ": "
            + problem);
  }
}
