package io.racs.repos.fs;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Makes writes durable: the {@code fs} backend calls it after writing a file and after changing a
 * directory (a rename, a new or removed entry), before reporting success. Tests inject a counting
 * one to observe that the calls happen; {@link #NONE} is what {@code durable: false} uses.
 * Implementations are thread-safe.
 */
public interface Syncer {
  /** Real fsync of files and directories. */
  Syncer FSYNC =
      new Syncer() {
        @Override
        public void syncFile(FileChannel file) throws IOException {
          file.force(true);
        }

        @Override
        public void syncData(FileChannel file) throws IOException {
          file.force(false);
        }

        @Override
        public void syncDirectory(Path directory) throws IOException {
          // On Linux a directory opened read-only can be fsynced, which persists its entries.
          try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
            channel.force(true);
          }
        }

        @Override
        public String toString() {
          return "fsync";
        }
      };

  /** No syncing: writes reach the disk whenever the kernel decides. For experiments only. */
  Syncer NONE =
      new Syncer() {
        @Override
        public void syncFile(FileChannel file) {}

        @Override
        public void syncDirectory(Path directory) {}

        @Override
        public String toString() {
          return "none";
        }
      };

  /** Forces a written file's data and metadata to stable storage. */
  void syncFile(FileChannel file) throws IOException;

  /**
   * Forces the data written so far to stable storage, midway through a large file (its metadata
   * follows with {@link #syncFile} at the end). By default the same as {@link #syncFile}.
   */
  default void syncData(FileChannel file) throws IOException {
    syncFile(file);
  }

  /** Forces a directory's entries (created, renamed, removed names) to stable storage. */
  void syncDirectory(Path directory) throws IOException;
}
