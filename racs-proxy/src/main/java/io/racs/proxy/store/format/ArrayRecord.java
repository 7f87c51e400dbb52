package io.racs.proxy.store.format;

import java.util.ArrayList;
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
    Totals totals) {

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
   * @param repositories the repository in each slot, by name
   */
  public record Generation(int number, String geometry, List<String> repositories) {
    /** Copies the list. */
    public Generation {
      Objects.requireNonNull(geometry, "geometry");
      repositories = List.copyOf(repositories);
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
    return with(versionId, state, reason, totals);
  }

  /** This record with {@code totals} (null: unknown). */
  public ArrayRecord withTotals(Totals totals) {
    return with(versionId, state, reason, totals);
  }

  private ArrayRecord with(String versionId, State state, String reason, Totals totals) {
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
        totals);
  }
}
