package io.racs.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Clean-up of the temporary directories the test kit's servers live in. */
final class TempDirs {
  private TempDirs() {}

  /** Deletes {@code dir} and everything in it, as far as it can: a leftover is harmless. */
  static void deleteTree(Path dir) {
    if (dir == null) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    } catch (IOException e) {
      // Best effort: a temporary directory left behind is harmless.
    }
  }
}
