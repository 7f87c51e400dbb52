package io.racs.repos.fs;

import io.racs.repos.Keys;
import io.racs.repos.ObjectInfo;
import io.racs.repos.RepositoryException;
import io.racs.repos.RepositoryException.Kind;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Instant;
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The atomic write of an {@link FsRepository}: the body streams into a temporary file next to the
 * target, which is synced, renamed over the target, and whose directory is synced; the directories
 * on the way are made (or checked to be real directories) first, and a walk that a concurrent
 * delete undoes is retried. See "Writes" in {@link FsRepository}.
 */
final class AtomicFileWriter {
  private static final int COPY_BUFFER_BYTES = 128 * 1024;
  private static final long WRITEBACK_BYTES = 4L << 20;
  private static final int WRITE_ATTEMPTS = 32;

  private final String name;
  private final FsRoot root;
  private final Syncer syncer;

  AtomicFileWriter(String name, FsRoot root, Syncer syncer) {
    this.name = name;
    this.root = root;
    this.syncer = syncer;
  }

  /**
   * Writes {@code key}, whose safe-name path components are {@code components}, under {@code base}
   * (the root, just checked) from {@code checked}, a body already checked against its length.
   */
  ObjectInfo write(Path base, String key, String[] components, InputStream checked) {
    for (int attempt = 1; ; attempt++) {
      Path directory = makeDirectories(base, components, key);
      Path temp = directory.resolve(FsRepository.TEMP_PREFIX + randomSuffix());
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
        throw root.translate(e, "put", key);
      } catch (IOException e) {
        throw root.translate(e, "put", key);
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
        throw root.translate(e, "put", key);
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
      root.path(); // a retry may be due to the root itself going away: then nothing is to be
      // retried
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
          throw root.translate(e, "put", key);
        }
        return makeDirectories(base, components, key, attempt + 1);
      } catch (IOException e) {
        throw root.translate(e, "put", key);
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
      throw root.translate(e, "put", key);
    }
  }

  private static String randomSuffix() {
    return HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong());
  }

  private static void deleteQuietly(Path file) {
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      // A leftover temporary file is invisible and purged later.
    }
  }
}
