package io.racs.proxy.store.array;

import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.format.Layout;
import io.racs.repos.RepositoryException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * What operators are told about the array's repositories: each slot's state ({@link #report()}),
 * and why a write lost its quorum when full disks are the cause ({@link #writing}).
 *
 * <p>Both read what the slots' guards remember ({@link GuardedRepository#refusal()}, {@link
 * GuardedRepository#writeFailure()}). Not to be confused with {@link SlotBreaker}, the circuit
 * breaker that keeps requests from waiting on a stalled repository.
 *
 * <p>Thread-safe.
 */
public final class ArrayHealth {
  private final StoreContext context;
  private final ArraySlots slots;

  public ArrayHealth(StoreContext context, ArraySlots slots) {
    this.context = context;
    this.slots = slots;
  }

  /**
   * Each slot's state: every repository is probed (one cheap call each, all at once, no longer than
   * the slow-shard timeout), and a slot kept out of the array, or adopted and not yet filled, says
   * so.
   */
  public List<RepositoryHealth> report() {
    List<RepositoryArray.Outcome<Boolean>> probes =
        context.array.fanOut(
            (slot, repository) -> {
              repository.probe();
              if (slots.get(slot).writeFailure() != null) {
                // Full and read-only disks answer probes: whether they take writes again is only
                // seen by writing. A success clears the failure; another failure renews it.
                RepositoryArray.putBytes(repository, Layout.HEALTH, new byte[] {'o', 'k'});
              }
              return true;
            });
    List<RepositoryHealth> health = new ArrayList<>();
    for (RepositoryArray.Outcome<Boolean> probe : probes) {
      GuardedRepository guard = slots.get(probe.slot());
      String refusal = guard.refusal();
      RepositoryHealth.State state;
      String reason;
      if (refusal != null) {
        state = RepositoryHealth.State.UNAVAILABLE;
        reason = refusal;
      } else if (!probe.ok()) {
        state = stateOf(probe.failure());
        reason = probe.failure().getMessage();
      } else if (guard.writeFailure() != null) {
        state = stateOf(new RepositoryException(guard.writeFailure().kind(), ""));
        reason = "writes fail: " + guard.writeFailure().message();
      } else if (guard.pending()) {
        state = RepositoryHealth.State.REBUILDING;
        reason = "adopted as a replacement; heal has not filled it yet";
      } else {
        state = RepositoryHealth.State.UP;
        reason = "";
      }
      health.add(new RepositoryHealth(probe.slot(), guard.name(), state, reason));
    }
    return health;
  }

  /** {@link #writing(Supplier)} for a write that returns nothing. */
  public void writing(Runnable write) {
    writing(
        () -> {
          write.run();
          return null;
        });
  }

  /**
   * Runs a write; when it lost its quorum because repositories refused it for lack of space (the
   * failures of the others alone would not have broken the quorum), says so: {@code
   * INSUFFICIENT_STORAGE}, which waiting will not mend, rather than a lost quorum, which it may.
   */
  public <T> T writing(Supplier<T> write) {
    long started = System.nanoTime();
    try {
      return write.get();
    } catch (StoreException e) {
      if (e.code() != StoreException.Code.INSUFFICIENT_SHARDS) {
        throw e;
      }
      Set<Integer> failed = new TreeSet<>();
      Set<Integer> full = new TreeSet<>();
      for (StoreException.ShardFailure failure : e.failures()) {
        failed.add(failure.slot());
        GuardedRepository.WriteFailure last = slots.get(failure.slot()).writeFailure();
        if (last != null
            && last.kind() == RepositoryException.Kind.FULL
            && last.atNanos() - started >= 0) {
          full.add(failure.slot());
        }
      }
      int tolerated = context.index().tolerated();
      if (full.isEmpty() || failed.size() - full.size() > tolerated) {
        throw e;
      }
      throw new StoreException(
          StoreException.Code.INSUFFICIENT_STORAGE,
          full.size()
              + " of "
              + context.array.size()
              + " repositories are out of space (slots "
              + full
              + "); a write needs "
              + context.index().writeQuorum(),
          e.failures(),
          e);
    }
  }

  private static RepositoryHealth.State stateOf(Throwable failure) {
    if (!(failure instanceof RepositoryException e)) {
      return RepositoryHealth.State.FAILING;
    }
    return switch (e.kind()) {
      case UNAVAILABLE, TIMEOUT -> RepositoryHealth.State.UNAVAILABLE;
      case FULL -> RepositoryHealth.State.FULL;
      case ACCESS_DENIED -> RepositoryHealth.State.ACCESS_DENIED;
      default -> RepositoryHealth.State.FAILING;
    };
  }
}
