package io.racs.repos.sftp;

import io.racs.repos.Keys;
import io.racs.repos.RepositoryException;
import io.racs.repos.RepositoryException.Kind;
import java.io.IOException;
import java.util.Optional;
import org.apache.sshd.sftp.client.SftpClient;
import org.apache.sshd.sftp.client.SftpClient.Attributes;
import org.apache.sshd.sftp.client.SftpClient.OpenMode;

/**
 * The root directory of an {@link SftpRepository} on the server: the paths of safe names under it,
 * and whether it is still there and still the directory first used, which decides how a failed
 * request translates (a file missing under a vanished root is {@code UNAVAILABLE}, not {@code
 * NOT_FOUND}). See "The root" in {@link SftpRepository}.
 */
final class SftpRoot {
  /**
   * The empty file written in the root on first use; a root without it, once it was seen, is
   * another directory (a re-created one, an empty mount point). Not an object: safe names never
   * start with a dot.
   */
  static final String MARKER = ".racs-root";

  private final String name;
  private final String root;
  private volatile boolean markerSeen;

  SftpRoot(String name, String root) {
    this.name = name;
    this.root = root;
  }

  /** The root as configured. */
  String path() {
    return root;
  }

  /** The path of {@code relative} (a safe name, or safe-name components joined by /). */
  String resolve(String relative) {
    return root.equals("/") ? "/" + relative : root + "/" + relative;
  }

  /**
   * Checks that the root is a directory and still the one first used (its marker is there); on
   * first use, writes the marker. One request when all is well.
   *
   * @throws RepositoryException {@code UNAVAILABLE} when the root is missing, not a directory, or
   *     lost its marker
   */
  void check(SftpClient channel) {
    try {
      Attributes marker = channel.lstat(resolve(MARKER));
      if (marker.isRegularFile()) {
        markerSeen = true;
        return;
      }
    } catch (IOException e) {
      if (!SftpErrors.isNoSuchFile(e)) {
        throw SftpErrors.translate(name, e, "check root", "");
      }
    }
    Attributes attributes;
    try {
      attributes = channel.stat(root);
    } catch (IOException e) {
      if (SftpErrors.isNoSuchFile(e)) {
        throw new RepositoryException(
            Kind.UNAVAILABLE,
            name
                + ": root directory "
                + root
                + " does not exist on the server (removed, or not"
                + " mounted)",
            e);
      }
      throw SftpErrors.translate(name, e, "check root", "");
    }
    if (!attributes.isDirectory()) {
      throw new RepositoryException(
          Kind.UNAVAILABLE, name + ": root " + root + " is not a directory on the server");
    }
    if (markerSeen) {
      throw new RepositoryException(
          Kind.UNAVAILABLE,
          name
              + ": root "
              + root
              + " is not the directory this repository opened (its "
              + MARKER
              + " file is gone): an unmounted disk's mount point, or a directory re-created in"
              + " its place");
    }
    try {
      channel.open(resolve(MARKER), OpenMode.Create, OpenMode.Exclusive, OpenMode.Write).close();
      markerSeen = true;
    } catch (IOException e) {
      // Written meanwhile by another repository on the same root, or a read-only root: the
      // directory is there, which is what this call needs to know.
    }
  }

  /** Empty, once the root is checked: what a lookup that found nothing answers. */
  <T> Optional<T> absent(SftpClient channel) {
    check(channel);
    return Optional.empty();
  }

  /** {@code NOT_FOUND} for {@code key}, once the root is checked to be still there. */
  RepositoryException notFound(SftpClient channel, String key) {
    check(channel);
    return new RepositoryException(Kind.NOT_FOUND, name + ": no object " + Keys.abbreviate(key));
  }

  /**
   * Translates a failed request; a "no such file" is checked against the root first, so that a
   * vanished root is {@code UNAVAILABLE}.
   */
  RepositoryException translate(SftpClient channel, IOException e, String operation, String key) {
    if (SftpErrors.isNoSuchFile(e)) {
      check(channel);
    }
    return SftpErrors.translate(name, e, operation, key);
  }
}
