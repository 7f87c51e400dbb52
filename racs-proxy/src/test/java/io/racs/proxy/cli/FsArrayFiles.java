package io.racs.proxy.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Configuration files of arrays of {@code fs} repositories, for the command tests. */
final class FsArrayFiles {
  private FsArrayFiles() {}

  /**
   * Writes {@code dir/name}: an array of {@code geometry} over fs repositories {@code r0..r<n-1>}
   * in directories of the same names under {@code dir} (created if missing), with {@code
   * arrayLines} (each indented by two spaces and ending in a newline) in its array section.
   */
  static Path write(Path dir, String name, String geometry, int repositories, String arrayLines)
      throws IOException {
    List<Integer> numbers = new ArrayList<>();
    for (int i = 0; i < repositories; i++) {
      numbers.add(i);
    }
    return write(dir, name, geometry, numbers, arrayLines);
  }

  /** As {@link #write(Path, String, String, int, String)}, over the repositories {@code r<i>}. */
  static Path write(
      Path dir, String name, String geometry, List<Integer> repositories, String arrayLines)
      throws IOException {
    StringBuilder yaml = new StringBuilder("array:\n  geometry: " + geometry + "\n" + arrayLines);
    yaml.append("repositories:\n");
    for (int i : repositories) {
      yaml.append("  - name: r")
          .append(i)
          .append("\n    type: fs\n    path: ")
          .append(dir.resolve("r" + i))
          .append('\n');
      Files.createDirectories(dir.resolve("r" + i));
    }
    Path file = dir.resolve(name);
    Files.writeString(file, yaml);
    return file;
  }
}
