package io.racs.proxy.store.array;

import io.racs.proxy.codec.Geometry;
import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.format.Layout;
import io.racs.repos.Repository;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The identity marker on every repository ({@code racs/identity}: array id, slot, geometry), and
 * the rules by which a repository is admitted to a slot.
 *
 * <ul>
 *   <li>A repository carrying the marker of another array, or of this array in another slot or
 *       geometry, or holding data without a marker, is refused, and the store does not open: these
 *       are configuration mistakes that no wait would mend.
 *   <li>An empty, unmarked repository in a slot of an existing array is <em>adopted</em> as a
 *       replacement (heal then fills it) only when at least k other repositories carry this array's
 *       marker and are not themselves adopted-and-unfilled ({@link Marker#pending()}): they prove
 *       that the array exists and that this slot is the one being replaced. An empty directory is
 *       also what an unmounted disk leaves behind, and adopting it would hide the data on the disk;
 *       the k proving repositories hold every committed object, so whatever was adopted can be
 *       filled. The same rule means no more than m slots are ever adopted and unfilled at once.
 *   <li>An empty repository that is not adopted, and one that does not answer, is kept out of the
 *       array ({@link GuardedRepository#refuse}) with a one-line reason, and written nothing.
 *   <li>A new array is made only on repositories that all answer and are all empty.
 *   <li>The store opens when at least k slots are admitted; with fewer it could serve nothing.
 * </ul>
 */
public final class Identity {
  private static final Logger LOG = LoggerFactory.getLogger(Identity.class);

  /**
   * The marker. {@code pending} marks a repository adopted as a replacement that heal has not yet
   * filled: it takes part in the array but proves nothing to later adoptions.
   */
  public record Marker(
      String arrayId, int slot, String geometry, long createdMillis, boolean pending) {}

  /** What the check decided for one slot: admitted (maybe pending), or refused with a reason. */
  record Standing(boolean admitted, boolean pending, String reason) {
    static Standing member(boolean pending) {
      return new Standing(true, pending, null);
    }

    static Standing refused(String reason) {
      return new Standing(false, false, reason);
    }
  }

  /** The array id and every slot's standing. */
  record Verdict(String arrayId, List<Standing> slots) {}

  /** What heal's adoption did: slots adopted, and slots left out with the reason. */
  public record Adoption(List<Integer> adopted, Map<Integer, String> refused) {}

  private Identity() {}

  /** The marker on {@code repository}, if it has one. */
  static Optional<Marker> readMarker(Repository repository) {
    return RepositoryArray.getBytes(repository, Layout.IDENTITY)
        .map(
            bytes ->
                Layout.decode(bytes, Marker.class)
                    .orElseThrow(
                        () ->
                            new StoreException(
                                StoreException.Code.INCONSISTENT,
                                repository.name() + ": damaged identity marker")));
  }

  /**
   * What the identity marker on {@code repository} says, {@code slot 3 of array X}; empty when it
   * has none. A repository that carries one belongs to an array (live or retired: a retired slot
   * keeps its marker until the mover empties it), so it is never added as a new slot
   * (docs/reshape.md §8).
   *
   * @throws StoreException {@code INCONSISTENT} for a damaged marker
   */
  public static Optional<String> markedAs(Repository repository) {
    return readMarker(repository).map(m -> "slot " + m.slot() + " of array " + m.arrayId());
  }

  /**
   * Whether {@code marker} is this array's marker for {@code slot}. Its geometry is not compared:
   * the store's opening did ({@link #check}), and once an array record names the layout the
   * geometry a marker was written with says nothing (docs/reshape.md §8).
   */
  static boolean belongs(Marker marker, String arrayId, int slot) {
    return marker.arrayId().equals(arrayId) && marker.slot() == slot;
  }

  /**
   * Whether the array on {@code repository} has array records ({@code racs/array/}): then they, not
   * the markers, say the array's geometry, and a marker of another geometry than the file's is no
   * mistake (a reshape recorded it; {@code RecordedLayout} checks the file against it).
   */
  private static boolean layoutRecorded(Repository repository) {
    try {
      return !repository.list(Layout.ARRAY_RECORDS, "", 1).objects().isEmpty();
    } catch (RuntimeException e) {
      return false; // unreadable now: the marker's geometry decides, as without a record
    }
  }

  private static void writeMarker(
      Repository repository, String arrayId, int slot, Geometry geometry, boolean pending) {
    RepositoryArray.putBytes(
        repository,
        Layout.IDENTITY,
        Layout.encode(
            new Marker(arrayId, slot, geometry.toString(), System.currentTimeMillis(), pending)));
  }

  /** What one repository showed at a check. */
  private record Seen(Optional<Marker> marker, boolean empty) {}

  private static Seen look(Repository repository) {
    Optional<Marker> marker = readMarker(repository);
    boolean empty = marker.isEmpty() && repository.list("", "", 1).objects().isEmpty();
    return new Seen(marker, empty);
  }

  /**
   * Checks the markers of {@code repositories} (and, unless {@code readOnly}, adopts or creates);
   * returns the array id and each slot's standing.
   *
   * @throws StoreException {@code INCONSISTENT} for a repository of another array, slot or
   *     geometry, or holding data without a marker; {@code INSUFFICIENT_SHARDS} when fewer than k
   *     slots are admitted, or when no repository has a marker and not all are reachable and empty
   */
  static Verdict check(
      List<Repository> repositories, Geometry geometry, Duration timeout, boolean readOnly) {
    int n = repositories.size();
    int k = geometry.dataShards();
    RepositoryArray array = new RepositoryArray(repositories, timeout.toNanos());
    List<RepositoryArray.Outcome<Seen>> seen;
    try {
      seen = array.fanOut((slot, repository) -> look(repository));
    } finally {
      array.close();
    }
    Map<Integer, String> unreachable = new TreeMap<>();
    Map<String, Integer> ids = new LinkedHashMap<>();
    List<Integer> empty = new ArrayList<>();
    for (RepositoryArray.Outcome<Seen> outcome : seen) {
      int slot = outcome.slot();
      String name = repositories.get(slot).name();
      if (!outcome.ok()) {
        if (outcome.failure() instanceof StoreException se) {
          throw se; // a damaged marker: someone else's data, or ours damaged; either way look
        }
        unreachable.put(
            slot, "unreachable when the store opened: " + outcome.failure().getMessage());
        continue;
      }
      Optional<Marker> marker = outcome.value().marker();
      if (marker.isEmpty()) {
        if (!outcome.value().empty()) {
          throw new StoreException(
              StoreException.Code.INCONSISTENT,
              name
                  + " (slot "
                  + slot
                  + ") holds data but no RACS identity marker; refusing to adopt it");
        }
        empty.add(slot);
        continue;
      }
      Marker m = marker.get();
      if (m.slot() != slot) {
        throw new StoreException(
            StoreException.Code.INCONSISTENT,
            name
                + " is slot "
                + m.slot()
                + " of array "
                + m.arrayId()
                + " but is configured in slot "
                + slot
                + "; refusing to start");
      }
      if (!m.geometry().equals(geometry.toString()) && !layoutRecorded(repositories.get(slot))) {
        throw new StoreException(
            StoreException.Code.INCONSISTENT,
            name
                + " belongs to a "
                + m.geometry()
                + " array, not "
                + geometry
                + "; refusing to start");
      }
      ids.merge(m.arrayId(), 1, Integer::sum);
    }
    if (ids.size() > 1) {
      throw new StoreException(
          StoreException.Code.INCONSISTENT,
          "repositories belong to different arrays " + ids.keySet() + "; refusing to start");
    }

    List<Standing> standings = new ArrayList<>();
    for (int slot = 0; slot < n; slot++) {
      standings.add(null);
    }
    unreachable.forEach((slot, reason) -> standings.set(slot, Standing.refused(reason)));
    String arrayId;
    if (ids.isEmpty()) {
      if (empty.size() < n && !readOnly) {
        throw new StoreException(
            StoreException.Code.INSUFFICIENT_SHARDS,
            "no repository carries a RACS identity marker and only "
                + empty.size()
                + " of "
                + n
                + " answered; a new array is made only when every repository answers and is empty: "
                + describe(repositories, unreachable),
            array.failures(seen),
            null);
      }
      arrayId = UUID.randomUUID().toString();
      for (int slot : empty) {
        if (!readOnly) {
          writeMarker(repositories.get(slot), arrayId, slot, geometry, false);
        }
        standings.set(slot, Standing.member(false));
      }
    } else {
      arrayId = ids.keySet().iterator().next();
      int proving = 0;
      for (RepositoryArray.Outcome<Seen> outcome : seen) {
        if (outcome.ok() && outcome.value().marker().isPresent()) {
          boolean pending = outcome.value().marker().get().pending();
          standings.set(outcome.slot(), Standing.member(pending));
          proving += pending ? 0 : 1;
        }
      }
      for (int slot : empty) {
        String name = repositories.get(slot).name();
        if (readOnly) {
          standings.set(slot, Standing.refused("empty and unmarked: not part of the array"));
        } else if (proving >= k) {
          LOG.warn(
              "slot {} ({}) is empty: adopting it as a replacement; run heal to rebuild it",
              slot,
              name);
          writeMarker(repositories.get(slot), arrayId, slot, geometry, true);
          standings.set(slot, Standing.member(true));
        } else {
          standings.set(slot, Standing.refused(notProven(proving, k)));
        }
      }
    }
    int admitted = 0;
    Map<Integer, String> refused = new TreeMap<>();
    for (int slot = 0; slot < n; slot++) {
      Standing standing = standings.get(slot);
      if (standing.admitted()) {
        admitted++;
      } else {
        refused.put(slot, standing.reason());
      }
    }
    if (admitted < k) {
      // Each slot kept out is named with its reason as a shard failure, so that whoever waits for
      // the array to open (racs server at start-up) can report every slot's state.
      List<StoreException.ShardFailure> failures = new ArrayList<>();
      refused.forEach(
          (slot, reason) ->
              failures.add(
                  new StoreException.ShardFailure(slot, repositories.get(slot).name(), reason)));
      throw new StoreException(
          StoreException.Code.INSUFFICIENT_SHARDS,
          "only "
              + admitted
              + " of "
              + n
              + " repositories can serve array "
              + arrayId
              + " (need "
              + k
              + "):",
          failures,
          null);
    }
    // Only once the store opens: a failed open names every slot kept out in its exception, which
    // racs server logs at each attempt while it waits for the array.
    refused.forEach(
        (slot, reason) ->
            LOG.warn(
                "slot {} ({}) is out of the array: {}",
                slot,
                repositories.get(slot).name(),
                reason));
    return new Verdict(arrayId, List.copyOf(standings));
  }

  private static String notProven(int proving, int k) {
    return "empty and unmarked, but only "
        + proving
        + " repositories carry this array's marker (need "
        + k
        + " to prove the slot is being replaced): not adopted; an unmounted disk?";
  }

  private static String describe(List<Repository> repositories, Map<Integer, String> reasons) {
    List<String> parts = new ArrayList<>();
    reasons.forEach(
        (slot, reason) ->
            parts.add("slot " + slot + " (" + repositories.get(slot).name() + ") " + reason));
    return String.join("; ", parts);
  }

  /**
   * Heal's adoption in a running store, by the rule of {@link #check}: an empty, unmarked slot is
   * adopted when at least k slots carry this array's (unpending) marker, and otherwise kept out
   * with its reason; a kept-out slot whose marker is this array's again is admitted back.
   */
  static Adoption adoptUnmarked(List<GuardedRepository> slots, String arrayId, Geometry geometry) {
    int n = slots.size();
    List<Optional<Seen>> seen = new ArrayList<>();
    int proving = 0;
    for (int slot = 0; slot < n; slot++) {
      GuardedRepository guard = slots.get(slot);
      Optional<Seen> s;
      try {
        s = Optional.of(look(guard.unguarded()));
      } catch (RuntimeException e) {
        LOG.debug("slot {} not looked at: {}", slot, e.toString());
        s = Optional.empty();
      }
      seen.add(s);
      if (s.isPresent()
          && s.get().marker().isPresent()
          && belongs(s.get().marker().get(), arrayId, slot)) {
        Marker marker = s.get().marker().get();
        if (guard.refusal() != null) {
          guard.admit(marker.pending());
          LOG.warn("slot {} ({}) carries this array's marker again", slot, guard.name());
        }
        proving += marker.pending() ? 0 : 1;
      }
    }
    List<Integer> adopted = new ArrayList<>();
    Map<Integer, String> refused = new TreeMap<>();
    for (int slot = 0; slot < n; slot++) {
      if (seen.get(slot).isEmpty()) {
        continue; // unreachable: the guard or heal's probe reports it
      }
      GuardedRepository guard = slots.get(slot);
      Optional<Marker> marker = seen.get(slot).get().marker();
      if (marker.isPresent() && !belongs(marker.get(), arrayId, slot)) {
        String reason =
            "carries the marker of slot "
                + marker.get().slot()
                + " of "
                + marker.get().geometry()
                + " array "
                + marker.get().arrayId()
                + ", not this one's";
        guard.refuse(reason);
        refused.put(slot, reason);
        continue;
      }
      if (marker.isPresent()) {
        continue;
      }
      if (!seen.get(slot).get().empty()) {
        String reason = "holds data but no RACS identity marker";
        guard.refuse(reason);
        refused.put(slot, reason);
        continue;
      }
      if (proving >= geometry.dataShards()) {
        try {
          writeMarker(guard.unguarded(), arrayId, slot, geometry, true);
          guard.admit(true);
          adopted.add(slot);
        } catch (RuntimeException e) {
          refused.put(slot, "could not write its marker: " + e.getMessage());
        }
      } else {
        String reason = notProven(proving, geometry.dataShards());
        guard.refuse(reason);
        refused.put(slot, reason);
      }
    }
    return new Adoption(adopted, refused);
  }

  /** Marks pending slots as filled: heal has rebuilt everything onto them. */
  static void confirm(List<GuardedRepository> slots, String arrayId, Geometry geometry) {
    for (int slot = 0; slot < slots.size(); slot++) {
      GuardedRepository guard = slots.get(slot);
      if (guard.pending() && guard.refusal() == null) {
        writeMarker(guard.unguarded(), arrayId, slot, geometry, false);
        guard.admit(false);
      }
    }
  }
}
