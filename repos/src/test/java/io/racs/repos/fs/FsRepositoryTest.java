package io.racs.repos.fs;

import io.racs.repos.Repository;
import io.racs.repos.RepositoryContract;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** Proves the local-directory backend keeps the whole repository contract on a real disk. */
class FsRepositoryTest extends RepositoryContract {
  @TempDir Path temp;

  @Override
  protected Repository createRepository() throws Exception {
    return FsRepository.builder(Files.createDirectory(temp.resolve("root")))
        .name("fs-test")
        .build();
  }
}
