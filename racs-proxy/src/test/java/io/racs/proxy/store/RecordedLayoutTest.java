package io.racs.proxy.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.format.ArrayRecord;
import io.racs.proxy.store.format.Layout;
import io.racs.proxy.store.heal.HealOptions;
import io.racs.proxy.store.heal.Healer;
import io.racs.proxy.store.reshape.ArrayRecords;
import io.racs.proxy.testing.TestArray;
import io.racs.repos.memory.MemoryRepository;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Proves that every opening of the array reads the array record (docs/reshape.md §2): a store
 * opened with the layout a completed reshape left behind is refused in one line naming the new
 * geometry and the repositories added, retired or moved, read-only as well; one opened with the
 * layout the record says the array has (before a running reshape, after an aborted one) opens;
 * {@code inspect} opens whatever the record says. And that heal copies an array record to the
 * repositories that lack it, but not one a write quorum never held.
 */
class RecordedLayoutTest {
  private static final List<String> SIX = names(6);

  private TestArray array;
  private ArrayRecords records;

  private static List<String> names(int n) {
    return IntStream.range(0, n).mapToObj(i -> "mem" + i).toList();
  }

  @BeforeEach
  void open() {
    array = TestArray.builder("4x2").settled().open();
    array.store().createBucket("bkt");
    records = new ArrayRecords(array.store());
  }

  @AfterEach
  void close() {
    array.close();
  }

  private ArrayRecord record(ArrayRecord.State state, String geometry, List<String> to) {
    records.current();
    ArrayRecord r =
        new ArrayRecord(
            1,
            records.arrayId(),
            records.nextId(),
            state,
            new ArrayRecord.Generation(0, "4x2", SIX),
            new ArrayRecord.Generation(1, geometry, to),
            array.config().clock().millis(),
            50,
            null,
            null,
            null);
    records.write(r);
    return r;
  }

  @Test
  void open_whenReshapedToMoreRepositories_refusesNamingTheAdded() {
    record(ArrayRecord.State.COMPLETE, "6x3", names(9));

    assertThatThrownBy(() -> array.reopen())
        .isInstanceOf(StoreException.class)
        .satisfies(
            e ->
                assertThat(((StoreException) e).code()).isEqualTo(StoreException.Code.INCONSISTENT))
        .hasMessageStartingWith(
            "the array was reshaped to 6x3 over 9 repositories (added: mem6 (slot 6), mem7 (slot"
                + " 7), mem8 (slot 8)) on 20")
        .hasMessageEndingWith("; this file is 4x2 over 6: start with the new configuration")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    assertThatThrownBy(() -> ErasureStore.openReadOnly(array.config(), array.repositories()))
        .hasMessageStartingWith("the array was reshaped to 6x3 over 9 repositories");
    // The repositories are left as they were: the open store still serves.
    assertThat(array.store().bucketExists("bkt")).isTrue();
  }

  @Test
  void open_whenReshapedOverTheSameRepositories_namesGeometryAndMoves() {
    List<String> moved = List.of("mem1", "mem0", "mem2", "mem3", "mem4", "mem5");
    record(ArrayRecord.State.COMPLETE, "3x3", moved);
    assertThatThrownBy(() -> array.reopen())
        .hasMessageStartingWith(
            "the array was reshaped to 3x3 over 6 repositories (moved: mem1 (slot 1 -> 0), mem0"
                + " (slot 0 -> 1)) on ");

    record(ArrayRecord.State.COMPLETE, "3x3", SIX);
    assertThatThrownBy(() -> array.reopen())
        .hasMessageStartingWith(
            "the array was reshaped to 3x3 over 6 repositories (the same repositories) on ");
  }

  @Test
  void open_whenRetiredRepositories_namesThem() {
    record(ArrayRecord.State.COMPLETE, "3x2", List.of("mem0", "mem1", "mem2", "mem4", "mem5"));
    assertThatThrownBy(() -> array.reopen())
        .hasMessageContaining(
            "reshaped to 3x2 over 5 repositories (retired: mem3; moved: mem4 (slot 4 -> 3), mem5"
                + " (slot 5 -> 4))");
  }

  @Test
  void open_whenReshapeRunningOrAborted_takesTheLayoutBeforeIt() {
    ArrayRecord running = record(ArrayRecord.State.RUNNING, "6x3", names(9));
    assertThat(array.reopen().bucketExists("bkt")).isTrue();

    records.current();
    records.write(running.next(records.nextId(), ArrayRecord.State.ABORTED, null));
    assertThat(array.reopen().bucketExists("bkt")).isTrue();
  }

  @Test
  void inspect_whenReshaped_opensToReadTheRecord() {
    record(ArrayRecord.State.COMPLETE, "6x3", names(9));
    try (ErasureStore inspected = ErasureStore.inspect(array.config(), array.repositories())) {
      assertThat(new ArrayRecords(inspected).current().orElseThrow().state())
          .isEqualTo(ArrayRecord.State.COMPLETE);
    }
  }

  @Test
  void heal_whenArrayRecordMissingSomewhere_copiesItThere() {
    ArrayRecord r = record(ArrayRecord.State.RUNNING, "6x3", names(9));
    String name = Layout.arrayRecord(r.versionId());
    List<MemoryRepository> memories = array.memories();
    // Two of six lost it: four (the write quorum) still hold it, so it counts and heal copies it.
    memories.get(0).delete(name);
    memories.get(5).delete(name);

    assertThat(Healer.heal(array.store(), HealOptions.defaults()).complete()).isTrue();

    for (MemoryRepository memory : memories) {
      assertThat(memory.head(name).isPresent()).as(memory.name()).isTrue();
    }
  }

  @Test
  void heal_whenArrayRecordBelowWriteQuorum_doesNotCopyIt() {
    ArrayRecord r = record(ArrayRecord.State.RUNNING, "6x3", names(9));
    String name = Layout.arrayRecord(r.versionId());
    List<MemoryRepository> memories = array.memories();
    for (int slot = 0; slot < 3; slot++) {
      memories.get(slot).delete(name); // on 3 < 4: what a failed write leaves
    }

    Healer.heal(array.store(), HealOptions.defaults());

    for (int slot = 0; slot < 3; slot++) {
      assertThat(memories.get(slot).head(name).isPresent()).isFalse();
    }
    assertThat(records.current()).isEmpty();
  }
}
