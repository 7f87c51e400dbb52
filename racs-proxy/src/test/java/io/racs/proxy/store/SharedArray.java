package io.racs.proxy.store;

import io.racs.proxy.codec.Geometry;
import io.racs.proxy.testing.TestArray;
import io.racs.repos.Repository;
import io.racs.repos.memory.MemoryRepository;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;

/**
 * Several proxies over one array: an {@link ErasureStore} per clock offset, all over the same 4x2
 * memory repositories (each store may see them through its own decorator), with 4 KiB stripes and
 * objects up to 1 KiB inline, as separate proxy processes would be. Closing closes every store, and
 * the repositories with the last one.
 */
public final class SharedArray implements AutoCloseable {
  public static final String BUCKET = "bkt";

  public final List<Repository> repositories = new ArrayList<>();
  public final List<ErasureStore> stores = new ArrayList<>();

  /** Stores whose wall clocks are the system clock shifted by {@code offsetsSeconds}. */
  public SharedArray(int... offsetsSeconds) {
    this((slot, r) -> r, offsetsSeconds);
  }

  /**
   * Stores as above, each seeing every repository through {@code decorate} (applied once per store
   * and slot, with the slot).
   */
  public SharedArray(BiFunction<Integer, Repository, Repository> decorate, int... offsetsSeconds) {
    Geometry geometry = Geometry.parse("4x2");
    for (int i = 0; i < geometry.totalShards(); i++) {
      repositories.add(MemoryRepository.create("mem" + i));
    }
    for (int offset : offsetsSeconds) {
      List<Repository> seen = new ArrayList<>();
      for (int slot = 0; slot < repositories.size(); slot++) {
        seen.add(decorate.apply(slot, new Unclosed(repositories.get(slot))));
      }
      stores.add(
          TestArray.builder(geometry)
              .blockBytes(4096)
              .inlineBytes(1024)
              .minPartBytes(1)
              .stallGrace(Duration.ofSeconds(5))
              .clock(Clock.offset(Clock.systemUTC(), Duration.ofSeconds(offset)))
              .over(seen)
              .open()
              .store());
      if (stores.size() == 1) {
        stores.getFirst().createBucket(BUCKET);
      }
    }
  }

  @Override
  public void close() {
    for (ErasureStore store : stores) {
      store.close();
    }
    for (Repository repository : repositories) {
      repository.close();
    }
  }

  /** A repository whose close is left to its owner: one store's close must not empty the array. */
  private static final class Unclosed extends io.racs.repos.decorator.ForwardingRepository {
    Unclosed(Repository delegate) {
      super(delegate);
    }

    @Override
    public void close() {}
  }
}
