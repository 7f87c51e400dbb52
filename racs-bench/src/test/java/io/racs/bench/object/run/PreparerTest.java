package io.racs.bench.object.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.bench.object.workload.KeySpace;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/** Proves clean-up deletes exactly the keys a run wrote, not every key of the key space. */
class PreparerTest {
  /** Records deletes; everything else is unused. */
  private static final class Deletes extends StubTarget {
    Deletes() {
      super("deletes");
    }

    final Set<String> deleted = ConcurrentHashMap.newKeySet();

    @Override
    public Client client(int index) {
      return new QuietClient() {
        @Override
        public boolean head(String key) {
          return false;
        }

        @Override
        public void delete(String key) {
          deleted.add(key);
        }
      };
    }
  }

  @Test
  void cleanUp_whenFewKeysOfALargeSpaceWereWritten_deletesOnlyThose() throws Exception {
    KeySpace keys = new KeySpace("t/", 100_000, 1);
    keys.prepared(7, 1);
    long v = keys.beginPut(42);
    keys.putDone(42, v);
    keys.beginPut(99_999); // started, never finished: the object may exist all the same
    Deletes target = new Deletes();
    Preparer.cleanUp(target, keys);
    assertThat(target.deleted)
        .containsExactlyInAnyOrder(keys.key(7), keys.key(42), keys.key(99_999));
    assertThat(keys.exists(7)).isFalse();
    assertThat(keys.exists(42)).isFalse();
  }
}
