package io.racs.proxy.store;

import static io.racs.proxy.store.RegisterLinearizability.Op.read;
import static io.racs.proxy.store.RegisterLinearizability.Op.write;
import static io.racs.proxy.store.RegisterLinearizability.PENDING;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.store.RegisterLinearizability.Op;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Proves the register linearizability checker on small hand-written histories: it accepts the
 * linearizable ones (sequential, overlapping writes read either way, a write of unknown outcome
 * seen or not) and rejects the others (a stale read, a value never written, two reads that see an
 * overlapping write and then the value before it, a read of a deleted key's old value), and that it
 * stays fast on a long history of overlapping operations.
 */
class RegisterLinearizabilityTest {
  private static Optional<String> check(String initial, Op... ops) {
    return RegisterLinearizability.check(List.of(ops), initial, 100_000);
  }

  @Test
  void check_sequentialWritesAndReads_isLinearizable() {
    assertThat(
            check(
                null,
                read("c1", null, 0, 1),
                write("c1", "a", 2, 3),
                read("c2", "a", 4, 5),
                write("c2", null, 6, 7),
                read("c1", null, 8, 9)))
        .isEmpty();
  }

  @Test
  void check_overlappingWritesReadInEitherOrder_isLinearizable() {
    Op a = write("c1", "a", 0, 10);
    Op b = write("c2", "b", 5, 15);
    assertThat(check(null, a, b, read("c3", "a", 20, 25))).isEmpty();
    assertThat(check(null, a, b, read("c3", "b", 20, 25))).isEmpty();
    // A read overlapping both may see the value before them, too.
    assertThat(check("x", a, b, read("c3", "x", 1, 4))).isEmpty();
  }

  @Test
  void check_staleRead_isNotLinearizable() {
    assertThat(check(null, write("c1", "a", 0, 1), write("c1", "b", 2, 3), read("c2", "a", 4, 5)))
        .get()
        .asString()
        .contains("not linearizable")
        .contains("c2 read a");
  }

  @Test
  void check_valueNeverWritten_isNotLinearizable() {
    assertThat(check(null, write("c1", "a", 0, 10), read("c2", "z", 2, 12))).isPresent();
  }

  @Test
  void check_newThenOldDuringAnOverlappingWrite_isNotLinearizable() {
    // Once a read saw b, a read that begins after it returned may not see the value before b.
    assertThat(
            check("a", write("c1", "b", 0, 100), read("c2", "b", 10, 20), read("c3", "a", 30, 40)))
        .isPresent();
    assertThat(
            check("a", write("c1", "b", 0, 100), read("c2", "a", 10, 20), read("c3", "b", 30, 40)))
        .isEmpty();
  }

  @Test
  void check_readOfAValueADeleteAcknowledgedBeforeHid_isNotLinearizable() {
    assertThat(check(null, write("c1", "a", 0, 1), write("c2", null, 2, 3), read("c1", "a", 4, 5)))
        .isPresent();
  }

  @Test
  void check_writeOfUnknownOutcome_mayBeSeenOrNot_butNotUnseenAfterSeen() {
    Op unknown = write("c1", "a", 0, PENDING);
    assertThat(check(null, unknown, read("c2", "a", 5, 6))).isEmpty();
    assertThat(check(null, unknown, read("c2", null, 5, 6), read("c2", null, 7, 8))).isEmpty();
    assertThat(check(null, unknown, read("c2", "a", 5, 6), read("c2", null, 7, 8))).isPresent();
    // Not before it was invoked.
    assertThat(check(null, read("c2", "a", 0, 1), write("c1", "a", 2, PENDING))).isPresent();
  }

  @Test
  void check_longHistoryOfOverlappingClients_staysWithinItsStates() {
    List<Op> ops = new ArrayList<>();
    long t = 0;
    for (int i = 0; i < 400; i++) {
      // Four clients at a time, each write overlapping the next three operations.
      ops.add(write("c" + (i % 4), "v" + i, t, t + 35));
      ops.add(read("r" + (i % 4), "v" + i, t + 36, t + 40));
      t += 10;
    }
    assertThat(RegisterLinearizability.check(ops, null, 200_000)).isEmpty();
  }

  @Test
  void check_whenTheSearchOutgrowsItsBound_throwsRatherThanGuessing() {
    List<Op> ops = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      ops.add(write("c" + i, "v" + i, 0, 100));
    }
    ops.add(read("r", "none of them", 200, 201));
    assertThatThrownBy(() -> RegisterLinearizability.check(ops, null, 1000))
        .isInstanceOf(IllegalStateException.class);
  }
}
