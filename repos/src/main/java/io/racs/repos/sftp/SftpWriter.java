package io.racs.repos.sftp;

import io.racs.repos.Keys;
import io.racs.repos.ObjectInfo;
import io.racs.repos.RepositoryException;
import io.racs.repos.RepositoryException.Kind;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.sshd.sftp.client.SftpClient;
import org.apache.sshd.sftp.client.SftpClient.Attributes;
import org.apache.sshd.sftp.client.SftpClient.CloseableHandle;
import org.apache.sshd.sftp.client.SftpClient.OpenMode;
import org.apache.sshd.sftp.client.extensions.openssh.OpenSSHFsyncExtension;
import org.apache.sshd.sftp.client.extensions.openssh.OpenSSHPosixRenameExtension;
import org.apache.sshd.sftp.client.impl.AbstractSftpClient;
import org.apache.sshd.sftp.client.impl.SftpOutputStreamAsync;

/**
 * The all-or-nothing write of an {@link SftpRepository}: the body streams into a temporary file
 * next to the target, created with {@code O_EXCL}, which is fsynced where the server can, checked
 * to hold every byte sent, and renamed onto the target; the directories on the way are made first
 * when the temporary file cannot be created for want of them. See "Writes" in {@link
 * SftpRepository}.
 */
final class SftpWriter {
  /** The prefix of temporary files (the {@code fs} backend's too); object names never start so. */
  static final String TEMP_PREFIX = ".racs-tmp-";

  /** Bytes per SFTP write request; every server must take 32 KiB (the protocol's minimum). */
  static final int IO_BUFFER_BYTES = 32 * 1024;

  private static final int WRITE_ATTEMPTS = 16;

  private final String name;
  private final SftpRoot root;
  private final SftpConnections connections;
  private final boolean durable;

  SftpWriter(String name, SftpRoot root, SftpConnections connections, boolean durable) {
    this.name = name;
    this.root = root;
    this.connections = connections;
    this.durable = durable;
  }

  /**
   * Writes {@code key}, whose safe-name components are {@code components}, from {@code checked}, a
   * body already checked against its length; with {@code ifAbsent}, only if no object is there.
   */
  ObjectInfo write(
      SftpClient channel, String key, String[] components, InputStream checked, boolean ifAbsent) {
    String operation = ifAbsent ? "put if absent" : "put";
    String directory = directory(components, components.length - 1);
    String target = child(directory, components[components.length - 1]);
    String temp = child(directory, TEMP_PREFIX + randomSuffix());
    CloseableHandle handle = createTemp(channel, temp, components, key, operation);
    boolean placed = false;
    try {
      long size;
      Attributes attributes;
      boolean closed = false;
      try {
        size = copy(channel, temp, handle, checked);
        if (durable && capabilities().fsync()) {
          channel.getExtension(OpenSSHFsyncExtension.class).fsync(handle);
        }
        attributes = channel.stat(handle);
        handle.close(); // a server may report a failed write only here
        closed = true;
      } finally {
        if (!closed) {
          closeQuietly(handle);
        }
      }
      if (attributes.getSize() != size) {
        throw new RepositoryException(
            Kind.UNEXPECTED,
            name
                + ": "
                + operation
                + " "
                + Keys.abbreviate(key)
                + ": the server holds "
                + attributes.getSize()
                + " bytes of the "
                + size
                + " sent; nothing stored");
      }
      place(channel, temp, target, key, ifAbsent);
      placed = true;
      FileTime modified = attributes.getModifyTime();
      return ObjectInfo.of(key, size, modified == null ? Instant.now() : modified.toInstant());
    } catch (IOException e) {
      throw root.translate(channel, e, operation, key);
    } finally {
      if (!placed) {
        removeQuietly(channel, temp);
      }
    }
  }

  private SftpConnections.Capabilities capabilities() {
    // A channel is open by the time anything is written, so the capabilities are known.
    return connections.capabilities().orElseThrow();
  }

