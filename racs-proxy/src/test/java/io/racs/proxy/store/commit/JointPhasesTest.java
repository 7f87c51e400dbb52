package io.racs.proxy.store.commit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.codec.Geometry;
import io.racs.proxy.store.api.StoreConfig;
import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.array.IndexMerge;
import io.racs.proxy.store.array.IndexQuorum;
import io.racs.proxy.store.array.IndexQuorum.Phase;
import io.racs.proxy.store.array.StoreContext;
import io.racs.proxy.testing.ReshapePhases;
import io.racs.repos.Repository;
import io.racs.repos.RepositoryException;
import io.racs.repos.decorator.FaultyRepository;
import io.racs.repos.decorator.Operation;
import io.racs.repos.memory.MemoryRepository;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Proves that the store's record writes and listings follow the index quorum's phase
 * (docs/reshape.md §4) over twelve memory repositories, issue #38's reshapes 4x2 over slots 0..5 ->
 * 6x3 over 0..8 -> 4x2 over 6..11: {@link QuorumWriter} writes where the phase says and is
 * acknowledged only on each set's quorum; a record written in a phase, on as few slots as its
 * acknowledgement allows, counts and is listed for a reader in the adjacent phase; and a listing
 * the deciding set does not answer is refused rather than answered.
 */
class JointPhasesTest {
  private static final List<Integer> SIX = ids(0, 6);
  private static final List<Integer> NINE = ids(0, 9);

  private final List<FaultyRepository> repositories = new ArrayList<>();
  private final StoreContext context;
  private final QuorumWriter writer;

  JointPhasesTest() {
    for (int i = 0; i < 12; i++) {
      repositories.add(new FaultyRepository(MemoryRepository.create("r" + i)));
    }
    context =
        new StoreContext(
            StoreConfig.builder(Geometry.of(4, 2)).build(),
            List.<Repository>copyOf(repositories),
            "array");
    writer =
        new QuorumWriter(
            context, new Collector(context, Executors.newVirtualThreadPerTaskExecutor()));
  }

  private static List<Integer> ids(int from, int to) {
    return IntStream.range(from, to).boxed().toList();
  }

  @AfterEach
  void close() {
    context.array.close();
  }

  private void failPuts(List<Integer> slots) {
    for (int slot = 0; slot < repositories.size(); slot++) {
      repositories.get(slot).clearFaults();
      if (slots.contains(slot)) {
        repositories.get(slot).failOperation(Operation.PUT, RepositoryException.Kind.UNAVAILABLE);
      }
    }
  }

  private List<Integer> holders(String name) {
    List<Integer> holding = new ArrayList<>();
    for (int slot = 0; slot < repositories.size(); slot++) {
      if (repositories.get(slot).head(name).isPresent()) {
        holding.add(slot);
      }
    }
    return holding;
  }

  @Test
  void write_inJoint_goesToBothSetsAndNeedsTheQuorumOfEach() {
    context.array.index(IndexQuorum.joint(Phase.JOINT, SIX, 4, NINE, 6));
    writer.write("racs/t/a", new byte[] {1}, "a");
    assertThat(holders("racs/t/a")).isEqualTo(NINE);

    // Slots 5..8 failing leave the old set its quorum (5 of 6) but the new one 5 of 9: refused.
    failPuts(ids(5, 9));
    assertThatThrownBy(() -> writer.write("racs/t/b", new byte[] {2}, "b"))
        .isInstanceOf(StoreException.class)
        .hasMessageContaining("written on 5 of 9 repositories");
    failPuts(List.of());
    context.array.index(IndexQuorum.joint(Phase.DONE, SIX, 4, NINE, 6));
    writer.write("racs/t/c", new byte[] {3}, "c");
    assertThat(holders("racs/t/c")).isEqualTo(NINE);
  }

  @Test
  void recordsAcknowledgedInAPhase_countAndAreListedInTheAdjacentOne() {
    for (List<IndexQuorum> phases : ReshapePhases.issue38()) {
      for (int p = 0; p + 1 < phases.size(); p++) {
        seenAcross(phases.get(p), phases.get(p + 1));
        seenAcross(phases.get(p + 1), phases.get(p));
      }
    }
  }

  private int written;

  /**
   * Writes a record in {@code writer}'s phase with as many of its slots failing as it tolerates,
   * the failures put where they hurt {@code reader} most (on its deciding set first), then lists in
   * {@code reader}'s phase with every slot that lacks the record answering.
   */
  private void seenAcross(IndexQuorum writerPhase, IndexQuorum readerPhase) {
    String name = "racs/t/" + written++;
    List<Integer> failing = new ArrayList<>();
    for (int slot : readerPhase.decidingSlots()) {
      if (writerPhase.writeSlots().contains(slot)) {
        failing.add(slot);
      }
    }
    // Fail as many of them as the write still survives.
    while (!failing.isEmpty()) {
      List<Integer> left = new ArrayList<>(writerPhase.writeSlots());
      left.removeAll(failing);
      if (writerPhase.acknowledged(left)) {
        break;
      }
      failing.remove(failing.size() - 1);
    }
    context.array.index(writerPhase);
    failPuts(failing);
    writer.write(name, new byte[] {7}, name);
    failPuts(List.of());

    context.array.index(readerPhase);
    IndexMerge merge = new IndexMerge(context.array, name, "", 10);
    IndexMerge.Entry e = merge.next();
    String what = writerPhase + " written on " + holders(name) + ", read in " + readerPhase;
    assertThat(e).as(what).isNotNull();
    assertThat(e.name()).isEqualTo(name);
    context.requireReadQuorum(merge, what);
    assertThat(merge.index().mayCount(VersionResolver.possibleHolders(merge, e))).as(what).isTrue();
  }

  @Test
  void listing_whenTheDecidingSetDoesNotAnswerItsReadQuorum_isRefused() {
    context.array.index(IndexQuorum.joint(Phase.SWITCHED, SIX, 4, NINE, 6));
    writer.write("racs/t/x", new byte[] {1}, "x");
    // The deciding new set's read quorum is four of its nine: slots 3..8 down leave three.
    for (int slot : ids(3, 9)) {
      repositories.get(slot).outage(true);
    }
    IndexMerge merge = new IndexMerge(context.array, "racs/t/", "", 10);
    while (merge.next() != null) {
      // drain
    }
    assertThatThrownBy(() -> context.requireReadQuorum(merge, "list"))
        .isInstanceOf(StoreException.class)
        .hasMessageContaining("list: 3 of 9 repositories answered (need 4)");
  }
}
