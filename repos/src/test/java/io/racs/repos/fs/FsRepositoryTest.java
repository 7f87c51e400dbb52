package io.racs.repos.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.repos.ObjectStream;
import io.racs.repos.Repository;
import io.racs.repos.RepositoryContract;
import io.racs.repos.RepositoryException;
import io.racs.repos.RepositoryException.Kind;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Proves the local-directory backend keeps the whole repository contract on a real disk, and that a
 * root that stops being the directory it opened (replaced by a file, by an empty directory as an
 * unmounted disk leaves, or re-created) is unavailable, never empty, and serves again once the
 * original is back.
 */
class FsRepositoryTest extends RepositoryContract {
  @TempDir Path temp;
  private Path root;

  @Override
  protected Repository createRepository() throws Exception {
    root = Files.createDirectory(temp.resolve("root"));
    return FsRepository.builder(root).name("fs-test").build();
  }

  @Override
  protected boolean loseStorage() throws IOException {
    deleteTree(root);
    return true;
  }

  @Test
  void everyCall_whenRootReplacedByFile_unavailable() throws IOException {
    put("a/b");
    deleteTree(root);
    Files.writeString(root, "not a directory");
    assertUnavailable("is not a directory");
  }

  @Test
  void everyCall_whenRootReplacedByEmptyDirectory_unavailableUntilTheOriginalIsBack()
      throws IOException {
    put("a/b");
    // An unmounted disk leaves its empty mount point behind: same path, another directory.
    Path mounted = Files.move(root, temp.resolve("disk"));
    Files.createDirectory(root);
    assertUnavailable("not the directory");
    assertThat(root).isEmptyDirectory(); // nothing written into the stand-in

    Files.delete(root);
    Files.move(mounted, root);
    try (ObjectStream in = repository.get("a/b")) {
      assertThat(in.readAllBytes()).containsExactly(7);
    }
    assertThat(keys(repository.list("", "", 10))).containsExactly("a/b");
  }

  @Test
  void everyCall_whenRootRecreatedEmpty_unavailable() throws IOException {
    put("a/b");
    deleteTree(root);
    Files.createDirectory(root);
    assertUnavailable("not the directory");
  }

  private void put(String key) {
    repository.put(key, new ByteArrayInputStream(new byte[] {7}), 1);
  }

  private void assertUnavailable(String reason) {
    for (Runnable call :
        new Runnable[] {
          () -> repository.list("", "", 10),
          () -> repository.list("a/", "", 10),
          () -> repository.get("a/b"),
          () -> repository.head("a/b"),
          () -> repository.put("c", new ByteArrayInputStream(new byte[] {1}), 1),
          () -> repository.delete("a/b"),
          repository::probe
        }) {
      assertThatThrownBy(call::run)
          .isInstanceOfSatisfying(
              RepositoryException.class, e -> assertThat(e.kind()).isEqualTo(Kind.UNAVAILABLE))
          .hasMessageContaining(reason);
    }
  }

  private static void deleteTree(Path top) throws IOException {
    try (Stream<Path> files = Files.walk(top)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
