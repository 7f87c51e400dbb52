package io.racs.proxy.store.object;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.StoreFixture;
import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.format.VersionMeta;
import io.racs.proxy.store.heal.HealOptions;
import io.racs.proxy.store.heal.Healer;
import io.racs.repos.RepositoryException.Kind;
import io.racs.repos.decorator.FaultyRepository;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Proves that tags set after a version was written are quorum records of their own: the newest one
 * naming a version decides its tags and leaves other versions and the version's record alone; it
 * survives {@code m} repositories out; a write that reaches fewer than a write quorum fails and
 * changes nothing; a read resting on fewer than a read quorum is {@code INSUFFICIENT_SHARDS} (never
 * "no tags"); heal copies the records to a repository that missed them.
 */
class ObjectTagsTest {
  private final StoreFixture f = new StoreFixture("4x2", 4096);

  @AfterEach
  void close() {
    f.close();
  }

  private Map<String, String> tagsNow(ObjectStore store, String key) {
    VersionMeta current = store.head("bkt", key);
    return ObjectStore.ObjectTagging.of(current, store.objectTaggings("bkt", key));
  }

  @Test
  void objectTaggings_whenPutTwiceAndMRepositoriesDown_newestDecidesForItsVersionOnly() {
    f.store.createBucket("bkt");
    VersionMeta v = f.put("bkt", "k", StoreFixture.bytes(1, 100));
    f.put("bkt", "other", StoreFixture.bytes(2, 100));
    f.store.putObjectTagging(v, Map.of("a", "1"));
    f.store.putObjectTagging(v, Map.of("b", "2"));
    f.faulty.get(0).outage(true);
    f.faulty.get(5).outage(true);

    ErasureStore reopened = f.reopen();
    assertThat(tagsNow(reopened, "k")).containsExactly(Map.entry("b", "2"));
    assertThat(tagsNow(reopened, "other")).isEmpty();
    assertThat(reopened.head("bkt", "k").tags()).isEmpty(); // the record is unchanged

    f.store.putObjectTagging(v, Map.of());
    assertThat(tagsNow(f.store, "k")).isEmpty();
  }

  @Test
  void objectTaggings_whenKeyWrittenAgain_theNewVersionHasItsOwnTags() {
    f.store.createBucket("bkt");
    VersionMeta old = f.put("bkt", "k", StoreFixture.bytes(1, 100));
    f.store.putObjectTagging(old, Map.of("old", "1"));
    f.put("bkt", "k", StoreFixture.bytes(2, 100));

    assertThat(tagsNow(f.store, "k")).isEmpty();
  }

  @Test
  void putObjectTagging_whenFewerThanWriteQuorum_failsAndKeepsTheOldTags() {
    f.store.createBucket("bkt");
    VersionMeta v = f.put("bkt", "k", StoreFixture.bytes(1, 100));
    f.store.putObjectTagging(v, Map.of("old", "1"));
    for (int slot : new int[] {1, 2, 4}) {
      f.faulty.get(slot).failKeys(Pattern.compile("t/.*"), Kind.UNAVAILABLE);
    }
    assertThatThrownBy(() -> f.store.putObjectTagging(v, Map.of("new", "2")))
        .extracting(e -> ((StoreException) e).code())
        .isEqualTo(StoreException.Code.INSUFFICIENT_SHARDS);
    f.faulty.forEach(FaultyRepository::clearFaults);
    assertThat(tagsNow(f.reopen(), "k")).containsExactly(Map.entry("old", "1"));
  }

  @Test
  void objectTaggings_whenFewerThanReadQuorumAnswer_isInsufficientShards() {
    f.store.createBucket("bkt");
    VersionMeta v = f.put("bkt", "k", StoreFixture.bytes(1, 100));
    f.store.putObjectTagging(v, Map.of("a", "1"));
    for (int slot = 0; slot < 4; slot++) { // 2 answer; a read quorum of 4x2 is 3
      f.faulty.get(slot).outage(true);
    }
    assertThatThrownBy(() -> f.store.objectTaggings("bkt", "k"))
        .extracting(e -> ((StoreException) e).code())
        .isEqualTo(StoreException.Code.INSUFFICIENT_SHARDS);
  }

  @Test
  void heal_whenARepositoryMissedATagSetRecord_copiesIt() {
    f.store.createBucket("bkt");
    VersionMeta v = f.put("bkt", "k", StoreFixture.bytes(1, 100));
    f.faulty.get(3).failKeys(Pattern.compile("t/.*"), Kind.UNAVAILABLE);
    f.store.putObjectTagging(v, Map.of("a", "1"));
    f.faulty.forEach(FaultyRepository::clearFaults);
    assertThat(f.names(3, "t/")).isEmpty();

    Healer.heal(f.store, HealOptions.defaults());

    assertThat(f.names(3, "t/")).hasSize(1);
  }
}
