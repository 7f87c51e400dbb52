package io.racs.proxy.store.commit;

import io.racs.proxy.store.api.StoreConfig;
import io.racs.proxy.store.array.StoreContext;
import io.racs.proxy.store.format.VersionId;
import io.racs.proxy.store.format.VersionMeta;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code null} version of a key in a bucket that keeps versions (versioning enabled or
 * suspended): S3's one version without an id of its own, which a write in a bucket whose versioning
 * is not enabled replaces.
 *
 * <p>The store cannot replace a version in place: every write is a new record with a unique id,
 * ordered by commit ({@code docs/ordering.md}). So a null version is a record flagged {@link
 * VersionMeta#nullVersion()}, and of a key's flagged records that count as versions, the newest is
 * the null version ({@link VersionResolver#nullVersion}); the older ones were superseded by it. A
 * superseded one is no version to any reader (the version listing leaves it out, {@code
 * versionId=null} names the newest), and is removed for good, as a DELETE with its version id
 * removes a version ({@link VersionRemovals}), once the one that superseded it has settled ({@link
 * StoreConfig#settleTime()}): before that, a reader whose listings straddle the new record's commit
 * may still need the old one.
 *
 * <p>In a bucket never versioned every version is flagged and the {@link Collector} deletes the
 * superseded ones as it deletes any superseded version; this class only acts where versions are
 * kept.
 *
 * <p>Thread-safe.
 */
public final class NullVersions {
  private static final Logger LOG = LoggerFactory.getLogger(NullVersions.class);

  private final StoreContext context;
  private final VersionResolver resolver;
  private final VersionRemovals removals;
  private final ExecutorService background;

  public NullVersions(
      StoreContext context,
      VersionResolver resolver,
      VersionRemovals removals,
      ExecutorService background) {
    this.context = context;
    this.resolver = resolver;
    this.removals = removals;
    this.background = background;
  }

  /**
   * Removes the key's null version for good (DELETE with {@code versionId=null}), and with it every
   * older null record it superseded that is not removed yet, oldest first: if a removal fails
   * ({@code INSUFFICIENT_SHARDS}), the null version a reader sees is still the one it saw before.
   * Returns the null version removed, or empty when the key has none (nothing changes).
   */
  public Optional<VersionMeta> remove(String bucket, String key) {
    List<VersionMeta> records = resolver.nullRecords(bucket, key, true);
    for (int i = records.size() - 1; i >= 0; i--) {
      removals.remove(bucket, key, records.get(i).versionId());
    }
    return records.isEmpty() ? Optional.empty() : Optional.of(records.get(0));
  }

  /**
   * After the null record {@code committedVersion} of a key committed in a bucket that keeps
   * versions: once it has settled, removes the older null records it superseded (in the background,
   * or at once when the settle time is zero, as in tests; what fails here is left hidden, and the
   * next null write of the key or a DELETE of its null version removes it).
   */
  public void supersedeLater(String bucket, String key, String committedVersion) {
    long delayNanos = context.config.settleTime().toNanos();
    if (delayNanos == 0) {
      supersede(bucket, key, committedVersion); // settled at once: as the collector does
      return;
    }
    try {
      CompletableFuture.runAsync(
          () -> supersede(bucket, key, committedVersion),
          CompletableFuture.delayedExecutor(delayNanos, TimeUnit.NANOSECONDS, background));
    } catch (RejectedExecutionException e) {
      // Closing: the superseded record stays hidden until the key's next null write.
    }
  }

  /**
   * Removes the null records of a key older than the newest one no newer than {@code
   * committedVersion} (which has settled, so that one is on a write quorum for every reader).
   */
  void supersede(String bucket, String key, String committedVersion) {
    try {
      boolean kept = false;
      for (VersionMeta r : resolver.nullRecords(bucket, key, true)) {
        if (VersionId.newer(r.versionId(), committedVersion)) {
          continue; // a later null write, which has not settled: its own run removes what it hides
        }
        if (!kept) {
          kept = true; // the null version
          continue;
        }
        removals.remove(bucket, key, r.versionId());
      }
    } catch (RuntimeException e) {
      LOG.debug(
          "removing superseded null versions of {}/{} stopped: {}", bucket, key, e.toString());
    }
  }
}
