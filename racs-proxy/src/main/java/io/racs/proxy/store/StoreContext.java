package io.racs.proxy.store;

import io.racs.proxy.codec.ErasureCodec;
import io.racs.proxy.codec.Geometry;
import io.racs.repos.Repository;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every part of the store shares: the array and its codec, the configuration, the counters,
 * the array id, the cache of version records, and how keys are named and placed on repositories.
 *
 * <p>Thread-safe: everything here is immutable but the record cache, which synchronises itself.
 */
final class StoreContext {
  private static final Logger LOG = LoggerFactory.getLogger(StoreContext.class);

  final StoreConfig config;
  final Geometry geometry;
  final ErasureCodec codec;
  final RepositoryArray array;
  final StoreStats stats = new StoreStats();
  final String arrayId;
  // Version records read, by index entry name. An entry is written once and never changed, so a
  // cached record is never stale (see VersionCache).
  private final VersionCache records = new VersionCache(16_384);

  StoreContext(StoreConfig config, List<Repository> repositories, String arrayId) {
    this.config = config;
    this.geometry = config.geometry();
    this.codec = ErasureCodec.create(geometry);
    this.array =
        new RepositoryArray(
            repositories,
            config.slowShardTimeout().toNanos(),
            geometry.totalShards() - config.writeQuorum() + 1,
            config.stallGrace().toNanos());
    this.arrayId = arrayId;
  }

  /** The repositories, by slot. */
  List<Repository> repositories() {
    List<Repository> all = new ArrayList<>();
    for (int i = 0; i < array.size(); i++) {
      all.add(array.slot(i));
    }
    return all;
  }

  /** The form of {@code key} in entry names, fitting every repository of the array. */
  String nameKey(String bucket, String key) {
    return Layout.nameKey(
        bucket,
        key,
        name -> {
          if (!Layout.fitsKeyLimit(name)) {
            return false;
          }
          for (int slot = 0; slot < array.size(); slot++) {
            if (!array.slot(slot).accepts(name)) {
              return false;
            }
          }
          return true;
        });
  }

  /** The name of the index entry of one version of a key. */
  String indexEntry(String bucket, String key, String versionId) {
    return Layout.indexEntry(bucket, nameKey(bucket, key), versionId);
  }

  /** Shard i of {@code key} goes to slot (rotation + i) mod n. */
  List<Integer> slotsFor(String bucket, String key) {
    int n = geometry.totalShards();
    int rotation = Layout.rotation(bucket, key, n);
    List<Integer> slots = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      slots.add((rotation + i) % n);
    }
    return slots;
  }

  /** Reads a record listed at {@code e} from any slot that has an intact copy. */
  <T> Optional<T> read(IndexMerge.Entry e, Class<T> type) {
    boolean version = type == VersionMeta.class;
    if (version) {
      VersionMeta cached = records.get(e.name());
      if (cached != null) {
        return Optional.of(type.cast(cached));
      }
    }
    for (int slot : e.slots()) {
      try {
        Optional<byte[]> bytes = RepositoryArray.getBytes(array.slot(slot), e.name());
        if (bytes.isPresent()) {
          Optional<T> record = Layout.decode(bytes.get(), type);
          if (record.isPresent()) {
            if (version) {
              records.put(e.name(), (VersionMeta) record.get());
            }
            return record;
          }
          LOG.warn("damaged record {} on slot {}; using another copy", e.name(), slot);
        }
      } catch (RuntimeException ex) {
        LOG.debug("slot {} could not read {}: {}", slot, e.name(), ex.toString());
      }
    }
    return Optional.empty();
  }

  /** Drops a collected entry's record from the cache. */
  void forget(String entryName) {
    records.remove(entryName);
  }

  /**
   * A listing is only trusted when enough repositories answered that every committed record
   * (written to a write quorum) has a copy among them.
   */
  void requireReadQuorum(IndexMerge merge, String what) {
    int needed = array.size() - config.writeQuorum() + 1;
    if (merge.healthySlots() < needed) {
      throw new StoreException(
          StoreException.Code.INSUFFICIENT_SHARDS,
          what
              + ": "
              + merge.healthySlots()
              + " of "
              + array.size()
              + " repositories answered (need "
              + needed
              + ")",
          merge.failures(),
          null);
    }
  }

  /** Checks an S3 object key: 1-1024 bytes of valid UTF-8 without NUL. */
  static void checkKey(String key) {
    if (key == null || key.isEmpty()) {
      throw new StoreException(
          StoreException.Code.INVALID_ARGUMENT, "key: empty (expected: 1-1024 bytes)");
    }
    if (key.indexOf('\0') >= 0) {
      throw new StoreException(
          StoreException.Code.INVALID_ARGUMENT,
          "key: contains U+0000 (expected: no NUL characters)");
    }
    int bytes = Layout.utf8Length(key);
    if (bytes > 1024) {
      throw new StoreException(
          StoreException.Code.INVALID_ARGUMENT,
          "key: " + bytes + " bytes (expected: at most 1024)");
    }
    for (int i = 0; i < key.length(); i++) {
      char c = key.charAt(i);
      if (Character.isSurrogate(c)
          && !(Character.isHighSurrogate(c)
              && i + 1 < key.length()
              && Character.isLowSurrogate(key.charAt(++i)))) {
        throw new StoreException(
            StoreException.Code.INVALID_ARGUMENT,
            "key: unpaired surrogate (expected: valid UTF-8)");
      }
    }
  }
}
