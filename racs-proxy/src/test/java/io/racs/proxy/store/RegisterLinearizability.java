package io.racs.proxy.store;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Checks that a history of operations on one register (a key: PUT writes a value, DELETE writes
 * "absent", GET reads) is linearizable: that there is one order of the operations, consistent with
 * their real-time order (an operation that returned before another was invoked comes first), in
 * which every read returns the value of the last write before it.
 *
 * <p>The search is Wing and Gong's, with Lowe's memoization as Porcupine uses it: it extends a
 * linearized prefix by any operation that no pending operation's return precedes, applies it to the
 * register, and never revisits a (set of operations linearized, register value) state. A write
 * whose outcome is unknown (it failed, so it may or may not have taken effect) has no return: it
 * may be linearized at any point after its invocation, including after every other operation, where
 * it changes nothing a read saw. Failed reads tell nothing and are left out by the caller.
 */
final class RegisterLinearizability {
  /** No return: the operation's outcome is unknown. */
  static final long PENDING = Long.MAX_VALUE;

  /**
   * One operation: a write of {@code value} (null: a delete) or a read that returned it, invoked
   * and returned at the given {@link System#nanoTime()} readings.
   */
  record Op(String client, boolean write, String value, long invokeNanos, long returnNanos) {
    Op {
      if (returnNanos < invokeNanos) {
        throw new IllegalArgumentException(
            "returnNanos: " + returnNanos + " (expected: >= invokeNanos " + invokeNanos + ")");
      }
    }

    static Op write(String client, String value, long invokeNanos, long returnNanos) {
      return new Op(client, true, value, invokeNanos, returnNanos);
    }

    static Op read(String client, String value, long invokeNanos, long returnNanos) {
      return new Op(client, false, value, invokeNanos, returnNanos);
    }

    @Override
    public String toString() {
      return client
          + (write ? " write " : " read ")
          + (value == null ? "<absent>" : value)
          + " ["
          + invokeNanos
          + ", "
          + (returnNanos == PENDING ? "?" : returnNanos)
          + "]";
    }
  }

  private record State(BitSet done, String value) {}

  private RegisterLinearizability() {}

  /**
   * Empty if {@code history} is linearizable from {@code initial} (null: absent); otherwise why
   * not: the longest linearizable prefix found and the operations none of which could follow it.
   *
   * @param maxStates the most states searched before giving up (an exception, not a verdict)
   */
  static Optional<String> check(List<Op> history, String initial, int maxStates) {
    List<Op> ops = new ArrayList<>(history);
    ops.sort(Comparator.comparingLong(Op::invokeNanos));
    int n = ops.size();
    Set<State> seen = new HashSet<>();
    Deque<State> stack = new ArrayDeque<>();
    State start = new State(new BitSet(n), initial);
    seen.add(start);
    stack.push(start);
    State deepest = start;
    while (!stack.isEmpty()) {
      State state = stack.pop();
      int linearized = state.done().cardinality();
      if (linearized == n) {
        return Optional.empty();
      }
      if (linearized > deepest.done().cardinality()) {
        deepest = state;
      }
      // The next operation must have been invoked before every pending operation returned.
      long firstReturn = PENDING;
      for (int i = state.done().nextClearBit(0); i < n; i = state.done().nextClearBit(i + 1)) {
        firstReturn = Math.min(firstReturn, ops.get(i).returnNanos());
      }
      for (int i = state.done().nextClearBit(0); i < n; i = state.done().nextClearBit(i + 1)) {
        Op op = ops.get(i);
        if (op.invokeNanos() > firstReturn) {
          break; // sorted by invocation: no later one can go next either
        }
        if (!op.write() && !Objects.equals(op.value(), state.value())) {
          continue;
        }
        BitSet done = (BitSet) state.done().clone();
        done.set(i);
        State next = new State(done, op.write() ? op.value() : state.value());
        if (seen.add(next)) {
          if (seen.size() > maxStates) {
            throw new IllegalStateException(
                "more than " + maxStates + " states for " + n + " operations: history too large");
          }
          stack.push(next);
        }
      }
    }
    List<Op> rest = new ArrayList<>();
    for (int i = deepest.done().nextClearBit(0); i < n; i = deepest.done().nextClearBit(i + 1)) {
      rest.add(ops.get(i));
    }
    return Optional.of(
        "not linearizable: "
            + deepest.done().cardinality()
            + " of "
            + n
            + " operations linearize (register then "
            + (deepest.value() == null ? "<absent>" : deepest.value())
            + "), none of the rest can follow: "
            + rest.subList(0, Math.min(rest.size(), 12)));
  }
}
