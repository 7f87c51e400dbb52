package io.racs.bench.object.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.bench.object.workload.KeyDistribution;
import io.racs.bench.object.workload.KeySpace;
import io.racs.bench.object.workload.Mix;
import io.racs.bench.object.workload.RangeSpec;
import io.racs.bench.object.workload.SizeSpec;
import io.racs.bench.stats.ArrivalSchedule.Arrivals;
import io.racs.repos.RepositoryException;
import java.io.InputStream;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * Proves that a read finding no object is an expected miss, not an error, when the workload's own
 * DELETE removed the key (or may have, overlapping its last PUT), and stays an error ({@code
 * NOT_FOUND}) when nothing deleted it: the store lost an object.
 */
class ExpectedMissTest {
  private static final int OBJECTS = 4;

  /** Objects as a set of keys; GET and HEAD of a key not in it answer NOT_FOUND. */
  private static final class KeySet extends StubTarget {
    KeySet() {
      super("keys");
    }

    final Set<String> present = ConcurrentHashMap.newKeySet();

    @Override
    public Client client(int index) {
      return new Client() {
        @Override
        public void put(String key, InputStream body, long lengthBytes) {
          present.add(key);
        }

        @Override
        public InputStream get(String key, long offset, long lengthBytes) {
          if (!present.contains(key)) {
            throw new RepositoryException(RepositoryException.Kind.NOT_FOUND, key);
          }
          return InputStream.nullInputStream();
        }

        @Override
        public boolean head(String key) {
          return present.contains(key);
        }

        @Override
        public int list(String prefix, int maxKeys) {
          return present.size();
        }

        @Override
        public void delete(String key) {
          present.remove(key);
        }

        @Override
        public void close() {}
      };
    }
  }

  private static Workload workload(Mix mix) {
    return new Workload(
        mix,
        SizeSpec.fixed(0),
        KeyDistribution.UNIFORM,
        RangeSpec.NONE,
        OBJECTS,
        1,
        "t/",
        1,
        0,
        Arrivals.CONSTANT,
        Duration.ofMillis(300),
        0,
        false,
        1,
        1000);
  }

  private static KeySpace prepared(KeySet target, boolean stored) {
    KeySpace keys = new KeySpace("t/", OBJECTS, 1);
    for (int i = 0; i < OBJECTS; i++) {
      keys.prepared(i, 1);
      if (stored) {
        target.present.add(keys.key(i));
      }
    }
    return keys;
  }

  @Test
  void run_whenTheMixDeletesWhatItReads_countsMissesApartFromErrors() throws Exception {
    // One client: once every key is deleted, each GET and HEAD is given a key known to be absent.
    KeySet target = new KeySet();
    KeySpace keys = prepared(target, true);
    IterationResult r =
        IterationRunner.run(
            target, keys, workload(Mix.parse("get=45,head=45,delete=10")), 7, 0, Progress.silent());
    assertThat(r.errors).isEmpty();
    assertThat(r.expectedMisses).containsOnlyKeys("get", "head");
    assertThat(r.expectedMisses.get("get")).isPositive();
    assertThat(r.ops).isPositive();
  }

  @Test
  void run_whenObjectsVanishWithoutADelete_countsNotFoundAsAnError() throws Exception {
    // The key space says every key holds an object, the store has none, and nothing deletes.
    KeySet target = new KeySet();
    KeySpace keys = prepared(target, false);
    IterationResult r =
        IterationRunner.run(
            target, keys, workload(Mix.parse("get=50,head=50")), 7, 0, Progress.silent());
    assertThat(r.expectedMisses).isEmpty();
    assertThat(r.errors).containsOnlyKeys("NOT_FOUND");
    assertThat(r.errors.get("NOT_FOUND")).isEqualTo(r.errorCount()).isPositive();
  }

  @Test
  void keySpace_whenADeleteOverlapsAPut_isUnsureUntilALaterPutReturns() {
    KeySpace keys = new KeySpace("t/", 1, 1);
    keys.prepared(0, 1);
    assertThat(keys.surelyPresent(0)).isTrue();
    int before = keys.deletesStarted(0);
    keys.beginDelete(0);
    assertThat(keys.deletesStarted(0)).isEqualTo(before + 1);
    assertThat(keys.surelyPresent(0)).isFalse();
    // A put that began while the delete ran returns first: the key reads as present, yet the
    // delete may reach the store after the put, so a miss on it remains the workload's doing.
    long began = System.nanoTime();
    long v = keys.beginPut(0);
    keys.putDone(0, v, began);
    assertThat(keys.exists(0)).isTrue();
    assertThat(keys.surelyPresent(0)).isFalse();
    keys.deleteDone(0);
    assertThat(keys.surelyPresent(0)).isFalse();
    // Only a put that begins after the delete returned makes the object certain again.
    long later = System.nanoTime();
    long w = keys.beginPut(0);
    keys.putDone(0, w, later);
    assertThat(keys.surelyPresent(0)).isTrue();
  }
}
