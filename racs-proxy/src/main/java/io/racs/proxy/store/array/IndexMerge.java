package io.racs.proxy.store.array;

import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.format.Layout;
import io.racs.repos.Keys;
import io.racs.repos.ListPage;
import io.racs.repos.ObjectInfo;
import io.racs.repos.Repository;
import java.util.AbstractSet;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;

/**
 * The union of one prefix's names across every reachable repository, in order, each name once, with
 * the slots that hold it: how the store reads its index when some repositories may have missed a
 * write. A repository that fails while listing is left out from then on (its names may be missing,
 * which the others' copies cover).
 *
 * <p>A reader's merge also leaves out a repository that lists much later than a read quorum of
 * others: their listings name every committed record, so the answer does not wait for it. A {@link
 * #whole} merge, for maintenance, waits for every repository instead: heal judges from the slots
 * that listed a name what each repository holds and which entries count, and a repository left out
 * for being slow would look like one that lacks the name (docs/quorum.md).
 *
 * <p>A version's copies in other layouts ({@link Layout#copyEntry}: {@code <vid>-a<gen>}, listed
 * right after the version's own entry) come as one entry: the first of the version's names listed
 * (its own entry, or its oldest copy once that is collected), with the later ones in {@link
 * Entry#copies}. So every reader of the index meets each version once, whatever a reshape's mover
 * has done, and the version's removal record ({@code <vid>-gone}, listed after every copy) is the
 * entry {@link #peek} shows next. Names of other kinds never look like copies, so their listings
 * are as before.
 */
public final class IndexMerge {
  private final RepositoryArray array;
  private final String prefix;
  private final int pageSize;
  private final boolean grouping;
  private final List<Cursor> cursors = new ArrayList<>();
  // The cursors by slot id (null for a slot this merge does not list).
  private final Cursor[] bySlot;
  // The index quorum this merge lists and is judged by, taken once so that one listing has one.
  private final IndexQuorum index;
  // How long the first page's read quorum took to answer; -1 before it did.
  private long quorumNanos = -1;
  // The entry peek() took from the cursors and next() has not returned yet.
  private Entry peeked;
  // Null for a reader's merge; a whole merge's slots left out and failures.
  private final Exclusions exclusions;

  // The name take() returned ahead of its turn, to see whether it was a copy of the one before.
  private Entry taken;

  /**
   * A name and the slots that listed it; for a version's entry, its later copies ({@link
   * Layout#copyEntry}) too, oldest generation first (empty when it has none).
   */
  public record Entry(String name, Set<Integer> slots, List<Entry> copies) {
    public Entry {
      copies = List.copyOf(copies);
    }

    /** A name with no copies. */
    public Entry(String name, Set<Integer> slots) {
      this(name, slots, List.of());
    }

    /** This entry's own name and its copies, oldest generation first. */
    public List<Entry> names() {
      if (copies.isEmpty()) {
        return List.of(this);
      }
      List<Entry> all = new ArrayList<>(copies.size() + 1);
      all.add(new Entry(name, slots));
      all.addAll(copies);
      return all;
    }

    /**
     * The version's own entry name ({@code <vid>}), whether or not it is still listed: the name its
     * removal record is made from.
     */
    public String versionEntry() {
      return Layout.isCopy(name) ? Layout.copiedEntry(name) : name;
    }
  }

  /**
   * The slots a {@link #whole} merge leaves out, and what it tells of a listing that failed. Called
   * on the thread that moves the merge.
   */
  public interface Exclusions {
    /** Whether {@code slot} is not to be listed from the next page on (it failed elsewhere). */
    boolean excluded(int slot);

    /** {@code slot}'s listing failed for {@code cause}; its names from here on are not known. */
    void failed(int slot, String cause);
  }

  /** A reader's merge: a repository that lists far behind a read quorum is left out. */
  public IndexMerge(RepositoryArray array, String prefix, String startAfter, int pageSize) {
    this(array, prefix, startAfter, pageSize, true, null);
  }

  /**
   * A merge that hands out every name on its own, a version's copies too: for a reader that needs
   * only the first name listed, in one page of one name per repository, which grouping would make
   * list a second page to see whether a copy follows.
   */
  public static IndexMerge ungrouped(
      RepositoryArray array, String prefix, String startAfter, int pageSize) {
    return new IndexMerge(array, prefix, startAfter, pageSize, false, null);
  }

