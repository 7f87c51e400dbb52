package io.racs.repos;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * What a backend supplies to the {@link Repository} contract, and what the contract's parts share:
 * the repository under test, fresh for each test and closed after it, the seed of the run's data,
 * and readers and writers of whole objects and listings. A backend's test extends {@link
 * RepositoryContract}, which runs every part once.
 */
public abstract class RepositoryContractSupport {
  /** The seed of this run's data; printed by failing assertions. */
  protected static final long SEED = 0x5EED_0004L;

  /** The repository under test, fresh for each test. */
  protected Repository repository;

  /** Returns a new, empty repository. */
  protected abstract Repository createRepository() throws Exception;

  /**
   * Takes the storage of {@link #repository} away as an outage or an operator's mistake would (a
   * root directory removed, a bucket deleted), keeping the repository object open. Returns false,
   * changing nothing, when the backend has no storage outside the repository object that could go
   * missing (memory): the contract's storage-loss test then reports itself skipped.
   */
  protected abstract boolean loseStorage() throws Exception;

  /**
   * What every failure after {@link #loseStorage()} must say, so that an operator reading it at
   * start-up knows what is missing (the bucket or container by name); the default, empty, asks
   * nothing of the message.
   */
  protected String lostStorageNamed() {
    return "";
  }

  /**
   * Whether the backend must refuse {@code key}, a valid key that its provider cannot hold, by the
   * rule the backend documents (see {@link Repository}: "A backend may also refuse ... a valid key
   * that its provider cannot hold"). The default, false, is for a backend that holds every valid
   * key. The contract checks that {@link Repository#accepts} says exactly this, that every refused
   * key fails every method given it with {@link IllegalArgumentException} before its body is read
   * and stores nothing, and that every other key round-trips.
   */
  protected boolean mustRefuse(String key) {
    return false;
  }

  @BeforeEach
  final void openRepository() throws Exception {
    repository = createRepository();
  }

  @AfterEach
  final void closeRepository() {
    if (repository != null) {
      repository.close();
    }
  }

  // ---- helpers -----------------------------------------------------------------------------

  /** Reads a whole object. */
  protected byte[] read(String key) throws IOException {
    try (ObjectStream in = repository.get(key)) {
      return in.readAllBytes();
    }
  }

  /** Puts each key with its own UTF-8 bytes as the body. */
  protected void putAll(Collection<String> keys) {
    for (String key : keys) {
      byte[] body = key.getBytes(UTF_8);
      repository.put(key, new ByteArrayInputStream(body), body.length);
    }
  }

  /** The keys of a page. */
  protected static List<String> keys(ListPage page) {
    return page.objects().stream().map(ObjectInfo::key).toList();
  }

  /** Every key under {@code prefix}, through pages of 7. */
  protected List<String> listAllKeys(String prefix) {
    List<String> all = new ArrayList<>();
    Repositories.listAll(repository, prefix, 7).forEachRemaining(o -> all.add(o.key()));
    return all;
  }

  /** Sorts by the unsigned bytes of the UTF-8 encoding, independently of {@link Keys#ORDER}. */
  protected static List<String> utf8Sorted(Collection<String> keys) {
    return keys.stream()
        .sorted((a, b) -> Arrays.compareUnsigned(a.getBytes(UTF_8), b.getBytes(UTF_8)))
        .toList();
  }
}
