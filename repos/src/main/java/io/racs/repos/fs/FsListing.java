package io.racs.repos.fs;

import io.racs.repos.KeyCodec;
import io.racs.repos.Keys;
import io.racs.repos.ListPage;
import io.racs.repos.ObjectInfo;
import io.racs.repos.SafeNameRange;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The listing of an {@link FsRepository}: a depth-first walk that sorts each directory by safe name
 * (directories as if followed by {@code /}), which yields keys in UTF-8 binary order since the
 * codec preserves order. See "Listing" in {@link FsRepository}.
 */
final class FsListing {
  private final FsRoot root;
  private final DecodedNames decodedNames = new DecodedNames();

  FsListing(FsRoot root) {
    this.root = root;
  }

  /**
   * Up to {@code maxKeys} objects under {@code base} (the root, just checked) whose keys start with
   * {@code prefix} and sort after {@code startAfter}.
   */
  ListPage list(Path base, String prefix, String startAfter, int maxKeys) {
    SafeNameRange range = SafeNameRange.of(prefix, startAfter);
    Walk walk = new Walk(range, maxKeys + 1, decodedNames);
    try {
      // Every name with the prefix lies under the directories the prefix names in full: start
      // there rather than reading (and sorting) every directory on the way down, which for a
      // prefix like "bucket/key" would mean reading a directory that holds every key.
      Path start = base;
      for (String component : range.startDirectory().split("/")) {
        if (component.isEmpty()) {
          continue;
        }
        start = start.resolve(component);
        BasicFileAttributes attributes;
        try {
          attributes =
              Files.readAttributes(start, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException | NotDirectoryException e) {
          root.path(); // the prefix's directory is missing, not the root
          return new ListPage(List.of(), false);
        }
        if (!attributes.isDirectory()) {
          return new ListPage(List.of(), false); // a planted link or a file: nothing listed
        }
      }
      walk.visit(start, range.startDirectory());
    } catch (IOException e) {
      throw root.translate(e, "list", prefix);
    }
    // The walk takes a vanished directory for an empty one; if that directory was the root, the
    // listing is not empty but unavailable.
    root.path();
    List<ObjectInfo> found = walk.found;
    if (found.size() > maxKeys) {
      return new ListPage(found.subList(0, maxKeys), true);
    }
    return new ListPage(found, false);
  }

  /**
   * The keys of safe names listed lately. A listing decodes every name it returns, and decoding
   * checks that a name is canonical by encoding the key again; the same names come back listing
   * after listing (a bucket's index, listed by every read), so a listing-heavy load spent a third
   * of its CPU there. The mapping never changes, so a remembered key is never wrong; the memory is
   * bounded by forgetting everything once the names and keys held pass {@link #BUDGET_CHARS}.
   */
  private static final class DecodedNames {
    private static final long BUDGET_CHARS = 1 << 20;

    private final Map<String, String> keys = new ConcurrentHashMap<>();
    private final AtomicLong chars = new AtomicLong();

    Optional<String> decode(String name) {
      String known = keys.get(name);
      if (known != null) {
        return Optional.of(known);
      }
      Optional<String> key = KeyCodec.decode(name);
      if (key.isPresent()) {
        if (chars.addAndGet(name.length() + key.get().length()) > BUDGET_CHARS) {
          keys.clear();
          chars.set(0);
        }
        keys.put(name, key.get());
      }
      return key;
    }
  }

  /**
   * The names in {@code directory}, or null when it is gone (or is no longer a directory). {@link
   * java.io.File#list} gives bare names, without a {@link Path} per entry to build and take apart;
   * it answers null for any failure, so a directory stream then tells a vanished directory from a
   * failing one (which throws).
   */
  private static String[] namesIn(Path directory) throws IOException {
    String[] names = directory.toFile().list();
    if (names != null) {
      return names;
    }
    List<String> listed = new ArrayList<>();
    try (DirectoryStream<Path> stream = Files.newDirectoryStream(directory)) {
      for (Path child : stream) {
        listed.add(child.getFileName().toString());
      }
    } catch (NoSuchFileException | NotDirectoryException e) {
      return null;
    }
    return listed.toArray(String[]::new);
  }

  /** One depth-first, sorted walk that collects up to {@code limit} objects. */
  private static final class Walk {
    private final SafeNameRange range;
    private final int limit;
    private final DecodedNames decodedNames;
    private final List<ObjectInfo> found = new ArrayList<>();

    Walk(SafeNameRange range, int limit, DecodedNames decodedNames) {
      this.range = range;
      this.limit = limit;
      this.decodedNames = decodedNames;
    }

    /**
     * A directory's entry: its safe-name path, its file name, and that name as it sorts (a
     * subdirectory's with a {@code /} after it): every entry of one directory shares the path up to
     * the name, so the names alone sort them.
     */
    private record Entry(String sortName, String fileName, String sortTail, boolean file)
        implements Comparable<Entry> {
      @Override
      public int compareTo(Entry other) {
        return Keys.compare(sortTail, other.sortTail);
      }
    }

    /** Visits {@code directory}, whose safe-name path is {@code path} ("" or ending in "/"). */
    void visit(Path directory, String path) throws IOException {
      String[] names = namesIn(directory);
      if (names == null) {
        return; // Removed by a concurrent delete.
      }
      List<Entry> entries = new ArrayList<>(names.length);
      for (String fileName : names) {
        if (fileName.startsWith(".")) {
          continue; // Temporary files and anything else that is not ours.
        }
        // Only what the listing can return goes into the heap: a file in the range, a directory
        // that may hold one.
        if (fileName.endsWith("!")) {
          String sortName = path + fileName;
          if (range.holdsObject(sortName)) {
            entries.add(new Entry(sortName, fileName, fileName, true));
          }
        } else if (fileName.indexOf('.') < 0) {
          String tail = fileName + "/";
          String sortName = path + tail;
          if (range.mayHoldObjects(sortName)) {
            entries.add(new Entry(sortName, fileName, tail, false));
          }
        }
      }
      // In order, taken one by one from a heap (built in linear time) rather than sorted whole: a
      // listing that wants the first name or two of a large directory (a write's ordering listing
      // of a key that has thousands of versions not yet collected) then costs no full sort.
      PriorityQueue<Entry> ordered = new PriorityQueue<>(entries);
      while (!ordered.isEmpty()) {
        Entry entry = ordered.poll();
        if (found.size() >= limit) {
          return;
        }
        // Every entry here is, or may hold, a name the listing returns (filtered above).
        String sortName = entry.sortName;
        Path child = directory.resolve(entry.fileName);
        if (entry.file) {
          Optional<String> key = decodedNames.decode(sortName);
          if (key.isEmpty()) {
            continue;
          }
          BasicFileAttributes attributes = attributesOrNull(child);
          if (attributes != null && attributes.isRegularFile()) {
            found.add(
                ObjectInfo.of(
                    key.get(), attributes.size(), attributes.lastModifiedTime().toInstant()));
          }
        } else {
          BasicFileAttributes attributes = attributesOrNull(child);
          if (attributes != null && attributes.isDirectory()) {
            visit(child, sortName);
          }
        }
      }
    }

    /** The attributes of {@code child}, not following links; null when it is gone meanwhile. */
    private static BasicFileAttributes attributesOrNull(Path child) throws IOException {
      try {
        return Files.readAttributes(child, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      } catch (NoSuchFileException e) {
        return null;
      }
    }
  }
}
