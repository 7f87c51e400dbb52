package io.racs.proxy.store.reshape;

import io.racs.proxy.store.array.ArrayHealth;
import io.racs.proxy.store.array.RepositoryHealth;
import io.racs.proxy.store.array.StoreContext;
import io.racs.proxy.store.heal.Maintenance;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * Whether every slot of the array is usable for the mover (docs/reshape.md §5): none suspended, and
 * each writable by {@link ArrayHealth}'s report (asked at most every 2 s); while one is not, the
 * mover pauses, says so once, and notes it in its checkpoint. A pause is never a failure.
 *
 * <p>Not thread-safe: one mover run.
 */
final class SlotWatch {
  private static final Duration HEALTH_EVERY = Duration.ofSeconds(2);

  private final Maintenance store;
  private final StoreContext context;
  private final Mover.Options options;
  private final MoveLedger ledger;
  private long lastHealthNanos;

  SlotWatch(Maintenance store, Mover.Options options, MoveLedger ledger) {
    this.store = store;
    this.context = store.context();
    this.options = options;
    this.ledger = ledger;
  }

  /**
   * Waits while a slot of the array is not usable, saying so once; returns null once every one is,
   * or what it is paused on when told to stop meanwhile.
   */
  String awaitUsable() {
    String said = null;
    while (true) {
      String down = unusable(false);
      if (down == null) {
        if (said != null) {
          options.progress().accept("reshape: resumed: every slot is usable again");
          ledger.noteQuietly(null, null);
          ledger.restartRate();
        }
        return null;
      }
      if (!down.equals(said)) {
        options.progress().accept("reshape: paused: " + down);
        ledger.noteQuietly("paused: " + down, null);
        said = down;
      }
      if (options.stop().getAsBoolean()) {
        return down;
      }
      LockSupport.parkNanos(options.pause().toNanos()); // pacing a retry, not a handoff
      lastHealthNanos = 0; // look again now
    }
  }

  /**
   * The first slot not usable now, described; null when every one is. The health report is asked at
   * most every 2 s, unless {@code afresh}.
   */
  String unusable(boolean afresh) {
    for (int slot : context.array.ids()) {
      String unusable = context.array.health().unusable(slot);
      if (unusable != null) {
        return "slot " + slot + " is " + unusable;
      }
    }
    long now = System.nanoTime();
    if (!afresh && lastHealthNanos != 0 && now - lastHealthNanos < HEALTH_EVERY.toNanos()) {
      return null;
    }
    lastHealthNanos = now;
    for (RepositoryHealth health : new ArrayHealth(context, store.slots()).report()) {
      if (!health.writable()) {
        return "slot "
            + health.slot()
            + " ("
            + health.name()
            + ") is "
            + health.state()
            + (health.reason().isEmpty() ? "" : ": " + health.reason());
      }
    }
    return null;
  }
}
