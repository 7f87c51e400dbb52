package io.racs.repos.fs;

import io.racs.repos.Keys;
import io.racs.repos.RepositoryException;
import io.racs.repos.RepositoryException.Kind;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Optional;

/**
 * The root directory of an {@link FsRepository}, and what follows from it: whether it is still the
 * directory first opened, and so how a failed file operation under it translates into the SPI's
 * error kinds (a file missing under a vanished root is {@code UNAVAILABLE}, not {@code NOT_FOUND}).
 * See "The root" in {@link FsRepository}.
 */
final class FsRoot {
  private final String name;
  private final Path configuredRoot;
  private final Syncer syncer;
  private volatile Identified root;
  private volatile boolean closed;

  /**
   * The resolved root, the file whose identity ties it to this repository (its marker, or the root
   * itself), and that identity (null on file systems without one).
   */
  private record Identified(Path path, Path identity, Object fileKey) {}

  FsRoot(String name, Path configuredRoot, Syncer syncer) {
    this.name = name;
    this.configuredRoot = configuredRoot;
    this.syncer = syncer;
  }

  /** Makes every later call fail: the repository is closed. */
  void close() {
    closed = true;
  }

  /**
   * The real root, checked to be the directory first resolved (one {@code stat}); resolved on first
   * use.
   *
   * @throws RepositoryException {@code UNAVAILABLE} when the root is missing, not a directory, or
   *     another directory than the one first resolved
   */
  Path path() {
    if (closed) {
      throw new IllegalStateException(name + ": repository is closed");
    }
    Identified known = root;
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
    Identified identified = identify(resolved);
    synchronized (this) {
      if (root == null) {
        root = identified;
      }
    }
    return path();
  }

  /**
   * Ties the root to this repository: the file key of its {@value FsRepository#ROOT_MARKER} file,
   * created if missing. The marker's, not the directory's own, because file systems reuse a deleted
   * directory's inode at once, so a directory re-created in place often has the old file key. On a
   * root where the marker cannot be written (read-only), the directory's own file key.
   */
  private Identified identify(Path resolved) {
    Path marker = resolved.resolve(FsRepository.ROOT_MARKER);
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
        return new Identified(resolved, marker, attributes.fileKey());
      }
    } catch (IOException e) {
      // Read-only or not ours to write: the directory's own identity is the best there is.
    }
    return new Identified(resolved, resolved, rootAttributes(resolved).fileKey());
  }

  private void check(Identified known) {
    BasicFileAttributes attributes;
    try {
      attributes =
          Files.readAttributes(
              known.identity(), BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException | NotDirectoryException e) {
      rootAttributes(known.path()); // throws when the root itself is missing or not a directory
      throw replacedRoot("its " + FsRepository.ROOT_MARKER + " file is gone");
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
  <T> Optional<T> absent() {
    path();
    return Optional.empty();
  }

  /** {@code NOT_FOUND} for {@code key}, once the root is checked to be still ours. */
  RepositoryException notFound(String key) {
    absent(); // the root is still ours, so the object is really missing
    return new RepositoryException(Kind.NOT_FOUND, name + ": no object " + Keys.abbreviate(key));
  }

  /** Translates a failed file operation into the repository's one exception. */
  RepositoryException translate(IOException e, String operation, String key) {
    String message = name + ": " + operation + " " + Keys.abbreviate(key) + ": " + e;
    if (e instanceof NoSuchFileException) {
      path(); // a vanished root is UNAVAILABLE, not a missing file
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

  /**
   * Whether {@code e} is the ELOOP of {@code open(O_NOFOLLOW)} on a link, which Java reports as a
   * plain IOException ("Too many levels of symbolic links (NOFOLLOW_LINKS specified)").
   */
  static boolean isSymbolicLinkLoop(IOException e) {
    String message = e instanceof FileSystemException fse ? fse.getReason() : e.getMessage();
    return message != null && message.contains("symbolic links");
  }
}
