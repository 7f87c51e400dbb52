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
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

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

  private final String name;
  private final Path configuredRoot;
  private final boolean durable;
  private final Syncer syncer;
  private final Duration tempGrace;
  private final AtomicBoolean purged = new AtomicBoolean();
  private final FsRoot root;
  private final AtomicFileWriter writer;
  private final FsListing listing;

  private FsRepository(Builder builder) {
    this.name = builder.name;
    this.configuredRoot = builder.root.toAbsolutePath().normalize();
    this.durable = builder.durable;
    this.syncer = builder.durable ? builder.syncer : Syncer.NONE;
    this.tempGrace = builder.tempGrace;
    KeyCodec.checkRoot(configuredRoot.toString());
    this.root = new FsRoot(name, configuredRoot, syncer);
    this.writer = new AtomicFileWriter(name, root, syncer);
    this.listing = new FsListing(root);
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
    return writer.write(base, key, components(key), Bodies.checked(body, lengthBytes, name, key));
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
      if (FsRoot.isSymbolicLinkLoop(e)) {
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
          ObjectInfo.of(key, size, modified),
          new ChannelRangeStream(root, name, channel, from, to, key));
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
    return listing.list(root(), prefix, startAfter, maxKeys);
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
    root.close();
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
    Path base = root.path();
    if (purged.compareAndSet(false, true)) {
      purgeTemporaryFiles(tempGrace);
    }
    return base;
  }

  private <T> Optional<T> absent() {
    return root.absent();
  }

  private RepositoryException notFound(String key) {
    return root.notFound(key);
  }

  private RepositoryException translate(IOException e, String operation, String key) {
    return root.translate(e, operation, key);
  }

  private static String[] components(String key) {
    return KeyCodec.encode(key).split("/", -1);
  }

  private static void closeQuietly(FileChannel channel) {
    try {
      channel.close();
    } catch (IOException e) {
      // Nothing was written through it.
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
