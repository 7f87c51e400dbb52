package io.racs.repos.sftp;

import io.racs.repos.KeyCodec;
import io.racs.repos.Keys;
import io.racs.repos.ListPage;
import io.racs.repos.ObjectInfo;
import io.racs.repos.SafeNameRange;
import java.io.IOException;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.function.Consumer;
import org.apache.sshd.sftp.client.SftpClient;
import org.apache.sshd.sftp.client.SftpClient.Attributes;
import org.apache.sshd.sftp.client.SftpClient.CloseableHandle;
import org.apache.sshd.sftp.client.SftpClient.DirEntry;

/**
 * The listing of an {@link SftpRepository}, the {@code fs} backend's walk over SFTP: depth-first,
 * each directory's safe names sorted (directories as if followed by {@code /}), which yields keys
 * in UTF-8 binary order since {@link KeyCodec} preserves order. SFTP directories come back in no
 * order, so each directory on the walk is read whole, but only the entries that the page can use
 * are kept; every entry comes with its attributes, so no object costs a request of its own. See
 * "Listing" in {@link SftpRepository}.
 */
final class SftpListing {
  private final SftpRoot root;

  SftpListing(SftpRoot root) {
    this.root = root;
  }

  /**
   * Up to {@code maxKeys} objects whose keys start with {@code prefix}, after {@code startAfter}.
   */
  ListPage list(SftpClient channel, String prefix, String startAfter, int maxKeys) {
    SafeNameRange range = SafeNameRange.of(prefix, startAfter);
    Walk walk = new Walk(channel, range, maxKeys + 1);
    // Every name with the prefix lies under the directories the prefix names in full: start there.
    String directories = range.startDirectory();
    String start =
        directories.isEmpty()
            ? root.path()
            : root.resolve(directories.substring(0, directories.length() - 1));
    try {
      walk.visit(start, directories);
    } catch (IOException e) {
      throw root.translate(channel, e, "list", prefix);
    }
    List<ObjectInfo> found = walk.found;
    if (found.isEmpty()) {
      // A missing directory reads as empty; if it was the root, the listing is unavailable.
      root.check(channel);
    }
    if (found.size() > maxKeys) {
      return new ListPage(found.subList(0, maxKeys), true);
    }
    return new ListPage(found, false);
  }

  /**
   * Calls {@code visitor} with the path and attributes of every temporary file under the root, in
   * no particular order.
   */
  void temporaryFiles(SftpClient channel, Consumer<TempFile> visitor) {
    try {
      if (!walkTemporaryFiles(channel, root.path(), visitor)) {
        root.check(channel);
      }
    } catch (IOException e) {
      throw root.translate(channel, e, "purge", "");
    }
  }

  /** A temporary file found by {@link #temporaryFiles}. */
  record TempFile(String path, Instant modified) {}

  private boolean walkTemporaryFiles(
      SftpClient channel, String directory, Consumer<TempFile> visitor) throws IOException {
    List<DirEntry> entries = readDirectory(channel, directory);
    if (entries == null) {
      return false;
    }
    for (DirEntry entry : entries) {
      String fileName = entry.getFilename();
      Attributes attributes = entry.getAttributes();
      if (fileName.equals(".") || fileName.equals("..") || attributes.isSymbolicLink()) {
        continue;
      }
      String path = SftpWriter.child(directory, fileName);
      if (attributes.isDirectory() && !fileName.startsWith(".")) {
        walkTemporaryFiles(channel, path, visitor);
      } else if (attributes.isRegularFile() && fileName.startsWith(SftpWriter.TEMP_PREFIX)) {
        visitor.accept(new TempFile(path, modified(attributes)));
      }
    }
    return true;
  }

  /** Every entry of {@code directory}, or null when it is gone. */
  private static List<DirEntry> readDirectory(SftpClient channel, String directory)
      throws IOException {
    List<DirEntry> all = new ArrayList<>();
    CloseableHandle handle;
    try {
      handle = channel.openDir(directory);
    } catch (IOException e) {
      if (SftpErrors.isNoSuchFile(e)) {
        return null;
      }
      throw e;
    }
    try (handle) {
      for (List<DirEntry> chunk; (chunk = channel.readDir(handle)) != null; ) {
        all.addAll(chunk);
      }
    }
    return all;
  }

  static Instant modified(Attributes attributes) {
    FileTime time = attributes.getModifyTime();
    return time == null ? Instant.EPOCH : time.toInstant();
  }

  /** One depth-first, sorted walk that collects up to {@code limit} objects. */
  private final class Walk {
    private final SftpClient channel;
    private final SafeNameRange range;
    private final int limit;
    private final List<ObjectInfo> found = new ArrayList<>();

    Walk(SftpClient channel, SafeNameRange range, int limit) {
      this.channel = channel;
      this.range = range;
      this.limit = limit;
    }

    /** An entry of one directory, with its name as it sorts (a subdirectory's followed by /). */
    private record Entry(String sortName, String fileName, String sortTail, Attributes attributes)
        implements Comparable<Entry> {
      @Override
      public int compareTo(Entry other) {
        return Keys.compare(sortTail, other.sortTail);
      }

      boolean file() {
        return !attributes.isDirectory();
      }
    }

    /** Visits {@code directory}, whose safe-name path is {@code path} ("" or ending in "/"). */
    void visit(String directory, String path) throws IOException {
      List<Entry> entries = new ArrayList<>();
      CloseableHandle handle;
      try {
        handle = channel.openDir(directory);
      } catch (IOException e) {
        if (SftpErrors.isNoSuchFile(e)) {
          return; // removed by a concurrent delete, or never made; the caller checks the root
        }
        throw e;
      }
      try (handle) {
        for (List<DirEntry> chunk; (chunk = channel.readDir(handle)) != null; ) {
          for (DirEntry dirEntry : chunk) {
            Entry entry = candidate(path, dirEntry);
            if (entry != null) {
              entries.add(entry);
            }
          }
        }
      }
      // Taken one by one from a heap rather than sorted whole: a page that wants the first names
      // of a large directory then costs no full sort.
      PriorityQueue<Entry> ordered = new PriorityQueue<>(entries);
      while (!ordered.isEmpty() && found.size() < limit) {
        Entry entry = ordered.poll();
        if (entry.file()) {
          Optional<String> key = KeyCodec.decode(entry.sortName);
          if (key.isPresent()) {
            found.add(
                ObjectInfo.of(key.get(), entry.attributes.getSize(), modified(entry.attributes)));
          }
        } else {
          visit(SftpWriter.child(directory, entry.fileName), entry.sortName);
        }
      }
    }

    /**
     * The entry if the listing can use it: an object file within the prefix and after startAfter,
     * or a directory that may hold one; null for anything else (temporary files, links, foreign
     * names).
     */
    private Entry candidate(String path, DirEntry dirEntry) {
      String fileName = dirEntry.getFilename();
      Attributes attributes = dirEntry.getAttributes();
      if (fileName.startsWith(".") || attributes.isSymbolicLink()) {
        return null;
      }
      if (fileName.endsWith("!") && attributes.isRegularFile()) {
        String sortName = path + fileName;
        if (range.holdsObject(sortName)) {
          return new Entry(sortName, fileName, fileName, attributes);
        }
      } else if (attributes.isDirectory() && fileName.indexOf('.') < 0) {
        String tail = fileName + "/";
        String sortName = path + tail;
        if (range.mayHoldObjects(sortName)) {
          return new Entry(sortName, fileName, tail, attributes);
        }
      }
      return null;
    }
  }
}
