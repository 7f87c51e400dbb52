package io.racs.proxy.store.heal;

import io.racs.proxy.store.array.IndexMerge;
import io.racs.proxy.store.format.VersionMeta;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Heal's care of a version's copies in other layouts, which a reshape's mover writes
 * (docs/reshape.md §3, §6): of a version's names the resolver's deciding one is healed as the
 * version, and each other one is superseded or a leftover.
 *
 * <ul>
 *   <li>An older copy under the deciding one is superseded: it goes (data, then record) once the
 *       deciding copy is listed on a write quorum and has settled ({@code settleTime} past its
 *       {@link VersionMeta#movedMillis}), as a superseded version goes once its successor settled,
 *       and only if the removal rule allows it for a copy replaced by a committed copy of the same
 *       version. Until then its data is referenced.
 *   <li>A newer copy that does not count is a move that failed or is still committing: it is
 *       collected past the GC grace counted from when it was moved, and referenced until then.
 * </ul>
 */
final class CopyHeal {
  private final HealRun run;

  CopyHeal(HealRun run) {
    this.run = run;
  }

  /**
   * Settles the names of {@code version} other than {@code decided}, whose record is {@code
   * decidedMeta} (empty when unreadable: then nothing is collected); older copies go only if the
   * deciding one is {@code whole} (heal rebuilt whatever it lacked).
   */
  void others(
      IndexMerge merge,
      IndexMerge.Entry version,
      IndexMerge.Entry decided,
      Optional<VersionMeta> decidedMeta,
      boolean whole) {
    List<IndexMerge.Entry> names = version.names();
    if (names.size() < 2) {
      return;
    }
    int at = 0;
    while (at < names.size() && !names.get(at).name().equals(decided.name())) {
      at++;
    }
    boolean settled = whole && SupersededCopies.replaceSettled(run.store, decided, decidedMeta);
    for (int i = 0; i < names.size(); i++) {
      IndexMerge.Entry name = names.get(i);
      if (i == at) {
        continue;
      }
      Optional<VersionMeta> meta = run.context.read(name, VersionMeta.class);
      boolean collect;
      if (i < at) {
        collect = settled && meta.isPresent();
      } else {
        collect =
            !run.store.resolver().counts(merge, name)
                && meta.isPresent()
                && Instant.ofEpochMilli(meta.get().movedMillis()).isBefore(run.graceCutoff());
      }
      if (!collect) {
        meta.ifPresent(m -> m.parts().forEach(part -> run.referenced.add(part.dataId())));
        continue;
      }
      run.leftovers++;
      if (!run.options.dryRun()) {
        run.store.collector().removeSupersededCopy(name.name(), meta.get());
      }
    }
  }
}
