package io.racs.proxy.store.commit;

import io.racs.proxy.store.array.KeyStamps;
import io.racs.proxy.store.array.StoreContext;
import io.racs.proxy.store.format.Layout;
import io.racs.proxy.store.format.VersionMeta;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Which version of a key is current, for GET and HEAD: from a listing ({@link VersionResolver}),
 * or, with key stamps ({@link KeyStamps}), from the answer of an earlier listing when the key's
 * slot has not changed since.
 *
 * <p>An answer is kept only when it was certain (every repository's listing answered) and the
 * slot's stamp, read before the listing began, was quiet (no write of any key in the slot
 * registered). A later read that finds the very same stamp knows that no write of the key began
 * since that stamp was read, nor was under way then, and that every write that ended before it was
 * in the listing: the kept answer is still the listing's answer, with no repository asked. Any
 * other stamp (a write registered or left, or none readable) lists, as without stamps. A kept
 * answer is also trusted for at most {@link #TRUSTED_FOR}, so that what the stamps cannot see (a
 * write that lands later than its registration was held, docs/coordination.md) is seen within that
 * time.
 *
 * <p>Thread-safe.
 */
public final class CurrentVersions {
  /** How long a kept answer is trusted at most, however its slot's stamp reads. */
  static final Duration TRUSTED_FOR = Duration.ofSeconds(60);

  /** A kept answer: the stamp read before its listing, and when the listing ended. */
  private record Known(KeyStamps.Stamp stamp, Optional<VersionMeta> version, long atNanos) {}

  /**
   * Whose answer: kept by key, not by index prefix, since two keys may share one prefix (a key that
   * is exactly the hashed name of a longer one, {@link Layout#nameKey}), and the listing of one
   * answers for that key alone ({@link VersionResolver#judge}).
   */
  private record Key(String bucket, String key) {}

  private final StoreContext context;
  private final VersionResolver resolver;
  private final Map<Key, Known> known;

  public CurrentVersions(StoreContext context, VersionResolver resolver, int capacity) {
    this.context = context;
    this.resolver = resolver;
    this.known =
        new LinkedHashMap<>(16, 0.75f, true) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<Key, Known> eldest) {
            return size() > capacity;
          }
        };
  }

  /**
   * The key's current version (possibly a delete marker; empty when it has none), as {@link
   * VersionResolver#newest(String, String, Consumer)} answers it. {@code newestListed} hears of the
   * newest entry only when a listing is taken.
   */
  public Optional<VersionMeta> newest(String bucket, String key, Consumer<String> newestListed) {
    String prefix = Layout.indexKeyPrefix(bucket, context.nameKey(bucket, key));
    KeyStamps stamps = context.keyStamps();
    if (stamps == KeyStamps.NONE) {
      // No stamps, nothing kept or looked up: no lock on the data path either. (An answer kept
      // under earlier stamps matches no later stamp: a stamp carries its session's id.)
      return resolver.resolveKey(prefix, bucket, key, newestListed).version();
    }
    Key asked = new Key(bucket, key);
    KeyStamps.Stamp stamp = stamps.stamp(bucket, StoreContext.stampSlot(prefix));
    if (stamp != null && stamp.quiet()) {
      Known k = get(asked);
      if (k != null
          && k.stamp().equals(stamp)
          && System.nanoTime() - k.atNanos() < TRUSTED_FOR.toNanos()) {
        context.stats.stampedReads.increment();
        return k.version();
      }
    }
    VersionResolver.Resolution resolved = resolver.resolveKey(prefix, bucket, key, newestListed);
    synchronized (this) {
      if (stamp != null && stamp.quiet() && resolved.certain()) {
        known.put(asked, new Known(stamp, resolved.version(), System.nanoTime()));
      } else {
        known.remove(asked);
      }
    }
    return resolved.version();
  }

  private synchronized Known get(Key asked) {
    return known.get(asked);
  }

  /** Forgets every kept answer. */
  public synchronized void clear() {
    known.clear();
  }

  /** How many answers are kept. */
  synchronized int size() {
    return known.size();
  }
}
