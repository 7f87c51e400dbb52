package io.racs.proxy.store.array;

import io.racs.proxy.store.commit.CurrentVersions;
import io.racs.proxy.store.format.VersionMeta;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A bounded map of version records, least recently used out first. The store keeps two: the records
 * it read, by index entry name, and the version each key had when last served (a hint, which the
 * listing confirms or overrides). An index entry is written once and never changed (every mutation
 * writes a new version under a new, unique name), so a cached record can never be stale: it is
 * either the record under that name or the name is gone, in which case no listing offers it any
 * more. This saves a repository read per GET of a key read before; finding which version is newest
 * still takes a listing, unless {@link CurrentVersions} may answer from an earlier one.
 *
 * <p>Thread-safe; least recently used entries go first once {@code capacity} is reached.
 */
public final class VersionCache {
  private final Map<String, VersionMeta> entries;

  public VersionCache(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity: " + capacity + " (expected: >= 1)");
    }
    this.entries =
        new LinkedHashMap<>(16, 0.75f, true) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<String, VersionMeta> eldest) {
            return size() > capacity;
          }
        };
  }

  public synchronized VersionMeta get(String entryName) {
    return entries.get(entryName);
  }

  public synchronized void put(String entryName, VersionMeta meta) {
    entries.put(entryName, meta);
  }

  public synchronized void remove(String entryName) {
    entries.remove(entryName);
  }

  public synchronized void clear() {
    entries.clear();
  }

  synchronized int size() {
    return entries.size();
  }
}
