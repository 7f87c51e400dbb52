package io.racs.proxy.store.heal;

import io.racs.proxy.store.array.IndexMerge;
import io.racs.proxy.store.format.VersionMeta;
import java.time.Instant;
import java.util.Optional;

/**
 * When the older copies of a version may go (docs/reshape.md §5): once a copy in a newer layout
 * decides the version (it counts and its record reads), is listed on a write quorum, and has
 * settled ({@code settleTime} past when it was moved), as a superseded version goes once the
 * version that superseded it settled: a reader that resolved the older copy before the move may
 * still be reading it until then. Whether its object lock allows the removal is the removal rule's
 * to say ({@code Collector.removeSupersededCopy}). Heal and the reshape's mover both ask here.
 */
public final class SupersededCopies {
  private SupersededCopies() {}

  /**
   * Whether {@code decided}, the name that decided its version with the record {@code meta}, is a
   * copy that replaced the version's older names for good: then they may be collected.
   */
  public static boolean replaceSettled(
      Maintenance store, IndexMerge.Entry decided, Optional<VersionMeta> meta) {
    return meta.isPresent()
        && meta.get().layout() > 0
        && store.context().index().mayCount(decided.slots())
        && !settlesAt(store, meta.get()).isAfter(store.config().clock().instant());
  }

  /** When a copy settles: {@code settleTime} after it was moved. */
  public static Instant settlesAt(Maintenance store, VersionMeta copy) {
    return Instant.ofEpochMilli(copy.movedMillis()).plus(store.config().settleTime());
  }
}
