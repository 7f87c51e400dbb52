package io.racs.proxy.store.array;

import io.racs.proxy.codec.Geometry;
import io.racs.proxy.store.api.StoreConfig;
import io.racs.proxy.store.api.StoreException;
import io.racs.repos.Repository;
import java.util.ArrayList;
import java.util.List;

/**
 * The array's slots as opened: each repository behind its {@link GuardedRepository}, admitted to
 * its slot or kept out by the identity check ({@link Identity}), and the array id they share.
 *
 * <p>The store is opened, and heal adopts and confirms replaced slots, through this class, so that
 * the guards and the identity markers are always judged against the same array id and geometry.
 *
 * <p>Thread-safe: the list is immutable and each guard is thread-safe.
 */
public final class ArraySlots {
  private final String arrayId;
  private final Geometry geometry;
  private final List<GuardedRepository> guards;

  private ArraySlots(String arrayId, Geometry geometry, List<GuardedRepository> guards) {
    this.arrayId = arrayId;
    this.geometry = geometry;
    this.guards = List.copyOf(guards);
  }

  /**
   * Checks every reachable repository's identity marker and puts each behind a guard that admits
   * it, or keeps it out with the check's reason.
   *
   * @param readOnly write no identity marker and tolerate missing or empty repositories, as {@code
   *     racs recover} needs
   * @throws IllegalArgumentException when there is not one repository per slot of the geometry
   * @throws StoreException as {@link Identity#check} does
   */
  public static ArraySlots open(
      StoreConfig config, List<Repository> repositories, boolean readOnly) {
    Geometry geometry = config.geometry();
    if (repositories.size() != geometry.totalShards()) {
      throw new IllegalArgumentException(
          "repositories: "
              + repositories.size()
              + " (expected: "
              + geometry.totalShards()
              + " for "
              + geometry
              + ")");
    }
    Identity.Verdict verdict =
        Identity.check(repositories, geometry, config.slowShardTimeout(), readOnly);
    List<GuardedRepository> guards = new ArrayList<>();
    for (int slot = 0; slot < repositories.size(); slot++) {
      GuardedRepository guard =
          new GuardedRepository(repositories.get(slot), slot, verdict.arrayId());
      Identity.Standing standing = verdict.slots().get(slot);
      if (standing.admitted()) {
        guard.admit(standing.pending());
      } else {
        guard.refuse(standing.reason());
      }
      guards.add(guard);
    }
    return new ArraySlots(verdict.arrayId(), geometry, guards);
  }

  /** The array id (written in every repository's identity marker). */
  public String arrayId() {
    return arrayId;
  }

  /** The slots' guards, by slot. */
  public List<GuardedRepository> guards() {
    return guards;
  }

  /** The guard of one slot. */
  public GuardedRepository get(int slot) {
    return guards.get(slot);
  }

  /** Adopts the empty slots the array can prove are being replaced ({@link Identity}). */
  public Identity.Adoption adoptUnmarked() {
    return Identity.adoptUnmarked(guards, arrayId, geometry);
  }

  /** Marks adopted slots as filled: heal has rebuilt everything onto them. */
  public void confirm() {
    Identity.confirm(guards, arrayId, geometry);
  }
}
