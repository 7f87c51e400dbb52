package io.racs.proxy.store.format;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;

/**
 * The array record ({@code racs/array/<version>}, docs/reshape.md): the layout the array has, and
 * the reshape recorded on it, if any. Records are never changed: each change of state is a new
 * record, and the newest on a write quorum decides. An array without one has never been reshaped.
 *
 * @param format record format version (1)
 * @param arrayId the array it belongs to
 * @param versionId its id, which orders it among the array records ({@link VersionId})
 * @param state where the reshape stands
 * @param from the layout the reshape starts from (the array's layout before it)
 * @param to the layout it moves the array into
 * @param startedMillis when the reshape was started
 * @param rateMegabytesPerSecond the rate the mover is to keep, MB/s (10^6 bytes)
 * @param reason what failed or paused it, one line; null otherwise
 * @param totals what the plan counted to move when the reshape was started; null in records written
 *     before they were kept (remaining work is then unknown)
 * @param phase where the index stands in a reshape that changes the repository set (docs/reshape.md
 *     §4); null when it does not change them, and in records written before phases were kept
 */
public record ArrayRecord(
    int format,
    String arrayId,
    String versionId,
    State state,
    Generation from,
    Generation to,
    long startedMillis,
    double rateMegabytesPerSecond,
    String reason,
    Totals totals,
    @JsonInclude(JsonInclude.Include.NON_NULL) Phase phase) {

  /**
   * Where the index stands while a reshape changes the repository set (docs/reshape.md §4): the
   * store's {@code IndexQuorum} in that phase. Before the first, and without one, the old set
   * alone.
   */
  public enum Phase {
    /** Records written to both sets and acknowledged on both; judged on the old one. */
    JOINT,
    /** Written to both and acknowledged on both; judged on the new one. */
    SWITCHED,
    /** The new set alone. */
    DONE
  }

  /**
   * What {@code racs reshape start} counted to move, by the walk {@code plan} makes: the versions
   * (and delete markers) not in the target layout and their stored bytes (the objects' sizes, as
   * the mover counts its bytes moved).
   *
   * @param versions versions to move
   * @param bytes their stored bytes
   */
  public record Totals(long versions, long bytes) {
    /** Checks that neither is negative. */
    public Totals {
      if (versions < 0 || bytes < 0) {
        throw new IllegalArgumentException(
            "totals: " + versions + " versions, " + bytes + " bytes (expected: >= 0)");
      }
    }
  }

  /** Where a reshape stands. */
  public enum State {
    /** Recorded and not finished: the mover moves versions into {@code to}. */
    RUNNING,
    /** Every version is in {@code to}: the array is {@code to}. */
    COMPLETE,
    /** Given up: the array is {@code from} again. */
    ABORTED,
    /** Stopped on an error ({@code reason}); neither complete nor given up. */
    FAILED
  }

  /**
   * One layout of the array.
   *
   * @param number the generation: 0 for the layout the array was made with, one more per reshape
   * @param geometry {@code DxP}
   * @param repositories the repository in each slot, by name, in placement order
   * @param slots the slot id of each of them (docs/reshape.md §2: stable, never reused); null in
   *     records written before slot ids, where they are the positions {@code 0..n-1}
   * @param nextSlot the lowest slot id the array never gave to a repository, so that no later
   *     layout gives a retired one's id to another; 0 in records written before slot ids, where it
   *     is one past the highest id
   */
  public record Generation(
      int number,
      String geometry,
      List<String> repositories,
      @JsonInclude(JsonInclude.Include.NON_NULL) List<Integer> slots,
      @JsonInclude(JsonInclude.Include.NON_DEFAULT) int nextSlot) {
    /** Copies the lists and checks one slot id per repository. */
    public Generation {
      Objects.requireNonNull(geometry, "geometry");
      repositories = List.copyOf(repositories);
      if (slots != null) {
        slots = List.copyOf(slots);
        if (slots.size() != repositories.size()
            || new HashSet<>(slots).size() != slots.size()
            || slots.stream().anyMatch(id -> id < 0 || (nextSlot > 0 && id >= nextSlot))) {
          throw new IllegalArgumentException(
              "slots: "
                  + slots
                  + " (expected: a distinct slot id below "
                  + (nextSlot > 0 ? nextSlot : "nextSlot")
                  + " for each of "
                  + repositories
                  + ")");
        }
      }
    }

    /** A layout over the slot ids {@code 0..n-1}, as every array had before slot ids. */
    public Generation(int number, String geometry, List<String> repositories) {
      this(number, geometry, repositories, null, 0);
    }

    /** The slot id of each repository, in placement order. */
    public List<Integer> slotIds() {
      if (slots != null) {
        return slots;
      }
      List<Integer> ids = new ArrayList<>();
      for (int i = 0; i < repositories.size(); i++) {
        ids.add(i);
      }
      return ids;
    }

    /** The lowest slot id never given to a repository of the array. */
    public int unusedSlot() {
      int next = nextSlot;
      for (int id : slotIds()) {
        next = Math.max(next, id + 1);
      }
      return next;
    }

    /** The slot id of repository {@code name} in this layout, or -1 when it has none. */
    public int slotOf(String name) {
      int at = repositories.indexOf(name);
      return at < 0 ? -1 : slotIds().get(at);
    }

    /**
     * The layout {@code number} of {@code geometry} over {@code names} (placement order) that
     * follows this one: a repository this one holds keeps its slot id, every other takes the next
     * id never given, so that a retired repository's id is never another's.
     */
    public Generation followedBy(int number, String geometry, List<String> names) {
      List<Integer> ids = new ArrayList<>();
      int next = unusedSlot();
      for (String name : names) {
        int kept = slotOf(name);
        ids.add(kept >= 0 ? kept : next++);
      }
      return new Generation(number, geometry, names, ids, next);
    }

    /** The repositories of this layout that {@code after} does not hold, by name. */
    public List<String> retiredBy(Generation after) {
      return repositories.stream().filter(name -> after.slotOf(name) < 0).toList();
    }

    /** {@code 4x2 over a, b, c, d, e, f}. */
    public String describe() {
      return geometry + " over " + String.join(", ", repositories);
    }

    /**
     * What this layout changes against {@code before} (repository names by slot): the repositories
     * it adds ({@code g (slot 6)}), retires ({@code a}) and moves ({@code b (slot 1 -> 0)}).
     */
    public Change changesFrom(List<String> before) {
      List<String> added = new ArrayList<>();
      List<String> moved = new ArrayList<>();
      for (int slot = 0; slot < repositories.size(); slot++) {
        String name = repositories.get(slot);
        int was = before.indexOf(name);
        if (was < 0) {
          added.add(name + " (slot " + slot + ")");
        } else if (was != slot) {
          moved.add(name + " (slot " + was + " -> " + slot + ")");
        }
      }
      List<String> retired = before.stream().filter(name -> !repositories.contains(name)).toList();
      return new Change(added, retired, moved);
    }
  }

  /**
   * The repositories one layout adds, retires and moves against another, by name.
   *
   * @param added each with its slot in the new layout
   * @param retired those the new layout leaves out
   * @param moved those both hold, each with its slot in either
   */
  public record Change(List<String> added, List<String> retired, List<String> moved) {
    /** Copies the lists. */
    public Change {
      added = List.copyOf(added);
      retired = List.copyOf(retired);
      moved = List.copyOf(moved);
    }

    /** {@code added: g (slot 6); retired: a}, the kinds that are not empty; "" when none is. */
    public String describe() {
      List<String> parts = new ArrayList<>();
      if (!added.isEmpty()) {
        parts.add("added: " + String.join(", ", added));
      }
      if (!retired.isEmpty()) {
        parts.add("retired: " + String.join(", ", retired));
      }
      if (!moved.isEmpty()) {
        parts.add("moved: " + String.join(", ", moved));
      }
      return String.join("; ", parts);
    }
  }

  /** Checks the fields every record needs. */
  public ArrayRecord {
    Objects.requireNonNull(arrayId, "arrayId");
    Objects.requireNonNull(versionId, "versionId");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(from, "from");
    Objects.requireNonNull(to, "to");
  }

  /** This reshape in {@code state} (with {@code reason}), as a new record {@code versionId}. */
  public ArrayRecord next(String versionId, State state, String reason) {
    return with(versionId, state, reason, totals, phase);
  }

  /** This record with {@code totals} (null: unknown). */
  public ArrayRecord withTotals(Totals totals) {
    return with(versionId, state, reason, totals, phase);
  }

  /** This reshape entering {@code phase}, as a new record {@code versionId}. */
  public ArrayRecord inPhase(String versionId, Phase phase) {
    return with(versionId, state, reason, totals, phase);
  }

  /** Whether the reshape changes the repository set (adds or retires a slot id). */
  public boolean changesRepositories() {
    return !new java.util.TreeSet<>(from.slotIds()).equals(new java.util.TreeSet<>(to.slotIds()));
  }

  private ArrayRecord with(
      String versionId, State state, String reason, Totals totals, Phase phase) {
    return new ArrayRecord(
        format,
        arrayId,
        versionId,
        state,
        from,
        to,
        startedMillis,
        rateMegabytesPerSecond,
        reason,
        totals,
        phase);
  }
}
