package io.racs.repos.memory;

import io.racs.repos.Repository;
import io.racs.repos.RepositoryContract;

/** Proves the in-heap backend keeps the whole repository contract. */
class MemoryRepositoryTest extends RepositoryContract {
  @Override
  protected Repository createRepository() {
    return MemoryRepository.create("memory-test");
  }
}