  private IndexMerge(
      RepositoryArray array,
      String prefix,
      String startAfter,
      int pageSize,
      boolean grouping,
      Exclusions exclusions) {
    this.grouping = grouping;
    this.array = array;
    this.prefix = prefix;
    this.pageSize = pageSize;
    this.exclusions = exclusions;
    this.index = array.index();
    this.bySlot = new Cursor[array.size()];
    for (int slot : index.listingSlots()) {
      Cursor cursor = new Cursor(slot, startAfter);
      cursors.add(cursor);
      bySlot[slot] = cursor;
    }
  }

  /** The index quorum this merge lists, and its entries are judged, by. */
  public IndexQuorum index() {
    return index;
  }

  /**
   * A merge that waits for every repository's listing, up to the array's timeout, however long
   * after the others it answers; but for the slots {@code exclusions} leaves out, whose listing
   * counts as failed. Each failure is told to {@code exclusions} before any name after it is
   * returned, so a name's slots are then exactly the repositories that hold it among those whose
   * listing is known.
   */
  public static IndexMerge whole(
      RepositoryArray array,
      String prefix,
      String startAfter,
      int pageSize,
      Exclusions exclusions) {
    return new IndexMerge(
        array,
        prefix,
        startAfter,
        pageSize,
        true,
        Objects.requireNonNull(exclusions, "exclusions"));
  }

  /** Starts over after {@code startAfter} (used to skip a whole common prefix). */
  public void seek(String startAfter) {
    peeked = null;
    taken = null;
    for (Cursor cursor : cursors) {
      cursor.reset(startAfter);
    }
  }

  /** The next name in order, or null at the end. */
  public Entry next() {
    if (peeked != null) {
      Entry entry = peeked;
      peeked = null;
      return entry;
    }
    return group();
  }

  /**
   * The name {@link #next} will return, without moving past it; null at the end. A reader looks at
   * it to find the removal record that lists right after a version's entry.
   */
  public Entry peek() {
    if (peeked == null) {
      peeked = group();
    }
    return peeked;
  }

  /** The next name with the copies of the same version that follow it. */
  private Entry group() {
    Entry head = taken != null ? taken : take();
    taken = null;
    if (!grouping || head == null || Layout.isRemovalRecord(head.name())) {
      return head;
    }
    String version = head.versionEntry();
    List<Entry> copies = null;
    while (true) {
      Entry following = take();
      if (following == null
          || !Layout.isCopy(following.name())
          || !Layout.copiedEntry(following.name()).equals(version)) {
        taken = following;
        break;
      }
      if (copies == null) {
        copies = new ArrayList<>(2);
      }
      copies.add(following);
    }
    return copies == null ? head : new Entry(head.name(), head.slots(), copies);
  }

  private Entry take() {
    fillAll();
    String smallest = null;
    for (Cursor cursor : cursors) {
      if (!cursor.failed && !cursor.buffer.isEmpty()) {
        String head = cursor.buffer.peekFirst();
        if (smallest == null || Keys.compare(head, smallest) < 0) { // UTF-8 order, as listed
          smallest = head;
        }
      }
    }
    if (smallest == null) {
      return null;
    }
    BitSet slots = new BitSet(bySlot.length);
    for (Cursor cursor : cursors) {
      if (!cursor.failed
          && !cursor.buffer.isEmpty()
          && cursor.buffer.peekFirst().equals(smallest)) {
        cursor.buffer.pollFirst();
        slots.set(cursor.slot);
      }
    }
    return new Entry(smallest, new SlotSet(slots));
  }

  /**
   * The slots that listed a name, ascending: a set of bits, since every name a listing merges gets
   * one (a tree set of boxed slots cost a listing-heavy load a few per cent of its CPU).
   */
  private static final class SlotSet extends AbstractSet<Integer> {
    private final BitSet bits;
    private final int size;

    SlotSet(BitSet bits) {
      this.bits = bits;
      this.size = bits.cardinality();
    }

    @Override
    public boolean contains(Object o) {
      return o instanceof Integer slot && slot >= 0 && bits.get(slot);
    }

    @Override
    public int size() {
      return size;
    }

    @Override
    public Iterator<Integer> iterator() {
      return new Iterator<>() {
        private int next = bits.nextSetBit(0);

        @Override
        public boolean hasNext() {
          return next >= 0;
        }

        @Override
        public Integer next() {
          if (next < 0) {
            throw new NoSuchElementException();
          }
          int slot = next;
          next = bits.nextSetBit(slot + 1);
          return slot;
        }
      };
    }
  }

  /** Slots whose listing failed, with the cause. */
  public List<StoreException.ShardFailure> failures() {
    List<StoreException.ShardFailure> failures = new ArrayList<>();
    for (Cursor cursor : cursors) {
      if (cursor.failed) {
        failures.add(
            new StoreException.ShardFailure(
                cursor.slot, array.slot(cursor.slot).name(), cursor.cause));
      }
    }
    return failures;
  }

