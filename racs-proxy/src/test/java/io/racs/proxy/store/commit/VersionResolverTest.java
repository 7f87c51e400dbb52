package io.racs.proxy.store.commit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.StoreFixture;
import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.array.RepositoryArray;
import io.racs.proxy.store.format.Layout;
import io.racs.proxy.store.format.VersionId;
import io.racs.proxy.store.format.VersionMeta;
import io.racs.proxy.store.heal.HealOptions;
import io.racs.proxy.store.heal.HealReport;
import io.racs.proxy.store.heal.Healer;
import io.racs.proxy.testing.TestArray;
import io.racs.repos.RepositoryException;
import io.racs.repos.decorator.FaultyRepository;
import io.racs.repos.decorator.Operation;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Proves the one visibility rule on a 4x2 array of memory repositories: an answer that rests on
 * fewer than a read quorum of listings, or on a newest record no repository can read, is {@code
 * INSUFFICIENT_SHARDS} for GET, HEAD, DELETE and LIST alike, never an older version, a missing key
 * or a short listing; and a reader whose version is collected under it reads the version that
 * replaced it. Heal reports such a record once, in words a terminal can print.
 */
@Timeout(60)
class VersionResolverTest {
  private final StoreFixture f = new StoreFixture("4x2", 4096);
  private final List<FaultyRepository.Stall> stalls = new ArrayList<>();

  @AfterEach
  void close() {
    stalls.forEach(FaultyRepository.Stall::release);
    f.close();
  }

  @Test
  void everyRead_whenNewestRecordUnreadableEverywhere_failsInsteadOfServingTheOlderVersion()
      throws Exception {
    f.store.createBucket("bkt");
    f.put("bkt", "k", StoreFixture.bytes(1, 1_000)); // inline: its record holds the data
    f.put("bkt", "other", StoreFixture.bytes(2, 100));
    // Hold the collection of the first version, so it is still there under the second.
    for (FaultyRepository repository : f.faulty) {
      stalls.add(repository.stall(Operation.DELETE));
    }
    VersionMeta second =
        f.store.put(
            "bkt",
            "k",
            new ByteArrayInputStream(StoreFixture.bytes(3, 1_000)),
            1_000,
            ObjectStore.PutOptions.defaults());
    stalls.get(0).awaitStalled();
    String entry = f.store.inlineRecord(second);
    for (var memory : f.memories) {
      RepositoryArray.putBytes(memory, entry, "damaged".getBytes(StandardCharsets.UTF_8));
    }
    ErasureStore fresh = f.reopen(); // a proxy that never read the second record

    assertInsufficientShards(() -> fresh.head("bkt", "k"));
    assertInsufficientShards(() -> fresh.get("bkt", "k", 0, -1, 0));
    // A DELETE with a condition needs the record too; a plain one does not (DeleteRoundsTest).
    assertInsufficientShards(() -> fresh.delete("bkt", "k", current -> {}));
    assertInsufficientShards(
        () -> fresh.list("bkt", new ObjectStore.ListRequest("", null, "", 10)));
    assertThat(fresh.head("bkt", "other").sizeBytes()).isEqualTo(100);
    HealReport report = Healer.heal(fresh, HealOptions.defaults());
    assertThat(report.unrecoverable())
        .containsExactly(
            "bkt: the record of version "
                + second.versionId()
                + " is unreadable on every repository");
  }

  @Test
  void headAndList_whenFewerThanReadQuorumAnswer_failEvenWhenAVersionIsListed() {
    f.store.createBucket("bkt");
    f.put("bkt", "k", StoreFixture.bytes(4, 10_000));
    // 4x2 with write quorum 4: a committed record is on at least 4 repositories, so only 3
    // listings together are sure to name the newest version. Two answer here.
    for (int slot = 0; slot < 4; slot++) {
      f.faulty.get(slot).outage(true);
    }
    assertInsufficientShards(() -> f.store.head("bkt", "k"));
    assertInsufficientShards(
        () -> f.store.list("bkt", new ObjectStore.ListRequest("", null, "", 10)));
  }

  @Test
  void get_whenItsVersionIsCollectedBeforeItsShardsAreRead_readsTheVersionThatReplacedIt()
      throws Exception {
    f.store.createBucket("bkt");
    VersionMeta first = f.put("bkt", "k", StoreFixture.bytes(5, 20_000));
    f.get("bkt", "k"); // its record is cached now: what the reader stalls on is shard data
    for (FaultyRepository repository : f.faulty) {
      stalls.add(repository.stall(Operation.GET));
    }
    CompletableFuture<byte[]> reading = CompletableFuture.supplyAsync(() -> f.get("bkt", "k"));
    // The reader has resolved the first version and is reading its first data shard.
    stalls.get(first.parts().get(0).slots().get(0)).awaitStalled();
    byte[] second = StoreFixture.bytes(6, 30_000);
    f.put("bkt", "k", second); // commits, then collects the first version's shards
    stalls.forEach(FaultyRepository.Stall::release);
    assertThat(reading.get()).isEqualTo(second);
  }

