package io.racs.proxy.store.object;

import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.array.IndexMerge;
import io.racs.proxy.store.array.StoreContext;
import io.racs.proxy.store.commit.NullVersions;
import io.racs.proxy.store.commit.VersionResolver;
import io.racs.proxy.store.format.Layout;
import io.racs.proxy.store.format.VersionId;
import io.racs.proxy.store.format.VersionMeta;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * S3's listing rules over the merged index: keys in UTF-8 binary order, each shown as its current
 * version (as the {@link VersionResolver} decides it), with a prefix, a delimiter that rolls keys
 * up into common prefixes, and pagination after a key or a common prefix.
 *
 * <p>Thread-safe; calls block on repository listings.
 */
public final class Lister {
  private static final int MAX_KEYS = 1000;

  private final StoreContext context;
  private final VersionResolver resolver;

  public Lister(StoreContext context, VersionResolver resolver) {
    this.context = context;
    this.resolver = resolver;
  }

  public ObjectStore.ListResult list(String bucket, ObjectStore.ListRequest request) {
    String prefix = request.prefix() == null ? "" : request.prefix();
    String delimiter =
        request.delimiter() == null || request.delimiter().isEmpty() ? null : request.delimiter();
    int maxKeys = Math.max(0, Math.min(request.maxKeys(), MAX_KEYS));
    if (maxKeys == 0) {
      // S3 answers max-keys=0 with an empty page that is not truncated, whatever the bucket holds.
      return new ObjectStore.ListResult(List.of(), List.of(), false, Optional.empty());
    }
    String indexPrefix = Layout.indexPrefix(bucket);
    String startAfter = request.startAfter() == null ? "" : request.startAfter();
    String seekName = "";
    if (!startAfter.isEmpty()) {
      seekName = afterKey(indexPrefix, startAfter, prefix, delimiter);
    }
    IndexMerge merge = new IndexMerge(context.array, indexPrefix + prefix, seekName, MAX_KEYS);
    List<VersionMeta> objects = new ArrayList<>();
    List<String> prefixes = new ArrayList<>();
    String lastKeyName = null;
    String lastReturned = null;
    boolean truncated = false;
    IndexMerge.Entry e = merge.next();
    while (e != null) {
      String keyName = e.name().substring(0, e.name().lastIndexOf(Layout.SEPARATOR));
      if (keyName.equals(lastKeyName)) {
        e = merge.next(); // an older version of a key already handled
        continue;
      }
      VersionResolver.Judgement judged = resolver.judge(merge, e, null);
      if (judged.standing() == VersionResolver.Standing.NOT_A_VERSION) {
        e = merge.next(); // the key's next entry decides
        continue;
      }
      Optional<VersionMeta> meta = judged.meta();
      if (judged.standing() == VersionResolver.Standing.UNREADABLE) {
        // Collected under this listing, most likely: the key's fresh listing shows what is
        // current now (or fails, rather than leave the key out).
        meta = resolver.newestOfIndexKey(keyName);
      }
      lastKeyName = keyName;
      if (meta.isEmpty() || meta.get().deleteMarker()) {
        e = merge.next();
        continue;
      }
      String key = meta.get().key();
      if (delimiter != null) {
        int at = key.indexOf(delimiter, prefix.length());
        if (at >= 0) {
          String common = key.substring(0, at + delimiter.length());
          if (objects.size() + prefixes.size() >= maxKeys) {
            truncated = true;
            break;
          }
          prefixes.add(common);
          lastReturned = common;
          merge.seek(pastPrefix(indexPrefix, common));
          lastKeyName = null;
          e = merge.next();
          continue;
        }
      }
      if (objects.size() + prefixes.size() >= maxKeys) {
        truncated = true;
        break;
      }
      objects.add(meta.get());
      lastReturned = key;
      e = merge.next();
    }
    context.requireReadQuorum(merge, "list " + bucket);
    return new ObjectStore.ListResult(
        objects,
        prefixes,
        truncated,
        truncated ? Optional.ofNullable(lastReturned) : Optional.empty());
  }

