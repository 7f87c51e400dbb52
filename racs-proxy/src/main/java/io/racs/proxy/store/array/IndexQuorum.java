package io.racs.proxy.store.array;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;

/**
 * The one place that says how records ({@code i/}, {@code u/}, {@code b/}, {@code racs/array/} and
 * every other name on every repository of the array) are written and judged (docs/reshape.md §4):
 * on which slots they are written, when a write is acknowledged, from which copies one may count,
 * and which answering slots make a listing complete. Data quorums are not here: a version's shards
 * count on its own layout's write quorum ({@code PartWriter}).
 *
 * <p>Records live on an <em>index set</em>: the slot ids of a layout. While a reshape changes the
 * repositories, the array has two, {@code I_old} and {@code I_new}, each with its own write quorum
 * ({@code wq}) and read quorum ({@code rq = |I| - wq + 1}), and a {@link Phase}:
 *
 * <table>
 *   <caption>Where records go and when they count, per phase</caption>
 *   <tr><th>phase</th><th>written to</th><th>acknowledged on</th><th>counts, and a listing needs,
 *       on</th></tr>
 *   <tr><td>OLD</td><td>I_old</td><td>wq_old of I_old</td><td>I_old</td></tr>
 *   <tr><td>JOINT</td><td>I_old ∪ I_new</td><td>wq_old of I_old and wq_new of I_new</td>
 *       <td>I_old (I_new's answers merged)</td></tr>
 *   <tr><td>SWITCHED</td><td>I_old ∪ I_new</td><td>both, as in JOINT</td><td>I_new</td></tr>
 *   <tr><td>DONE</td><td>I_new</td><td>wq_new of I_new</td><td>I_new</td></tr>
 * </table>
 *
 * <p>The set a record is judged on is the <em>deciding</em> set: a record counts when the slots
 * that may hold it include the deciding set's write quorum, and a listing is complete when the
 * deciding set's read quorum answered. Counts are always of holders <em>within</em> a set, never a
 * bare number: a record on four slots of which two are of the other set is on two of this one.
 * Adjacent phases meet: a JOINT writer writes both sets on both quorums, so a SWITCHED reader
 * (deciding I_new) sees its writes, and a SWITCHED writer does the same for a JOINT reader.
 *
 * <p>Immutable and thread-safe.
 */
public final class IndexQuorum {
  /** Where a reshape of the repository set stands, as the index sees it. */
  public enum Phase {
    /** No change of the repository set: one index set, the array's slots. */
    OLD,
    /** Written to both sets and acknowledged on both; judged on the old one. */
    JOINT,
    /** Written to both sets and acknowledged on both; judged on the new one. */
    SWITCHED,
    /** The new set alone. */
    DONE
  }

  private final Phase phase;
  private final IndexSet old;
  private final IndexSet next;

  /** One index set: its slot ids (ascending, distinct) and its write quorum. */
  private record IndexSet(List<Integer> ids, int writeQuorum) {
    IndexSet {
      TreeSet<Integer> sorted = new TreeSet<>(ids);
      if (sorted.size() != ids.size() || (!sorted.isEmpty() && sorted.first() < 0)) {
        throw new IllegalArgumentException(
            "slots: " + ids + " (expected: distinct slot ids, none below 0)");
      }
      if (writeQuorum < 1 || writeQuorum > ids.size()) {
        throw new IllegalArgumentException(
            "writeQuorum: " + writeQuorum + " (expected: 1 to " + ids.size() + ")");
      }
      ids = List.copyOf(sorted);
    }

    int readQuorum() {
      return ids.size() - writeQuorum + 1;
    }

    int tolerated() {
      return ids.size() - writeQuorum;
    }

    int within(Collection<Integer> slots) {
      int in = 0;
      for (int slot : slots) {
        in += ids.contains(slot) ? 1 : 0;
      }
      return in;
    }

    @Override
    public String toString() {
      return writeQuorum + " of " + ids;
    }
  }

  private IndexQuorum(Phase phase, IndexSet old, IndexSet next) {
    this.phase = phase;
    this.old = old;
    this.next = next;
  }

  /**
   * The index quorum of an array of {@code slots} slots (ids {@code 0..slots-1}) in phase {@link
   * Phase#OLD}, that acknowledges a write on {@code writeQuorum} of them.
   *
   * @throws IllegalArgumentException when {@code writeQuorum} is not from 1 to {@code slots}
   */
  public IndexQuorum(int slots, int writeQuorum) {
    this(Phase.OLD, new IndexSet(firstIds(slots), writeQuorum), null);
  }

  /** Phase {@link Phase#OLD} over the slot ids {@code ids}. */
  public static IndexQuorum of(List<Integer> ids, int writeQuorum) {
    return new IndexQuorum(Phase.OLD, new IndexSet(ids, writeQuorum), null);
  }