  @Test
  void overlappingPuts_whenTheFirstCommitsLast_theFirstIsNewest() throws Exception {
    // s3-tests' atomic dual write: a PUT of B's starts, a PUT of A's of the same key runs from
    // start to end while it uploads, then the B's finish. B was acknowledged last, so B is newest.
    f.store.createBucket("bkt");
    byte[] b = StoreFixture.bytes(10, 40_000);
    byte[] a = StoreFixture.bytes(11, 40_000);
    java.util.concurrent.CountDownLatch halfway = new java.util.concurrent.CountDownLatch(1);
    java.util.concurrent.CountDownLatch goOn = new java.util.concurrent.CountDownLatch(1);
    java.io.InputStream slowB =
        new java.io.FilterInputStream(new ByteArrayInputStream(b)) {
          private int served;

          @Override
          public int read(byte[] buffer, int off, int len) throws java.io.IOException {
            if (served >= b.length / 2 && halfway.getCount() > 0) {
              halfway.countDown();
              try {
                goOn.await();
              } catch (InterruptedException e) {
                throw new java.io.InterruptedIOException();
              }
            }
            int n = super.read(buffer, off, Math.min(len, 1024));
            served += Math.max(0, n);
            return n;
          }
        };
    CompletableFuture<VersionMeta> first =
        CompletableFuture.supplyAsync(
            () -> f.store.put("bkt", "k", slowB, b.length, ObjectStore.PutOptions.defaults()));
    halfway.await();
    VersionMeta second = f.put("bkt", "k", a);
    assertThat(f.get("bkt", "k")).isEqualTo(a);
    goOn.countDown();
    VersionMeta last = first.get();
    f.store.awaitCollections();

    assertThat(VersionId.newer(last.versionId(), second.versionId())).isTrue();
    assertThat(f.get("bkt", "k")).isEqualTo(b);
    assertThat(f.store.head("bkt", "k").versionId()).isEqualTo(last.versionId());
  }

  @Test
  void failedPut_whoseRollbackMissedRepositoriesThatComeBack_neverBecomesVisible() {
    // A PUT whose commit reached two repositories, fewer than the write quorum of 4, answered 503;
    // its rollback could not reach those two (they went away right after taking the record). When
    // they come back, the record they still hold is not a version: the key reads as before, in
    // GET, HEAD, LIST and DELETE, and heal collects the leftover instead of spreading it.
    f.store.createBucket("bkt");
    byte[] before = StoreFixture.bytes(20, 20_000);
    f.put("bkt", "k", before);
    Pattern entries =
        Pattern.compile(
            Pattern.quote(Layout.indexKeyPrefix("bkt", f.store.context().nameKey("bkt", "k")))
                + ".*");
    for (int slot = 2; slot < 6; slot++) {
      f.faulty.get(slot).failKeys(entries, RepositoryException.Kind.UNAVAILABLE);
    }
    for (int slot = 0; slot < 2; slot++) {
      f.faulty.get(slot).failOperation(Operation.DELETE, RepositoryException.Kind.UNAVAILABLE);
    }
    assertInsufficientShards(() -> f.put("bkt", "k", StoreFixture.bytes(21, 30_000)));
    f.faulty.forEach(FaultyRepository::clearFaults);

    for (ErasureStore store : List.of(f.store, f.reopen())) {
      assertThat(f.get("bkt", "k")).isEqualTo(before);
      assertThat(store.head("bkt", "k").sizeBytes()).isEqualTo(before.length);
      assertThat(store.list("bkt", new ObjectStore.ListRequest("", null, "", 10)).objects())
          .extracting(VersionMeta::sizeBytes)
          .containsExactly((long) before.length);
    }
    HealReport report = Healer.heal(f.store, HealOptions.defaults());
    assertThat(report.unrecoverable()).isEmpty();
    assertThat(f.get("bkt", "k")).isEqualTo(before);
    f.store.delete("bkt", "k");
    assertThatThrownBy(() -> f.store.head("bkt", "k"))
        .isInstanceOfSatisfying(
            StoreException.class,
            e -> assertThat(e.code()).isEqualTo(StoreException.Code.NO_SUCH_KEY));
  }

  @ParameterizedTest(name = "settleTime {0} s")
  @ValueSource(ints = {0, 60})
  void overwrite_keepsTheSupersededVersionOnEveryRepositoryUntilTheNewOneSettled(
      int settleSeconds) {
    // A reader's listings are taken one repository at a time; one taken before a commit shows the
    // old version only, one taken after shows the new one. Unless the old one stays on a write
    // quorum meanwhile, neither is on enough listings to count, and the key would be left out.
    TestArray.Builder config =
        TestArray.builder(f.config.geometry())
            .blockBytes(f.config.blockBytes())
            .minPartBytes(f.config.minPartBytes())
            .slowShardTimeout(f.config.slowShardTimeout())
            .gcGrace(Duration.ZERO)
            .settleTime(Duration.ofSeconds(settleSeconds));
    try (StoreFixture g = new StoreFixture(config)) {
      g.store.createBucket("bkt");
      VersionMeta old = g.put("bkt", "k", StoreFixture.bytes(30, 20_000));
      g.put("bkt", "k", StoreFixture.bytes(31, 30_000)); // and waits for due collections
      String entry = g.store.context().indexEntry("bkt", "k", old.versionId());
      long holding = g.memories.stream().filter(m -> m.head(entry).isPresent()).count();

      assertThat(holding).isEqualTo(settleSeconds == 0 ? 0 : 6);
    }
  }

  private static void assertInsufficientShards(Runnable call) {
    assertThatThrownBy(call::run)
        .isInstanceOfSatisfying(
            StoreException.class,
            e -> assertThat(e.code()).isEqualTo(StoreException.Code.INSUFFICIENT_SHARDS));
  }
}
