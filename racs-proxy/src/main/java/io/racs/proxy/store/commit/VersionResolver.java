package io.racs.proxy.store.commit;

import io.racs.proxy.store.api.StoreConfig;
import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.array.IndexMerge;
import io.racs.proxy.store.array.IndexQuorum;
import io.racs.proxy.store.array.KeyStamps;
import io.racs.proxy.store.array.StoreContext;
import io.racs.proxy.store.format.Layout;
import io.racs.proxy.store.format.VersionMeta;
import io.racs.proxy.store.object.ObjectWrites;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * The one visibility rule: which version of a key GET, HEAD, DELETE, LIST and heal see.
 *
 * <p>A key's index entries list newest first. An entry is written only once its data is on a write
 * quorum, and a commit that reaches fewer repositories than the write quorum removes its entry
 * again; but a removal cannot reach a repository that stalled or went away (a stalled one may even
 * take the entry after the removal), nor can a crashed proxy remove anything, so an entry may
 * outlive a write that failed, and a write still committing has an entry on too few repositories
 * for a while. Neither is a version, and neither may hide the one before it: an entry is a version
 * only if it could have reached a write quorum, that is, if the repositories that list it together
 * with those whose listing proves nothing (a listing that failed, or a slot adopted and not yet
 * filled, which lacks older entries) number at least the write quorum. The first entry that is a
 * version decides the key: it is the current version (a delete marker hides the key).
 *
 * <p>A version removed by a DELETE with its version id has a removal record listed right after its
 * entry ({@link Layout#removalRecord}); the same rule decides whether that record counts, and an
 * entry whose removal counts is no version ({@link #removed}). A removal record is never a version
 * itself.
 *
 * <p>A committed version keeps its entries on a write quorum until the version that superseded it
 * has settled ({@link StoreConfig#settleTime()}), so a reader whose listings straddle a commit,
 * some taken before it and some after, finds the new version on enough of them or the old one.
 *
 * <p>The answer must never be stale and never "no such key" by mistake, so:
 *
 * <ul>
 *   <li>An answer that rests on fewer than a read quorum of repositories' listings is {@code
 *       INSUFFICIENT_SHARDS} (a 503 that clients retry), found or not: a newer version may sit on
 *       the repositories that did not answer.
 *   <li>When the newest entry's record cannot be read from any repository that lists it, the key is
 *       resolved again from a fresh listing: a collector (this proxy's or another's) removes a
 *       superseded version's record only after a newer version committed, and the fresh listing
 *       shows that one. If the record is still unreadable after {@link #ATTEMPTS} listings, the
 *       answer is {@code INSUFFICIENT_SHARDS}: never the older version, never a key left out.
 * </ul>
 *
 * <p>Thread-safe; calls block on repository listings.
 */
public final class VersionResolver {
  /** Listings tried before an unreadable newest record is reported. */
  public static final int ATTEMPTS = 3;

  /** What one index entry is to a reader. */
  public enum Standing {
    /** A committed version (or delete marker): it decides its key. */
    VERSION,
    /** Not a version of the key asked for (an uncommitted inline write): the next entry decides. */
    NOT_A_VERSION,
    /** Its record could not be read from any repository that lists it. */
    UNREADABLE
  }

  /**
   * An entry judged: its standing, unless unreadable its record, and which of the version's names
   * decided ({@code decided}: its own entry or a copy in another layout; null when none counts).
   */
  public record Judgement(
      Standing standing, Optional<VersionMeta> meta, IndexMerge.Entry decided) {}

  private final StoreContext context;

  public VersionResolver(StoreContext context) {
    this.context = context;
  }

  /**
   * Judges one index entry met in {@code merge}. With {@code key} null any key's entry counts (a
   * listing, or heal, which meet keys only through their entries).
   *
   * <p>An entry is one version with its copies in other layouts ({@link IndexMerge.Entry#copies},
   * written by a reshape's mover): the version is judged once, by the newest-generation name that
   * counts (one a write quorum could hold) and whose record can be read; an older copy that counts
   * serves when a newer one's record cannot be read, since both hold the version's bytes. The
   * version's removal record removes every copy.
   */
  public Judgement judge(IndexMerge merge, IndexMerge.Entry e, String key) {
    if (Layout.isRemovalRecord(e.name()) || removed(merge, e)) {
      return new Judgement(Standing.NOT_A_VERSION, Optional.empty(), null); // its record unread
    }
    List<IndexMerge.Entry> names = e.names();
    IndexMerge.Entry decided = null;
    Optional<VersionMeta> meta = Optional.empty();
    for (int i = names.size() - 1; i >= 0; i--) {
      IndexMerge.Entry name = names.get(i);
      if (belowWriteQuorum(merge, name)) {
        continue;
      }
      Optional<VersionMeta> read = context.read(name, VersionMeta.class);
      if (decided == null || read.isPresent()) {
        decided = name;
        meta = read;
      }
      if (read.isPresent()) {
        break;
      }
    }
    if (decided == null) {
      // Its record may be gone with its write.
      return new Judgement(Standing.NOT_A_VERSION, context.read(e, VersionMeta.class), null);
    }
    if (meta.isEmpty()) {
      return new Judgement(Standing.UNREADABLE, meta, decided);
    }
    if (key != null && !meta.get().key().equals(key)) {
      return new Judgement(Standing.NOT_A_VERSION, meta, null);
    }
    return new Judgement(Standing.VERSION, meta, decided);
  }

  /**
   * Whether the version entry {@code e} was removed (a DELETE with its version id): its removal
   * record, which lists right after it and its copies, counts by the same rule as a version, that
   * is, if a write quorum could hold it. A removal acknowledged is on a write quorum, so every read
   * quorum of listings meets it on at least one repository, and the repositories that list it
   * together with those whose listing proves nothing then number at least the write quorum: the
   * removed version stays removed however few of its own entries the collector has deleted yet, and
   * whichever repositories are unavailable. A removal that failed (on fewer repositories, rolled
   * back) counts no more than a failed write does.
   */
  public boolean removed(IndexMerge merge, IndexMerge.Entry e) {
    if (Layout.isRemovalRecord(e.name())) {
      return false;
    }
    IndexMerge.Entry next = merge.peek();
    return next != null
        && next.name().equals(Layout.removalRecord(e.versionEntry()))
        && !belowWriteQuorum(merge, next);
  }

  /**
   * Whether a removal record counts (see {@link #removed}): heal keeps and spreads one that does,
   * and collects one that does not once it is past the GC grace, like a write that failed.
   */
  public boolean removalCounts(IndexMerge merge, IndexMerge.Entry removal) {
    return !belowWriteQuorum(merge, removal);
  }

  /**
   * Whether one name of a version (its own entry, or one copy: {@link IndexMerge.Entry#names})
   * counts: a write quorum could hold it.
   */
  public boolean counts(IndexMerge merge, IndexMerge.Entry name) {
    return !belowWriteQuorum(merge, name);
  }

  /** Whether any name of a version (its own entry or a copy) could be on a write quorum. */
  private boolean anyCounts(IndexMerge merge, IndexMerge.Entry e) {
    for (IndexMerge.Entry name : e.names()) {
      if (!belowWriteQuorum(merge, name)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether an entry is on fewer repositories than the write quorum, even counting every one that
   * might hold it unseen: a write that failed, or one still committing.
   */
  private boolean belowWriteQuorum(IndexMerge merge, IndexMerge.Entry e) {
    return !merge.index().mayCount(possibleHolders(merge, e));
  }

  /**
   * The slot ids of the repositories that list an entry, and of those whose listing does not prove
   * they lack it: what {@link IndexQuorum#mayCount} judges (counting those within its deciding
   * set).
   */
  public static Collection<Integer> possibleHolders(IndexMerge merge, IndexMerge.Entry e) {
    List<Integer> unproven = merge.unprovenSlots();
    if (unproven.isEmpty()) {
      return e.slots();
    }
    Set<Integer> possible = new TreeSet<>(e.slots());
    possible.addAll(unproven);
    return possible;
  }

  /** The current version of a key (possibly a delete marker), if it has one. */
  public Optional<VersionMeta> newest(String bucket, String key) {
    return newest(bucket, key, listed -> {});
  }

  /**
   * As {@link #newest(String, String)}, and hands {@code newestListed} the version id of the first
   * entry its first listing named (committed or not; null when it named none), so that a write that
   * must know the key's current version and be ordered after it ({@link CommitOrder}) lists the key
   * once for both. The listing begins when this is called, and an answer is returned only when it
   * reached a read quorum, which is what the ordering needs.
   */
  public Optional<VersionMeta> newest(String bucket, String key, Consumer<String> newestListed) {
    return resolve(
            Layout.indexKeyPrefix(bucket, context.nameKey(bucket, key)),
            key,
            bucket + "/" + key,
            newestListed)
        .version();
  }

  /**
   * A key's current version as {@link #newest(String, String, Consumer)} resolves it, and whether
   * the answer is certain: every repository's listing answered (none failed, none is an adopted
   * slot still filling), so that the version decided on a write quorum of actual copies and every
   * newer entry passed over is on fewer than a write quorum of them. Only the entries of writes
   * still under way, or of failed ones landing late, can change such an answer; a write registers
   * for as long as either may happen ({@link KeyStamps}).
   */
  Resolution resolveKey(
      String indexKeyPrefix, String bucket, String key, Consumer<String> newestListed) {
    return resolve(indexKeyPrefix, key, bucket + "/" + key, newestListed);
  }

  /** A key's resolved current version (empty: none) and whether it is certain. */
  record Resolution(Optional<VersionMeta> version, boolean certain) {}

  /**
   * Whether a key may have a live current version, judged from its listing alone: whether the
   * listing names an entry that counts as a version by the rule above (not removed, and on enough
   * repositories that a write quorum could hold it). Whether that version is a delete marker would
   * take its record, which this does not read (it answers from the records this store has read
   * before, if it holds that one, and otherwise assumes the version is live): a plain DELETE needs
   * to know only whether there may be anything to hide, and writes its marker right after this
   * listing ({@link ObjectWrites#delete}). Hands {@code newestListed} the version id of the first
   * entry named, as {@link #newest(String, String, Consumer)} does, so that the listing orders the
   * marker too. An entry a write left on too few repositories, or one still committing, does not
   * count, so a key with nothing else answers false, exactly as {@link #newest} answers empty for
   * it; an entry that counts answers true even when its record could not be read (the marker then
   * hides it, which is what the DELETE asked for), where {@link #newest} would list again. The
   * answer needs a read quorum of listings, as every answer of this class does.
   */
  public boolean listsVersionToHide(String bucket, String key, Consumer<String> newestListed) {
    IndexMerge merge =
        new IndexMerge(
            context.array, Layout.indexKeyPrefix(bucket, context.nameKey(bucket, key)), "", 10);
    IndexMerge.Entry first = merge.next();
    newestListed.accept(first == null ? null : Layout.versionOf(first.name()));
    IndexMerge.Entry current = null;
    for (IndexMerge.Entry e = first; e != null; e = merge.next()) {
      if (!Layout.isRemovalRecord(e.name()) && !removed(merge, e) && anyCounts(merge, e)) {
        current = e;
        break; // no further entry is listed: a page more could cost a round trip
      }
    }
    context.requireReadQuorum(merge, "read " + bucket + "/" + key);
    if (current == null) {
      return false;
    }
    // A marker already hides the key only if it is on a write quorum for sure: one that counts
    // because repositories did not answer (a DELETE that failed while they stalled) may turn out
    // not to count once they answer, and the version under it is current again; skipping the
    // marker then lost an acknowledged DELETE (MinioFaultsIT met it with m + 1 servers stopped).
    for (IndexMerge.Entry name : current.names()) {
      Optional<VersionMeta> known = context.cachedVersion(name.name());
      if (known.isPresent()
          && known.get().key().equals(key)
          && known.get().deleteMarker()
          && merge.index().mayCount(name.slots())) {
        return false;
      }
    }
    return true;
  }

  /**
   * Exactly the version {@code versionId} of a key (possibly a delete marker), judged by the same
   * rule as the current one: its entry counts only if a write quorum could hold it, and the answer,
   * found or not, needs a read quorum of listings. A record unreadable on every repository that
   * lists it is looked up again (it may have been deleted meanwhile), then {@code
   * INSUFFICIENT_SHARDS}.
   */
  public Optional<VersionMeta> exact(String bucket, String key, String versionId) {
    String entry = context.indexEntry(bucket, key, versionId);
    return exactEntry(entry, key, "read " + bucket + "/" + key + " version " + versionId);
  }

  /**
   * The version whose index entry is {@code entry}, judged from a fresh listing as {@link #exact}
   * judges it; with {@code key} null a version of any key counts (a listing of versions meets keys
   * only through their entries).
   */
  public Optional<VersionMeta> exactEntry(String entry, String key, String what) {
    for (int attempt = 1; ; attempt++) {
      IndexMerge merge = new IndexMerge(context.array, entry, "", 10);
      Judgement judged = null;
      IndexMerge.Entry found = null;
      for (IndexMerge.Entry e = merge.next(); e != null; e = merge.next()) {
        if (e.versionEntry().equals(entry)) {
          found = e;
          judged = judge(merge, e, key);
          break;
        }
      }
      context.requireReadQuorum(merge, what);
      if (found == null || judged.standing() == Standing.NOT_A_VERSION) {
        return Optional.empty();
      }
      if (judged.standing() == Standing.VERSION) {
        return judged.meta();
      }
      if (attempt == ATTEMPTS) {
        throw new StoreException(
            StoreException.Code.INSUFFICIENT_SHARDS,
            what
                + ": its record cannot be read from any of the "
                + found.slots().size()
                + " repositories that list it",
            merge.failures(),
            null);
      }
    }
  }

  /**
   * The copy of {@code copy}'s version in an older layout than {@code copy}'s that counts and whose
   * record can be read, newest generation first (the version's own entry is generation 0); empty
   * when there is none, or when the version was removed. A read whose copy's data cannot be read (a
   * move half collected, too many of its slots down) reads this one: the same bytes.
   */
  public Optional<VersionMeta> olderCopy(VersionMeta copy) {
    if (copy.layout() == 0) {
      return Optional.empty();
    }
    String entry = context.indexEntry(copy.bucket(), copy.key(), copy.versionId());
    IndexMerge merge = new IndexMerge(context.array, entry, "", 10);
    Optional<VersionMeta> older = Optional.empty();
    for (IndexMerge.Entry e = merge.next(); e != null; e = merge.next()) {
      if (!e.versionEntry().equals(entry)
          || Layout.isRemovalRecord(e.name())
          || removed(merge, e)) {
        continue;
      }
      List<IndexMerge.Entry> names = e.names();
      for (int i = names.size() - 1; i >= 0 && older.isEmpty(); i--) {
        IndexMerge.Entry name = names.get(i);
        int generation = Layout.isCopy(name.name()) ? Layout.copyGeneration(name.name()) : 0;
        if (generation < copy.layout() && counts(merge, name)) {
          older = context.read(name, VersionMeta.class).filter(m -> m.key().equals(copy.key()));
        }
      }
    }
    context.requireReadQuorum(merge, "read " + copy.bucket() + "/" + copy.key());
    return older;
  }

  /**
   * The key's {@code null} version (possibly a delete marker): of its versions flagged {@link
   * VersionMeta#nullVersion()}, judged by the same rule as the current one, the newest. Older ones
   * were superseded by it (a write in a bucket whose versioning was not enabled replaces the null
   * version) and are no version of the key to any reader, though their records may still be listed
   * until they are removed ({@link NullVersions}).
   */
  public Optional<VersionMeta> nullVersion(String bucket, String key) {
    List<VersionMeta> found = nullRecords(bucket, key, false);
    return found.isEmpty() ? Optional.empty() : Optional.of(found.get(0));
  }

  /**
   * The versions of a key flagged {@link VersionMeta#nullVersion()} that count as versions, newest
   * first (only the first unless {@code all}). An entry whose record no repository can read could
   * be one of them, so the key is listed again, and after {@link #ATTEMPTS} listings the answer is
   * {@code INSUFFICIENT_SHARDS}; so is an answer that rests on fewer than a read quorum.
   */
  List<VersionMeta> nullRecords(String bucket, String key, boolean all) {
    String what = "read " + bucket + "/" + key + " null version";
    for (int attempt = 1; ; attempt++) {
      IndexMerge merge =
          new IndexMerge(
              context.array, Layout.indexKeyPrefix(bucket, context.nameKey(bucket, key)), "", 10);
      List<VersionMeta> found = new ArrayList<>();
      IndexMerge.Entry unreadable = null;
      for (IndexMerge.Entry e = merge.next(); e != null; e = merge.next()) {
        Judgement judged = judge(merge, e, key);
        if (judged.standing() == Standing.UNREADABLE) {
          unreadable = e;
          break;
        }
        if (judged.standing() == Standing.VERSION && judged.meta().get().nullVersion()) {
          found.add(judged.meta().get());
          if (!all) {
            break;
          }
        }
      }
      context.requireReadQuorum(merge, what);
      if (unreadable == null) {
        return found;
      }
      if (attempt == ATTEMPTS) {
        throw new StoreException(
            StoreException.Code.INSUFFICIENT_SHARDS,
            what
                + ": the record of version "
                + Layout.versionOf(unreadable.name())
                + " cannot be read from any of the "
                + unreadable.slots().size()
                + " repositories that list it",
            merge.failures(),
            null);
      }
    }
  }

  /**
   * The current version of the key whose entries are named {@code keyName} + a version id (the
   * index name of a key as a listing meets it), resolved from a fresh listing.
   */
  public Optional<VersionMeta> newestOfIndexKey(String keyName) {
    return resolve(keyName + Layout.KEY_END, null, "list", listed -> {}).version();
  }

  private Resolution resolve(
      String entryPrefix, String key, String what, Consumer<String> newestListed) {
    for (int attempt = 1; ; attempt++) {
      IndexMerge merge = new IndexMerge(context.array, entryPrefix, "", 10);
      IndexMerge.Entry unreadable = null;
      IndexMerge.Entry first = merge.next();
      if (attempt == 1) {
        newestListed.accept(first == null ? null : Layout.versionOf(first.name()));
      }
      for (IndexMerge.Entry e = first; e != null; e = merge.next()) {
        Judgement judged = judge(merge, e, key);
        if (judged.standing() == Standing.VERSION) {
          context.requireReadQuorum(merge, "read " + what);
          return new Resolution(judged.meta(), merge.unprovenSlots().isEmpty());
        }
        if (judged.standing() == Standing.UNREADABLE) {
          unreadable = e;
          break;
        }
      }
      context.requireReadQuorum(merge, "read " + what);
      if (unreadable == null) {
        return new Resolution(Optional.empty(), merge.unprovenSlots().isEmpty());
      }
      if (attempt == ATTEMPTS) {
        throw new StoreException(
            StoreException.Code.INSUFFICIENT_SHARDS,
            "read "
                + what
                + ": the record of version "
                + Layout.versionOf(unreadable.name())
                + " cannot be read from any of the "
                + unreadable.slots().size()
                + " repositories that list it",
            merge.failures(),
            null);
      }
    }
  }
}