  /**
   * ListObjectVersions: every version and delete marker of each key, newest first, each judged by
   * the one visibility rule; a key's first version is its current one ({@code latest}). A page that
   * continues inside a key ({@code versionIdMarker}) resolves that key's current version again, so
   * that {@code latest} is right even when versions were removed between the pages. An entry whose
   * record no repository can read is looked up again on its own (removed meanwhile, most likely),
   * and {@code INSUFFICIENT_SHARDS} if still unreadable: a listing is never short. Of a key's
   * records flagged as its {@code null} version only the newest is listed ({@link NullVersions}); a
   * page may continue after it ({@code versionIdMarker} {@code null}).
   */
  public ObjectStore.VersionListResult versions(
      String bucket, ObjectStore.VersionListRequest request) {
    String prefix = request.prefix() == null ? "" : request.prefix();
    String delimiter =
        request.delimiter() == null || request.delimiter().isEmpty() ? null : request.delimiter();
    int maxKeys = Math.max(0, Math.min(request.maxKeys(), MAX_KEYS));
    if (maxKeys == 0) {
      return new ObjectStore.VersionListResult(
          List.of(), List.of(), false, Optional.empty(), Optional.empty());
    }
    String indexPrefix = Layout.indexPrefix(bucket);
    String keyMarker = request.keyMarker() == null ? "" : request.keyMarker();
    String idMarker = request.versionIdMarker();
    String seekName = "";
    String resumedKeyName = null;
    Optional<VersionMeta> resumedCurrent = Optional.empty();
    boolean resumedNullSeen = false;
    if (!keyMarker.isEmpty() && ObjectStore.NULL_VERSION.equals(idMarker)) {
      // After the key's null version: its id in the store is looked up, the key's older versions
      // come next, and the null records it superseded stay hidden.
      Optional<VersionMeta> nullVersion = resolver.nullVersion(bucket, keyMarker);
      if (nullVersion.isPresent()) {
        String nameKey = context.nameKey(bucket, keyMarker);
        seekName =
            Layout.removalRecord(Layout.indexEntry(bucket, nameKey, nullVersion.get().versionId()));
        resumedKeyName = indexPrefix + nameKey;
        resumedCurrent = resolver.newest(bucket, keyMarker);
        resumedNullSeen = true;
      } else {
        seekName = afterKey(indexPrefix, keyMarker, prefix, delimiter); // removed since: next key
      }
    } else if (!keyMarker.isEmpty() && idMarker != null && VersionId.valid(idMarker)) {
      // Past the marker's entry and its removal record: the key's older versions come next.
      String nameKey = context.nameKey(bucket, keyMarker);
      seekName = Layout.removalRecord(Layout.indexEntry(bucket, nameKey, idMarker));
      resumedKeyName = indexPrefix + nameKey;
      resumedCurrent = resolver.newest(bucket, keyMarker);
      Optional<VersionMeta> nullVersion = resolver.nullVersion(bucket, keyMarker);
      resumedNullSeen =
          nullVersion.isPresent() && VersionId.newer(nullVersion.get().versionId(), idMarker);
    } else if (!keyMarker.isEmpty()) {
      seekName = afterKey(indexPrefix, keyMarker, prefix, delimiter);
    }
    IndexMerge merge = new IndexMerge(context.array, indexPrefix + prefix, seekName, MAX_KEYS);
    List<ObjectStore.ListedVersion> versions = new ArrayList<>();
    List<String> prefixes = new ArrayList<>();
    String lastKeyName = null;
    boolean latestSeen = false;
    boolean nullSeen = false;
    String nextKey = null;
    String nextId = null;
    boolean truncated = false;
    for (IndexMerge.Entry e = merge.next(); e != null; e = merge.next()) {
      String keyName = e.name().substring(0, e.name().lastIndexOf(Layout.SEPARATOR));
      if (!keyName.equals(lastKeyName)) {
        lastKeyName = keyName;
        latestSeen = false;
        nullSeen = keyName.equals(resumedKeyName) && resumedNullSeen;
      }
      VersionResolver.Judgement judged = resolver.judge(merge, e, null);
      if (judged.standing() == VersionResolver.Standing.NOT_A_VERSION) {
        continue;
      }
      Optional<VersionMeta> meta = judged.meta();
      if (judged.standing() == VersionResolver.Standing.UNREADABLE) {
        meta = resolver.exactEntry(e.versionEntry(), null, "list versions of " + bucket);
        if (meta.isEmpty()) {
          continue; // removed under this listing
        }
      }
      VersionMeta version = meta.get();
      if (!version.key().startsWith(prefix)) {
        continue; // a long key stored under a shortened name that only looked as if it matched
      }
      if (version.nullVersion()) {
        if (nullSeen) {
          continue; // superseded by the key's newer null version, and not yet removed
        }
        nullSeen = true;
      }
      boolean latest;
      if (keyName.equals(resumedKeyName)) {
        latest =
            resumedCurrent.isPresent()
                && resumedCurrent.get().versionId().equals(version.versionId());
      } else {
        latest = !latestSeen;
      }
      latestSeen = true;
      String key = version.key();
      if (delimiter != null) {
        int at = key.indexOf(delimiter, prefix.length());
        if (at >= 0) {
          String common = key.substring(0, at + delimiter.length());
          if (versions.size() + prefixes.size() >= maxKeys) {
            truncated = true;
            break;
          }
          prefixes.add(common);
          nextKey = common;
          nextId = null;
          merge.seek(pastPrefix(indexPrefix, common));
          lastKeyName = null;
          continue;
        }
      }
      if (versions.size() + prefixes.size() >= maxKeys) {
        truncated = true;
        break;
      }
      versions.add(new ObjectStore.ListedVersion(version, latest));
      nextKey = key;
      nextId = version.nullVersion() ? ObjectStore.NULL_VERSION : version.versionId();
    }
    context.requireReadQuorum(merge, "list versions of " + bucket);
    return new ObjectStore.VersionListResult(
        versions,
        prefixes,
        truncated,
        truncated ? Optional.ofNullable(nextKey) : Optional.empty(),
        truncated ? Optional.ofNullable(nextId) : Optional.empty());
  }

