package io.racs.proxy.store.reshape;

import io.racs.proxy.codec.Geometry;
import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.array.StoreContext;
import io.racs.proxy.store.format.ArrayRecord;
import io.racs.proxy.store.format.Layout;
import io.racs.proxy.store.format.PartMeta;
import io.racs.proxy.store.format.VersionMeta;
import io.racs.repos.RepositoryException;
import java.util.Optional;

/**
 * Which of the mover's failures are final (docs/reshape.md §5): those no retry can mend, on which
 * the mover marks the array record {@code FAILED} and stops, so that the operator aborts.
 * Everything else is a pause (a slot not usable) or a step retried by the next sweep, as a
 * repository that answers again, frees space or stops timing out mends it.
 *
 * <p>Final are: a target the array cannot hold (its geometry does not parse, or does not have one
 * shard per repository of the layout), and a version whose data is gone: a part of it could not be
 * read, and every repository of the part's slots then answers that fewer than k of its shards exist
 * at all. A repository that does not answer, or shards that exist but failed to read (a timeout, a
 * corrupt piece), make the failure a retried one: they may yet be read.
 */
final class MoveFailures {
  private MoveFailures() {}

  /** Why {@code reshape}'s target cannot be moved into, one line; null when it can. */
  static String refusedTarget(ArrayRecord reshape) {
    ArrayRecord.Generation to = reshape.to();
    Geometry geometry;
    try {
      geometry = Geometry.parse(to.geometry());
    } catch (IllegalArgumentException e) {
      return "the target geometry " + to.geometry() + " is not one: " + e.getMessage();
    }
    if (geometry.totalShards() != to.repositories().size()) {
      return "the target "
          + to.describe()
          + " has "
          + to.repositories().size()
          + " repositories for "
          + geometry.totalShards()
          + " shards (expected: one repository per shard)";
    }
    return null;
  }

  /**
   * Whether the data of {@code meta} is gone, by the part that could not be read: one line naming
   * the version and what is left of the part when fewer than k of its shards exist on repositories
   * that all answered; null when that cannot be shown (then the failure is retried).
   *
   * @param readFrom the index name the version was read from (an inline part's shards are in it)
   */
  static String lost(
      StoreContext context, VersionMeta meta, VersionCopier.Unreadable e, String readFrom) {
    PartMeta part = e.part();
    int k = Geometry.parse(meta.geometry()).dataShards();
    int n = part.slots().size();
    int present = 0;
    for (int i = 0; i < n; i++) {
      String name = part.inline() ? readFrom : Layout.shard(part.dataId(), i);
      Optional<?> found;
      try {
        found = context.array.slot(part.slots().get(i)).head(name);
      } catch (RepositoryException | StoreException unanswered) {
        return null; // a repository that does not answer may still hold it
      }
      if (found.isPresent()) {
        present++;
      }
    }
    if (present >= k) {
      return null; // enough shards exist: a read that failed on the way may succeed later
    }
    return meta.bucket()
        + "/"
        + meta.key()
        + " version "
        + meta.versionId()
        + " cannot be read: "
        + present
        + " of the "
        + n
        + " shards of its part "
        + part.partNumber()
        + " exist (need "
        + k
        + "); abort the reshape (racs reshape abort), then restore or delete the version";
  }
}
