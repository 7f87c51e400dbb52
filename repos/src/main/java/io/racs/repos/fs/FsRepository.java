package io.racs.repos.fs;

import io.racs.repos.Bodies;
import io.racs.repos.KeyCodec;
import io.racs.repos.Keys;
import io.racs.repos.ListPage;
import io.racs.repos.ObjectInfo;
import io.racs.repos.ObjectStream;
import io.racs.repos.Repository;
import io.racs.repos.RepositoryException;
import io.racs.repos.RepositoryException.Kind;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A repository in one local directory.
 *
 * <p><b>Layout.</b> A key becomes a path under the root through {@link KeyCodec}: each {@code
 * /}-separated segment is escaped into a safe name, long segments become chained directories, and
 * the last component ends with the codec's terminator {@code !}, which tells object files from
 * directories, so that {@code a} (the file {@code a!}) and {@code a/b} (the file {@code b!} in the
 * directory {@code a}) coexist. Safe names consist of letters, digits, escapes and non-ASCII
 * characters, are never {@code .} or {@code ..}, and never contain a dot, so no key can name
 * anything outside the root, and every name that starts with a dot (temporary files) or does not
 * decode is simply not an object.
 *
 * <p><b>Symbolic links.</b> Nothing under the root is followed: every directory on a key's path is
 * checked to be a real directory before it is used, files are opened with {@code NOFOLLOW_LINKS},
 * and listings skip links. A planted link reads as a missing object and refuses writes with {@code
 * ACCESS_DENIED}. The checks assume nobody swaps directories for links while a call runs; the root
 * belongs to this process.
 *
 * <p><b>Writes.</b> A put streams into a temporary file next to the target ({@code .racs-tmp-...}),
 * syncs it, renames it over the target and syncs the directory; only then does it return. Readers
 * see the old file or the new one, never a mix; of concurrent writers the last rename wins. With
 * {@code durable(false)} the syncs are skipped, which {@link #describe()} reports. A crash can
 * leave temporary files behind: they are invisible, and {@link #purgeTemporaryFiles(Duration)} (run
 * once when the repository is first used) removes those older than a grace period, which protects
 * the temporary files of another process writing to the same root.
 *
 * <p><b>Deletes</b> remove the file and then every directory left empty on its path, so the tree
 * does not fill with empty directories. A put racing such a cleanup retries its walk.
 *
 * <p><b>The root</b> is resolved on first use, when the repository writes an empty {@value
 * #ROOT_MARKER} file in it (if there is none) and remembers that file's identity (device and inode,
 * the file key); every call then checks, with one {@code stat}, that the root is still that
 * directory. A root that is missing, is not a directory, or is another directory (the empty mount
 * point an unmounted disk leaves behind, or a directory re-created in its place) makes every call
 * fail with {@code UNAVAILABLE}, never report a missing object or an empty listing, since a caller
 * would take those for "no such object". A lookup that finds nothing checks the root again before
 * it says so, so a root that vanishes during the call is not mistaken for absence either. The
 * original directory coming back (the disk mounted again) makes the repository work again; another
 * directory is never accepted in its place while this repository lives: a new repository object (a
 * restarted process) must resolve it, and whoever owns the data decides whether to adopt it.
 *
 * <p><b>Listing</b> walks the tree depth-first and sorts each directory by safe name (directories
 * as if followed by {@code /}); since the codec preserves order, that yields keys in UTF-8 binary
 * order. Each page re-reads the directories on its path, so paging through one very large directory
 * costs more than paging through a balanced tree.
 */
public final class FsRepository implements Repository {
  /** The prefix of temporary files; object files never start with a dot. */
  public static final String TEMP_PREFIX = ".racs-tmp-";

  /**
   * The empty file written in the root on first use, whose identity (device and inode) tells the
   * directory first opened from any other put in its place; not an object.
   */
  public static final String ROOT_MARKER = ".racs-root";

  private static final int MAX_ROOT_BYTES = 900;
  private static final int COPY_BUFFER_BYTES = 128 * 1024;
  private static final long WRITEBACK_BYTES = 4L << 20;
  private static final int WRITE_ATTEMPTS = 32;

  private final String name;
  private final Path configuredRoot;
  private final boolean durable;
  private final Syncer syncer;
  private final Duration tempGrace;
  private final AtomicBoolean purged = new AtomicBoolean();
  private final DecodedNames decodedNames = new DecodedNames();
  private volatile Root root;
  private volatile boolean closed;

  /**
   * The resolved root, the file whose identity ties it to this repository (its marker, or the root
   * itself), and that identity (null on file systems without one).
   */
  private record Root(Path path, Path identity, Object fileKey) {}

  private FsRepository(Builder builder) {
    this.name = builder.name;
    this.configuredRoot = builder.root.toAbsolutePath().normalize();
    this.durable = builder.durable;
    this.syncer = builder.durable ? builder.syncer : Syncer.NONE;
    this.tempGrace = builder.tempGrace;
    int rootBytes = configuredRoot.toString().getBytes(StandardCharsets.UTF_8).length;
    if (rootBytes > MAX_ROOT_BYTES) {
      throw new IllegalArgumentException(
          "root: "
              + rootBytes
              + " bytes long (expected: at most "
              + MAX_ROOT_BYTES
              + ", so that escaped 1024-byte keys stay under PATH_MAX)");
    }
  }

  /** Starts building a repository in the directory {@code root}, which must exist. */
  public static Builder builder(Path root) {
    return new Builder(root);
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public Map<String, String> describe() {
    Map<String, String> description = new LinkedHashMap<>();
    description.put("type", "fs");
    description.put("location", configuredRoot.toString());
    description.put("durable", Boolean.toString(durable));
    return description;
  }

  /** True unless built with {@code durable(false)}. */
  public boolean durable() {
    return durable;
  }

  // ---- put ---------------------------------------------------------------------------------

  @Override
  public ObjectInfo put(String key, InputStream body, long lengthBytes) {
    Keys.check(key);
    Keys.checkLength(lengthBytes);
    Path base = root();
    InputStream checked = Bodies.checked(body, lengthBytes, name, key);
    String[] components = components(key);
    for (int attempt = 1; ; attempt++) {
      Path directory = makeDirectories(base, components, key);
      Path temp = directory.resolve(TEMP_PREFIX + randomSuffix());
      FileChannel channel;
      try {
        channel =
            FileChannel.open(
                temp,
                StandardOpenOption.CREATE_NEW,
                StandardOpenOption.WRITE,
                LinkOption.NOFOLLOW_LINKS);
      } catch (NoSuchFileException e) {
        // A delete removed the directory after we made it; walk again.
        if (attempt < WRITE_ATTEMPTS) {
          continue;
        }
        throw translate(e, "put", key);
      } catch (IOException e) {
        throw translate(e, "put", key);
      }
      Path target = directory.resolve(components[components.length - 1]);
      boolean renamed = false;
      try {
        long size;
        try (channel) {
          size = copy(checked, channel);
          syncer.syncFile(channel);
        }
        Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
        renamed = true;
        try {
          syncer.syncDirectory(directory);
          return ObjectInfo.of(key, size, Files.getLastModifiedTime(target).toInstant());
        } catch (NoSuchFileException e) {
          // A concurrent delete of this very key removed the object we had just renamed into
          // place and then its emptied directory: the put happened, and the delete after it.
          return ObjectInfo.of(key, size, Instant.now());
        }
      } catch (IOException e) {
        throw translate(e, "put", key);
      } finally {
        if (!renamed) {
          deleteQuietly(temp);
        }
      }
    }
  }

  /**
   * Copies the body into the file. Every {@value #WRITEBACK_BYTES} bytes it has the data written
   * out, so that a large object reaches the disk while it is still arriving instead of all at the
   * final sync (which then has little left to do).
   */
  private long copy(InputStream in, FileChannel out) throws IOException {
    byte[] buffer = new byte[COPY_BUFFER_BYTES];
    long total = 0;
    long unflushed = 0;
    for (int n; (n = in.read(buffer)) >= 0; ) {
      ByteBuffer chunk = ByteBuffer.wrap(buffer, 0, n);
      while (chunk.hasRemaining()) {
        out.write(chunk);
      }
      total += n;
      unflushed += n;
      if (unflushed >= WRITEBACK_BYTES) {
        syncer.syncData(out);
        unflushed = 0;
      }
    }
    return total;
  }

  /** Creates (or checks) the directories of a key's path and returns the innermost. */
  private Path makeDirectories(Path base, String[] components, String key) {
    return makeDirectories(base, components, key, 1);
  }

  private Path makeDirectories(Path base, String[] components, String key, int attempt) {
    if (attempt > 1) {
      root(); // a retry may be due to the root itself going away: then nothing is to be retried
    }
    Path directory = base;
    for (int i = 0; i < components.length - 1; i++) {
      Path next = directory.resolve(components[i]);
      try {
        Files.createDirectory(next);
        syncer.syncDirectory(directory);
      } catch (FileAlreadyExistsException e) {
        requireDirectory(next, key);
      } catch (NoSuchFileException e) {
        // A concurrent delete removed a parent we had just checked; start over from the root.
        if (attempt >= WRITE_ATTEMPTS) {
          throw translate(e, "put", key);
        }
        return makeDirectories(base, components, key, attempt + 1);
      } catch (IOException e) {
        throw translate(e, "put", key);
      }
      directory = next;
    }
    return directory;
  }

  private void requireDirectory(Path path, String key) {
    try {
      BasicFileAttributes attributes =
          Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      if (!attributes.isDirectory()) {
        throw new RepositoryException(
            Kind.ACCESS_DENIED,
            name
                + ": put "
                + Keys.abbreviate(key)
                + ": "
                + path
                + " is "
                + (attributes.isSymbolicLink() ? "a symbolic link" : "not a directory")
                + "; refusing to write through it");
      }
    } catch (NoSuchFileException e) {
      // Removed by a concurrent delete between our mkdir and this check: the caller's next step
      // fails with NoSuchFileException and retries.
    } catch (IOException e) {
      throw translate(e, "put", key);
    }
  }

  // ---- get and head ------------------------------------------------------------------------

  @Override
  public ObjectStream get(String key, long offset, long lengthBytes) {
    Keys.check(key);
    Keys.checkRange(offset, lengthBytes);
    Path file = locate(key).orElseThrow(() -> notFound(key));
    FileChannel channel;
    try {
      channel = FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException e) {
      throw notFound(key);
    } catch (IOException e) {
      if (isSymbolicLinkLoop(e)) {
        throw notFound(key);
      }
      throw translate(e, "get", key);
    }
    try {
      // The open file stays the same object even if it is replaced or deleted meanwhile.
      long size = channel.size();
      Instant modified = lastModified(file);
      long from = Math.min(offset, size);
      long to = lengthBytes < 0 ? size : from + Math.min(lengthBytes, size - from);
      return new ObjectStream(
          ObjectInfo.of(key, size, modified), new ChannelRangeStream(channel, from, to, key));
    } catch (IOException e) {
      closeQuietly(channel);
      throw translate(e, "get", key);
    }
  }

  private static Instant lastModified(Path file) {
    try {
      return Files.getLastModifiedTime(file, LinkOption.NOFOLLOW_LINKS).toInstant();
    } catch (IOException e) {
      // Replaced or deleted after we opened it: the open file is what we read.
      return Instant.now();
    }
  }

  @Override
  public Optional<ObjectInfo> head(String key) {
    Keys.check(key);
    Optional<Path> file = locate(key);
    if (file.isEmpty()) {
      return absent();
    }
    try {
      BasicFileAttributes attributes =
          Files.readAttributes(file.get(), BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      if (!attributes.isRegularFile()) {
        return absent();
      }
      return Optional.of(
          ObjectInfo.of(key, attributes.size(), attributes.lastModifiedTime().toInstant()));
    } catch (NoSuchFileException e) {
      return absent();
    } catch (IOException e) {
      throw translate(e, "head", key);
    }
  }

  /**
   * The path of a key's file, after checking that every directory on the way is a real directory;
   * empty when one is missing or is not a directory (a link, a file), since then there is no
   * object.
   */
  private Optional<Path> locate(String key) {
    Path directory = root();
    String[] components = components(key);
    for (int i = 0; i < components.length - 1; i++) {
      directory = directory.resolve(components[i]);
      try {
        if (!Files.readAttributes(directory, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS)
            .isDirectory()) {
          return Optional.empty();
        }
      } catch (NoSuchFileException e) {
        return Optional.empty();
      } catch (IOException e) {
        throw translate(e, "read", key);
      }
    }
    return Optional.of(directory.resolve(components[components.length - 1]));
  }

  // ---- delete ------------------------------------------------------------------------------

  @Override
  public void delete(String key) {
    remove(key, true);
  }

  /** Deletes without syncing the directory: the name may come back after a crash. */
  @Override
  public void discard(String key) {
    remove(key, false);
  }

  private void remove(String key, boolean durably) {
    Keys.check(key);
    Path base = root();
    Optional<Path> file = locate(key);
    if (file.isEmpty()) {
      absent();
      return;
    }
    try {
      BasicFileAttributes attributes =
          Files.readAttributes(file.get(), BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      if (attributes.isDirectory()) {
        return; // Not an object: object names never name directories.
      }
      Files.delete(file.get());
      if (durably) {
        syncer.syncDirectory(file.get().getParent());
      }
    } catch (NoSuchFileException e) {
      absent();
      return;
    } catch (IOException e) {
      throw translate(e, "delete", key);
    }
    removeEmptyDirectories(base, file.get().getParent(), durably);
  }

  /** Removes {@code directory} and its ancestors below {@code base} while they are empty. */
  private void removeEmptyDirectories(Path base, Path directory, boolean durably) {
    Path current = directory;
    while (current != null && !current.equals(base) && current.startsWith(base)) {
      try {
        Files.delete(current);
        if (durably) {
          syncer.syncDirectory(current.getParent());
        }
      } catch (DirectoryNotEmptyException | NoSuchFileException e) {
        return; // In use again, or already gone: either way we are done.
      } catch (IOException e) {
        return; // Tidying is best-effort; an empty directory is harmless.
      }
      current = current.getParent();
    }
  }

  // ---- list --------------------------------------------------------------------------------

  @Override
  public ListPage list(String prefix, String startAfter, int maxKeys) {
    Keys.checkBound(prefix, "prefix");
    Keys.checkBound(startAfter, "startAfter");
    Keys.checkMaxKeys(maxKeys);
    Path base = root();
    String encodedPrefix = KeyCodec.encodePrefix(prefix);
    Walk walk =
        new Walk(
            encodedPrefix,
            startAfter.isEmpty() ? null : KeyCodec.encode(startAfter),
            maxKeys + 1,
            decodedNames);
    try {
      // Every name with the prefix lies under the directories the prefix names in full: start
      // there rather than reading (and sorting) every directory on the way down, which for a
      // prefix like "bucket/key" would mean reading a directory that holds every key.
      int cut = encodedPrefix.lastIndexOf('/') + 1;
      Path start = base;
      for (String component : encodedPrefix.substring(0, cut).split("/")) {
        if (component.isEmpty()) {
          continue;
        }
        start = start.resolve(component);
        BasicFileAttributes attributes;
        try {
          attributes =
              Files.readAttributes(start, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException | NotDirectoryException e) {
          root(); // the prefix's directory is missing, not the root
          return new ListPage(List.of(), false);
        }
        if (!attributes.isDirectory()) {
          return new ListPage(List.of(), false); // a planted link or a file: nothing listed
        }
      }
      walk.visit(start, encodedPrefix.substring(0, cut));
    } catch (IOException e) {
      throw translate(e, "list", prefix);
    }
    // The walk takes a vanished directory for an empty one; if that directory was the root, the
    // listing is not empty but unavailable.
    root();
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
    private final String prefix;
    private final String startAfter;
    private final int limit;
    private final DecodedNames decodedNames;
    private final List<ObjectInfo> found = new ArrayList<>();

    Walk(String prefix, String startAfter, int limit, DecodedNames decodedNames) {
      this.prefix = prefix;
      this.startAfter = startAfter;
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
        // Only what the listing can return goes into the heap: a file within the prefix and after
        // startAfter, a directory that may hold one (everything below a directory that sorts
        // before startAfter, and is not on its path, sorts before it too).
        if (fileName.endsWith("!")) {
          String sortName = path + fileName;
          if (sortName.startsWith(prefix)
              && (startAfter == null || Keys.compare(sortName, startAfter) > 0)) {
            entries.add(new Entry(sortName, fileName, fileName, true));
          }
        } else if (fileName.indexOf('.') < 0) {
          String tail = fileName + "/";
          String sortName = path + tail;
          if ((sortName.startsWith(prefix) || prefix.startsWith(sortName))
              && (startAfter == null
                  || Keys.compare(sortName, startAfter) >= 0
                  || startAfter.startsWith(sortName))) {
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
          BasicFileAttributes attributes;
          try {
            attributes =
                Files.readAttributes(child, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
          } catch (NoSuchFileException e) {
            continue;
          }
          if (attributes.isRegularFile()) {
            found.add(
                ObjectInfo.of(
                    key.get(), attributes.size(), attributes.lastModifiedTime().toInstant()));
          }
        } else {
          BasicFileAttributes attributes;
          try {
            attributes =
                Files.readAttributes(child, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
          } catch (NoSuchFileException e) {
            continue;
          }
          if (attributes.isDirectory()) {
            visit(child, sortName);
          }
        }
      }
    }
  }

  // ---- probe, purge, close -----------------------------------------------------------------

  @Override
  public void probe() {
    Path base = root();
    if (!Files.isWritable(base)) {
      throw new RepositoryException(
          Kind.ACCESS_DENIED, name + ": root " + base + " is not writable");
    }
  }

  /** Its leftovers are the temporary files of crashed writers: see {@link #purgeTemporaryFiles}. */
  @Override
  public long purgeLeftovers(Duration grace, boolean dryRun) {
    if (grace.isNegative()) {
      throw new IllegalArgumentException("grace: " + grace + " (expected: >= 0)");
    }
    return dryRun ? staleTemporaryFiles(root(), grace).size() : purgeTemporaryFiles(grace);
  }

  /**
   * Deletes temporary files left by crashed writers, if older than {@code grace} (younger ones may
   * belong to a writer still running), and the directories they leave empty.
   *
   * @return the number of files deleted
   */
  public int purgeTemporaryFiles(Duration grace) {
    Path base = root();
    List<Path> stale = staleTemporaryFiles(base, grace);
    int deleted = 0;
    for (Path file : stale) {
      try {
        if (Files.deleteIfExists(file)) {
          deleted++;
          removeEmptyDirectories(base, file.getParent(), true);
        }
      } catch (IOException e) {
        throw translate(e, "purge", "");
      }
    }
    return deleted;
  }

  /** The temporary files under {@code base} last written before {@code grace} ago. */
  private List<Path> staleTemporaryFiles(Path base, Duration grace) {
    Instant cutoff = Instant.now().minus(grace);
    List<Path> stale = new ArrayList<>();
    try {
      Files.walkFileTree(
          base,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
              if (attributes.isRegularFile()
                  && file.getFileName().toString().startsWith(TEMP_PREFIX)
                  && attributes.lastModifiedTime().toInstant().isBefore(cutoff)) {
                stale.add(file);
              }
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) {
              return FileVisitResult.CONTINUE; // Deleted meanwhile.
            }
          });
    } catch (IOException e) {
      throw translate(e, "purge", "");
    }
    return stale;
  }

  @Override
  public void close() {
    closed = true;
  }

  // ---- helpers -----------------------------------------------------------------------------

  /**
   * The real root, checked to be the directory first resolved (one {@code stat}); resolved on first
   * use, after which stale temporary files are purged once.
   *
   * @throws RepositoryException {@code UNAVAILABLE} when the root is missing, not a directory, or
   *     another directory than the one first resolved
   */
  private Path root() {
    if (closed) {
      throw new IllegalStateException(name + ": repository is closed");
    }
    Root known = root;
    if (known != null) {
      check(known);
      return known.path();
    }
    Path resolved;
    try {
      resolved = configuredRoot.toRealPath();
    } catch (NoSuchFileException e) {
      throw missingRoot(e);
    } catch (IOException e) {
      throw translate(e, "open", "");
    }
    rootAttributes(resolved);
    Root identified = identify(resolved);
    synchronized (this) {
      if (root == null) {
        root = identified;
      }
    }
    if (purged.compareAndSet(false, true)) {
      purgeTemporaryFiles(tempGrace);
    }
    return root();
  }

  /**
   * Ties the root to this repository: the file key of its {@value #ROOT_MARKER} file, created if
   * missing. The marker's, not the directory's own, because file systems reuse a deleted
   * directory's inode at once, so a directory re-created in place often has the old file key. On a
   * root where the marker cannot be written (read-only), the directory's own file key.
   */
  private Root identify(Path resolved) {
    Path marker = resolved.resolve(ROOT_MARKER);
    try {
      try {
        Files.createFile(marker);
        syncer.syncDirectory(resolved);
      } catch (FileAlreadyExistsException e) {
        // Written by an earlier run, or by another process on the same root.
      }
      BasicFileAttributes attributes =
          Files.readAttributes(marker, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      if (attributes.isRegularFile()) {
        return new Root(resolved, marker, attributes.fileKey());
      }
    } catch (IOException e) {
      // Read-only or not ours to write: the directory's own identity is the best there is.
    }
    return new Root(resolved, resolved, rootAttributes(resolved).fileKey());
  }

  private void check(Root known) {
    BasicFileAttributes attributes;
    try {
      attributes =
          Files.readAttributes(
              known.identity(), BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException | NotDirectoryException e) {
      rootAttributes(known.path()); // throws when the root itself is missing or not a directory
      throw replacedRoot("its " + ROOT_MARKER + " file is gone");
    } catch (IOException e) {
      throw translate(e, "open", "");
    }
    if (known.identity().equals(known.path()) && !attributes.isDirectory()) {
      rootAttributes(known.path());
    }
    if (known.fileKey() != null && !known.fileKey().equals(attributes.fileKey())) {
      throw replacedRoot(
          "device and inode "
              + known.fileKey()
              + " of "
              + known.identity().getFileName()
              + ", now "
              + attributes.fileKey());
    }
  }

  private RepositoryException replacedRoot(String evidence) {
    return new RepositoryException(
        Kind.UNAVAILABLE,
        name
            + ": root "
            + configuredRoot
            + " is not the directory this repository opened ("
            + evidence
            + "): an unmounted disk's mount point, or a directory re-created in its place");
  }

  private BasicFileAttributes rootAttributes(Path path) {
    BasicFileAttributes attributes;
    try {
      attributes = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException e) {
      throw missingRoot(e);
    } catch (IOException e) {
      throw translate(e, "open", "");
    }
    if (!attributes.isDirectory()) {
      throw new RepositoryException(
          Kind.UNAVAILABLE,
          name
              + ": root "
              + configuredRoot
              + " is not a directory"
              + (attributes.isSymbolicLink() ? " (a symbolic link put in its place)" : ""));
    }
    return attributes;
  }

  private RepositoryException missingRoot(IOException cause) {
    return new RepositoryException(
        Kind.UNAVAILABLE,
        name + ": root directory " + configuredRoot + " does not exist (removed, or not mounted)",
        cause);
  }

  /**
   * Empty, once the root is checked to be still ours: what a lookup that found nothing answers, so
   * that a root gone during the call is reported as unavailable rather than as absence.
   */
  private <T> Optional<T> absent() {
    root();
    return Optional.empty();
  }

  private static String[] components(String key) {
    return KeyCodec.encode(key).split("/", -1);
  }

  private static String randomSuffix() {
    return HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong());
  }

  private RepositoryException notFound(String key) {
    absent(); // the root is still ours, so the object is really missing
    return new RepositoryException(Kind.NOT_FOUND, name + ": no object " + Keys.abbreviate(key));
  }

  private static boolean isSymbolicLinkLoop(IOException e) {
    // open(O_NOFOLLOW) on a link fails with ELOOP, which Java reports as an IOException
    // (a plain IOException, "Too many levels of symbolic links (NOFOLLOW_LINKS specified)").
    String message = e instanceof FileSystemException fse ? fse.getReason() : e.getMessage();
    return message != null && message.contains("symbolic links");
  }

  RepositoryException translate(IOException e, String operation, String key) {
    String message = name + ": " + operation + " " + Keys.abbreviate(key) + ": " + e;
    if (e instanceof NoSuchFileException) {
      root(); // a vanished root is UNAVAILABLE, not a missing file
      return new RepositoryException(Kind.NOT_FOUND, message, e);
    }
    if (e instanceof AccessDeniedException) {
      return new RepositoryException(Kind.ACCESS_DENIED, message, e);
    }
    String reason = e instanceof FileSystemException fse ? fse.getReason() : e.getMessage();
    if (reason != null && (reason.contains("No space left") || reason.contains("quota exceeded"))) {
      return new RepositoryException(Kind.FULL, message, e);
    }
    if (reason != null && reason.contains("Read-only file system")) {
      return new RepositoryException(Kind.ACCESS_DENIED, message, e);
    }
    return new RepositoryException(Kind.UNEXPECTED, message, e);
  }

  private static void deleteQuietly(Path file) {
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      // A leftover temporary file is invisible and purged later.
    }
  }

  private static void closeQuietly(FileChannel channel) {
    try {
      channel.close();
    } catch (IOException e) {
      // Nothing was written through it.
    }
  }

  /** Reads {@code [position, end)} of an open file with positional reads. */
  private final class ChannelRangeStream extends InputStream {
    private final FileChannel channel;
    private final long end;
    private final String key;
    private long position;

    ChannelRangeStream(FileChannel channel, long position, long end, String key) {
      this.channel = channel;
      this.position = position;
      this.end = end;
      this.key = key;
    }

    @Override
    public int read() {
      byte[] one = new byte[1];
      return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) {
      Objects.checkFromIndexSize(off, len, b.length);
      if (len == 0) {
        return 0;
      }
      if (position >= end) {
        return -1;
      }
      int want = (int) Math.min(len, end - position);
      try {
        int n = channel.read(ByteBuffer.wrap(b, off, want), position);
        if (n < 0) {
          // The file is shorter than when we opened it: it cannot be, since files are never
          // rewritten in place, unless someone outside this repository truncated it.
          throw new RepositoryException(
              Kind.CORRUPT,
              name + ": get " + Keys.abbreviate(key) + ": file shrank while being read");
        }
        position += n;
        return n;
      } catch (IOException e) {
        throw translate(e, "get", key);
      }
    }

    @Override
    public long skip(long n) {
      long skipped = Math.max(0, Math.min(n, end - position));
      position += skipped;
      return skipped;
    }

    @Override
    public int available() {
      return (int) Math.min(Integer.MAX_VALUE, end - position);
    }

    @Override
    public void close() throws IOException {
      channel.close();
    }
  }

  /** Builds an {@link FsRepository}. */
  public static final class Builder {
    private final Path root;
    private String name;
    private boolean durable = true;
    private Syncer syncer = Syncer.FSYNC;
    private Duration tempGrace = Duration.ofMinutes(15);

    private Builder(Path root) {
      this.root = Objects.requireNonNull(root, "root");
      this.name = root.toString();
    }

    /** The repository's name; defaults to the root path. */
    public Builder name(String name) {
      this.name = Objects.requireNonNull(name, "name");
      return this;
    }

    /**
     * Whether writes are synced to stable storage before a put or delete returns (the default).
     * {@code false} is for experiments, and shows in {@link FsRepository#describe()}.
     */
    public Builder durable(boolean durable) {
      this.durable = durable;
      return this;
    }

    /** How durable writes are synced; a test seam. Ignored when not durable. */
    public Builder syncer(Syncer syncer) {
      this.syncer = Objects.requireNonNull(syncer, "syncer");
      return this;
    }

    /** Temporary files older than this are crash leftovers; default 15 minutes. */
    public Builder tempGrace(Duration tempGrace) {
      if (tempGrace.isNegative()) {
        throw new IllegalArgumentException("tempGrace: " + tempGrace + " (expected: >= 0)");
      }
      this.tempGrace = tempGrace;
      return this;
    }

    /** Builds the repository; does no I/O. */
    public FsRepository build() {
      return new FsRepository(this);
    }
  }
}