  /**
   * Renames the finished temporary file onto the target. Replacing: {@code
   * posix-rename@openssh.com} (rename(2), atomic) where the server has it; where it does not, the
   * protocol's own rename (version 3), which refuses an existing target, so a new key is still
   * written atomically but an existing one is refused rather than removed first, which would leave
   * a window in which the key reads as missing, and a crash in it would lose the object. If absent:
   * the protocol's own rename, which refuses an existing target; OpenSSH implements it with link(2)
   * and unlink(2), which is atomic, while some servers (MINA's among them) check for the target and
   * then rename, which two racing creators can both pass.
   */
  private void place(SftpClient channel, String temp, String target, String key, boolean ifAbsent)
      throws IOException {
    if (!ifAbsent && capabilities().posixRename()) {
      channel.getExtension(OpenSSHPosixRenameExtension.class).posixRename(temp, target);
      return;
    }
    try {
      channel.rename(temp, target);
    } catch (IOException e) {
      if (!exists(channel, target)) {
        throw e;
      }
      if (ifAbsent) {
        throw new RepositoryException(
            Kind.PRECONDITION_FAILED,
            name + ": put if absent " + Keys.abbreviate(key) + ": an object exists",
            e);
      }
      throw new RepositoryException(
          Kind.UNEXPECTED,
          name
              + ": put "
              + Keys.abbreviate(key)
              + ": the server has no posix-rename@openssh.com, so an existing object cannot be"
              + " replaced atomically; refused, the object is unchanged",
          e);
    }
  }

  private static boolean exists(SftpClient channel, String path) {
    try {
      channel.lstat(path);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** Copies the body through pipelined writes (several requests in flight, acknowledged later). */
  private static long copy(SftpClient channel, String temp, CloseableHandle handle, InputStream in)
      throws IOException {
    SftpOutputStreamAsync out =
        new SftpOutputStreamAsync(
            (AbstractSftpClient) channel, IO_BUFFER_BYTES, temp, handle, false);
    try {
      long size = in.transferTo(out);
      out.close(); // flushes and waits for every acknowledgement
      return size;
    } finally {
      closeQuietly(out);
    }
  }

  /**
   * Creates the temporary file; when its directory is missing, makes the directories on the way and
   * tries again (a concurrent delete may remove an emptied directory in between).
   */
  private CloseableHandle createTemp(
      SftpClient channel, String temp, String[] components, String key, String operation) {
    for (int attempt = 1; ; attempt++) {
      try {
        return channel.open(temp, OpenMode.Write, OpenMode.Create, OpenMode.Exclusive);
      } catch (IOException e) {
        if (!SftpErrors.isNoSuchFile(e) || components.length == 1 || attempt == WRITE_ATTEMPTS) {
          throw root.translate(channel, e, operation, key);
        }
      }
      makeDirectories(channel, components, key, operation);
    }
  }

  /** Makes (or checks) each directory of a key's path, from the root down. */
  private void makeDirectories(
      SftpClient channel, String[] components, String key, String operation) {
    for (int i = 1; i < components.length; i++) {
      String directory = directory(components, i);
      try {
        channel.mkdir(directory);
      } catch (IOException e) {
        if (SftpErrors.isNoSuchFile(e)) {
          // The parent is gone: the root (checked here), or a concurrent delete's clean-up, after
          // which the caller tries again.
          root.check(channel);
          return;
        }
        requireDirectory(channel, directory, key, operation, e);
      }
    }
  }

  /** After a failed mkdir: fine if a directory is there, refused if something else is. */
  private void requireDirectory(
      SftpClient channel, String directory, String key, String operation, IOException failure) {
    Attributes attributes;
    try {
      attributes = channel.lstat(directory);
    } catch (IOException e) {
      if (SftpErrors.isNoSuchFile(e)) {
        return; // removed by a concurrent delete: the caller tries again
      }
      throw root.translate(channel, failure, operation, key);
    }
    if (!attributes.isDirectory()) {
      throw new RepositoryException(
          Kind.ACCESS_DENIED,
          name
              + ": "
              + operation
              + " "
              + Keys.abbreviate(key)
              + ": "
              + directory
              + " is "
              + (attributes.isSymbolicLink() ? "a symbolic link" : "not a directory")
              + "; refusing to write through it");
    }
  }

  /** The path of the directory formed by the first {@code count} components. */
  String directory(String[] components, int count) {
    return count == 0
        ? root.path()
        : root.resolve(String.join("/", List.of(components).subList(0, count)));
  }

  static String child(String directory, String name) {
    return directory.endsWith("/") ? directory + name : directory + "/" + name;
  }

  private static String randomSuffix() {
    return HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong());
  }

  static void removeQuietly(SftpClient channel, String path) {
    try {
      channel.remove(path);
    } catch (IOException | RuntimeException e) {
      // A leftover temporary file is invisible, and purgeLeftovers removes it later.
    }
  }

  private static void closeQuietly(AutoCloseable resource) {
    try {
      resource.close();
    } catch (Exception e) {
      // Already failed; the caller reports the first failure.
    }
  }
}