  /**
   * Number of slots still listing whose listing proves what they lack: every slot still listing but
   * one adopted and not yet filled by heal ({@link RepositoryArray#unfilled}), which lacks the
   * entries written before its adoption.
   */
  int healthySlots() {
    int healthy = 0;
    for (Cursor cursor : cursors) {
      healthy += cursor.failed || array.unfilled(cursor.slot) ? 0 : 1;
    }
    return healthy;
  }

  /**
   * The slots still listing whose listing proves what they lack (those {@link #healthySlots}
   * counts), ascending: what {@link IndexQuorum#listingComplete} judges.
   */
  public List<Integer> provenSlots() {
    List<Integer> proven = new ArrayList<>();
    for (Cursor cursor : cursors) {
      if (!cursor.failed && !array.unfilled(cursor.slot)) {
        proven.add(cursor.slot);
      }
    }
    return proven;
  }

  /**
   * The slots whose listing does not prove an entry absent: those whose listing failed, and those
   * adopted and not yet filled.
   */
  public List<Integer> unprovenSlots() {
    List<Integer> unproven = new ArrayList<>();
    for (Cursor cursor : cursors) {
      if (cursor.failed || array.unfilled(cursor.slot)) {
        unproven.add(cursor.slot);
      }
    }
    return unproven;
  }

  private void fillAll() {
    List<Cursor> empty = new ArrayList<>();
    for (Cursor cursor : cursors) {
      if (!cursor.failed && exclusions != null && exclusions.excluded(cursor.slot)) {
        fail(cursor, "left out: it failed earlier");
      } else if (!cursor.failed && cursor.buffer.isEmpty() && !cursor.exhausted) {
        empty.add(cursor);
      }
    }
    if (empty.isEmpty()) {
      return;
    }
    List<Integer> slots = new ArrayList<>();
    for (Cursor cursor : empty) {
      slots.add(cursor.slot);
    }
    int needed;
    long limitNanos;
    if (exclusions != null) {
      needed = empty.size();
      limitNanos = array.timeoutNanos();
    } else {
      // Listings from a read quorum name every committed record, so a slot that answers much later
      // than that quorum is left out (as if it had failed) rather than waited for.
      int unfilled = 0;
      for (Cursor cursor : empty) {
        unfilled += array.unfilled(cursor.slot) ? 1 : 0;
      }
      needed =
          Math.min(
              empty.size(),
              Math.max(1, index.listingQuorum() - (healthySlots() - (empty.size() - unfilled)))
                  + unfilled);
      // A later page may be asked of slots that all stall (the others still have names buffered):
      // they get the stall deadline the earlier pages set, not the absolute timeout.
      limitNanos =
          quorumNanos < 0 ? array.timeoutNanos() : Math.max(array.stallNanos(), 4 * quorumNanos);
    }
    long started = System.nanoTime();
    List<RepositoryArray.Outcome<ListPage>> pages =
        array.fanOutQuorum(
            slots,
            (slot, repository) -> repository.list(prefix, bySlot[slot].after, pageSize),
            needed,
            limitNanos);
    if (quorumNanos < 0 && RepositoryArray.successes(pages) >= needed) {
      quorumNanos = System.nanoTime() - started;
    }
    for (RepositoryArray.Outcome<ListPage> page : pages) {
      Cursor cursor = bySlot[page.slot()];
      if (!page.ok()) {
        fail(cursor, page.cause());
        continue;
      }
      for (ObjectInfo info : page.value().objects()) {
        cursor.buffer.addLast(info.key());
      }
      cursor.exhausted = page.value().nextStartAfter().isEmpty();
      page.value().nextStartAfter().ifPresent(next -> cursor.after = next);
    }
  }

  private void fail(Cursor cursor, String cause) {
    cursor.failed = true;
    cursor.cause = cause;
    if (exclusions != null) {
      exclusions.failed(cursor.slot, cause);
    }
  }

  private final class Cursor {
    final int slot;
    final ArrayDeque<String> buffer = new ArrayDeque<>();
    String after;
    boolean exhausted;
    boolean failed;
    String cause;

    Cursor(int slot, String startAfter) {
      this.slot = slot;
      this.after = startAfter.isEmpty() ? "" : startAfter;
    }

    void reset(String startAfter) {
      buffer.clear();
      after = startAfter;
      exhausted = false;
    }
  }

  /** Exposed for repositories that need a whole listing. */
  public static int maxPage() {
    return Repository.MAX_LIST_PAGE;
  }
}