  /**
   * True when the bucket holds any version at all, current or not, delete markers included: a
   * versioned bucket holding only those is not empty. Entries that are no version (a write that
   * failed) do not count; fewer than a read quorum of listings throw.
   */
  public boolean anyVersion(String bucket) {
    IndexMerge merge = new IndexMerge(context.array, Layout.indexPrefix(bucket), "", MAX_KEYS);
    boolean found = false;
    for (IndexMerge.Entry e = merge.next(); e != null && !found; e = merge.next()) {
      found = resolver.judge(merge, e, null).standing() != VersionResolver.Standing.NOT_A_VERSION;
    }
    context.requireReadQuorum(merge, "list " + bucket);
    return found;
  }

  /** The index name to list after so that keys after {@code startAfter} come next. */
  private static String afterKey(
      String indexPrefix, String startAfter, String prefix, String delimiter) {
    if (delimiter != null
        && startAfter.startsWith(prefix)
        && startAfter.endsWith(delimiter)
        && startAfter.indexOf(delimiter, prefix.length())
            == startAfter.length() - delimiter.length()) {
      return pastPrefix(indexPrefix, startAfter); // a common prefix: skip all keys under it
    }
    // Every version of startAfter sorts before startAfter + "\0g" (version ids are hex).
    return indexPrefix + startAfter + Layout.SEPARATOR + "g";
  }

  /** An index name after every key that starts with {@code common}. */
  private static String pastPrefix(String indexPrefix, String common) {
    return indexPrefix + common + "\uDBFF\uDFFF"; // U+10FFFF, the largest code point
  }
}
