package io.racs.proxy.store.heal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;

/**
 * Where heal records how far it got: the bucket and the index entry it finished last. Written after
 * each object, read once at the start, cleared when a heal completes its scan. Implementations must
 * be safe to call from the one thread that runs the heal.
 */
public interface HealCheckpoint {

  /** Records nothing. */
  HealCheckpoint NONE =
      new HealCheckpoint() {
        @Override
        public Optional<String> read() {
          return Optional.empty();
        }

        @Override
        public void write(String state) {}

        @Override
        public void clear() {}
      };

  /** The last state written and not cleared, if any. */
  Optional<String> read();

  /** Replaces the state. */
  void write(String state);

  /** Forgets the state: the next heal starts from the beginning. */
  void clear();

  /** A checkpoint kept in a local file, replaced atomically on each write. */
  static HealCheckpoint inFile(Path file) {
    return new HealCheckpoint() {
      @Override
      public Optional<String> read() {
        if (!Files.isRegularFile(file)) {
          return Optional.empty();
        }
        try {
          return Optional.of(Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }

      @Override
      public void write(String state) {
        try {
          Path temp = file.resolveSibling(file.getFileName() + ".tmp");
          Files.writeString(temp, state, StandardCharsets.UTF_8);
          Files.move(
              temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }

      @Override
      public void clear() {
        try {
          Files.deleteIfExists(file);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    };
  }
}