  /**
   * A reshape of the repository set in {@code phase}, from the index set {@code oldIds} (write
   * quorum {@code oldWriteQuorum}) to {@code newIds} ({@code newWriteQuorum}).
   *
   * @throws IllegalArgumentException for {@link Phase#OLD} (it has one set: {@link #of}), or a set
   *     or quorum that does not fit
   */
  public static IndexQuorum joint(
      Phase phase,
      List<Integer> oldIds,
      int oldWriteQuorum,
      List<Integer> newIds,
      int newWriteQuorum) {
    if (phase == Phase.OLD) {
      throw new IllegalArgumentException("phase: OLD (expected: JOINT, SWITCHED or DONE)");
    }
    return new IndexQuorum(
        phase, new IndexSet(oldIds, oldWriteQuorum), new IndexSet(newIds, newWriteQuorum));
  }

  private static List<Integer> firstIds(int slots) {
    List<Integer> ids = new ArrayList<>();
    for (int i = 0; i < slots; i++) {
      ids.add(i);
    }
    return ids;
  }

  /** The phase. */
  public Phase phase() {
    return phase;
  }

  /** The set records are judged on: the old one until {@link Phase#SWITCHED}. */
  private IndexSet deciding() {
    return phase == Phase.SWITCHED || phase == Phase.DONE ? next : old;
  }

  /** Whether records are written to both sets. */
  private boolean both() {
    return phase == Phase.JOINT || phase == Phase.SWITCHED;
  }

  /** The slot ids records are written to, ascending: the phase's index set, or both. */
  public List<Integer> writeSlots() {
    if (phase == Phase.OLD) {
      return old.ids();
    }
    if (phase == Phase.DONE) {
      return next.ids();
    }
    TreeSet<Integer> union = new TreeSet<>(old.ids());
    union.addAll(next.ids());
    return List.copyOf(union);
  }

  /** The slot ids a listing asks: where records are written. */
  public List<Integer> listingSlots() {
    return writeSlots();
  }

  /** The slot ids records are judged on ({@link #mayCount}, {@link #listingComplete}). */
  public List<Integer> decidingSlots() {
    return deciding().ids();
  }

  /** How many slots records are written to. */
  public int slots() {
    return writeSlots().size();
  }

  /**
   * Whether a record written successfully on {@code written} (slot ids) is acknowledged: on the
   * write quorum of each set the phase writes.
   */
  public boolean acknowledged(Collection<Integer> written) {
    return switch (phase) {
      case OLD -> old.within(written) >= old.writeQuorum();
      case DONE -> next.within(written) >= next.writeQuorum();
      case JOINT, SWITCHED ->
          old.within(written) >= old.writeQuorum() && next.within(written) >= next.writeQuorum();
    };
  }

  /**
   * How many successes among {@link #writeSlots} make a write acknowledged whichever slots they
   * are: the slots less the failures both sets tolerate. A fan-out waits for that many before it
   * stops waiting for stalled slots; {@link #acknowledged} is the answer. With one set it is the
   * set's write quorum.
   */
  public int writeQuorum() {
    return slots() - tolerated();
  }

  /**
   * How many of {@link #writeSlots} may fail a record's write while it still is acknowledged,
   * whichever they are.
   */
  public int tolerated() {
    return both() ? Math.min(old.tolerated(), next.tolerated()) : deciding().tolerated();
  }

  /**
   * Whether a record that may be on {@code holders} (slot ids: those that list it and those whose
   * listing does not prove it absent) may have been acknowledged, so counts: it may be on the
   * deciding set's write quorum. Fewer is what a failed write leaves.
   */
  public boolean mayCount(Collection<Integer> holders) {
    IndexSet deciding = deciding();
    return deciding.within(holders) >= deciding.writeQuorum();
  }

  /** The deciding set's read quorum: how many of its slots a complete listing needs. */
  public int readQuorum() {
    return deciding().readQuorum();
  }

  /**
   * How many answering slots among {@link #listingSlots} are sure to include the deciding set's
   * read quorum, whichever they are: what a listing waits for before it stops waiting for slow
   * ones. With one set it is that set's read quorum.
   */
  public int listingQuorum() {
    return readQuorum() + listingSlots().size() - deciding().ids().size();
  }

  /**
   * Whether listings answered by {@code answered} (slot ids whose listing proves what they lack)
   * are sure to name every acknowledged record: they include the deciding set's read quorum.
   */
  public boolean listingComplete(Collection<Integer> answered) {
    IndexSet deciding = deciding();
    return deciding.within(answered) >= deciding.readQuorum();
  }

  @Override
  public String toString() {
    if (next == null) {
      return phase + ": " + old + " (listings need " + readQuorum() + ")";
    }
    return phase
        + ": old "
        + old
        + ", new "
        + next
        + " (judged on the "
        + (deciding() == old ? "old" : "new")
        + " set; listings need "
        + readQuorum()
        + " of it)";
  }
}
