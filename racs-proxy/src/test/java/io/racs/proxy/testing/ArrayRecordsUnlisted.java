package io.racs.proxy.testing;

import io.racs.repos.ListPage;
import io.racs.repos.Repository;
import io.racs.repos.RepositoryException;
import io.racs.repos.decorator.ForwardingRepository;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A repository whose listings of the array records ({@code racs/array/}) fail with {@code
 * UNAVAILABLE} while a shared switch is on, and whose every other call works: what a proxy sees
 * when it cannot re-read the array record (docs/reshape.md §6) while data still reads.
 */
public final class ArrayRecordsUnlisted extends ForwardingRepository {
  private final AtomicBoolean failing;

  private ArrayRecordsUnlisted(Repository delegate, AtomicBoolean failing) {
    super(delegate);
    this.failing = failing;
  }

  /** Each of {@code repositories} behind one, all failing while {@code failing} is set. */
  public static List<Repository> wrap(List<Repository> repositories, AtomicBoolean failing) {
    return repositories.stream()
        .<Repository>map(r -> new ArrayRecordsUnlisted(r, failing))
        .toList();
  }

  @Override
  public ListPage list(String prefix, String startAfter, int maxKeys) {
    if (failing.get() && prefix.startsWith("racs/array/")) {
      throw new RepositoryException(
          RepositoryException.Kind.UNAVAILABLE, name() + ": listing refused by the test");
    }
    return super.list(prefix, startAfter, maxKeys);
  }
}
