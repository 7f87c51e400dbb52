package io.racs.proxy.store.array;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * How a change of the array record reaches every proxy at once, and how the mover learns that each
 * has taken it (docs/reshape.md §6): whoever changed the record announces it, every proxy re-reads
 * the record when it hears ({@code RecordedLayout.follow}) and then acknowledges, and the mover's
 * fence ends once every live proxy has acknowledged the record it waits on, or at the fence's end,
 * whichever comes first. With coordination this is the ZooKeeper node {@code /reshape} and the
 * proxies' member nodes ({@code io.racs.proxy.coord}); without, {@link #NONE}: nobody hears, nobody
 * acknowledges, and the fence is waited out.
 *
 * <p>An acknowledgement says the proxy read the array record after it heard the announcement (so
 * takes the layout the record says for every write it begins from then on), and that the versions
 * and delete markers it began writing before that read have ended ({@link WritesInFlight}), so the
 * mover's completing sweep finds them all.
 *
 * <p>Best effort by contract: {@link #announce} never throws. Implementations are thread-safe;
 * listeners are called on the implementation's own thread and must not block.
 */
public interface LayoutChanges {
  /** The wait for every live proxy's acknowledgement of one announcement. */
  @FunctionalInterface
  interface Acknowledgements {
    /** Nobody acknowledges: each wait lasts its whole bound. */
    Acknowledgements NONE =
        atMost -> {
          LockSupport.parkNanos(atMost.toNanos()); // waits out the bound: nobody will answer
          return false;
        };

    /**
     * Waits at most {@code atMost} until every live proxy has acknowledged; says whether all have.
     */
    boolean await(Duration atMost);
  }

  /** No coordination: nobody hears an announcement. */
  LayoutChanges NONE =
      new LayoutChanges() {
        @Override
        public Acknowledgements announce() {
          return Acknowledgements.NONE;
        }

        @Override
        public void listen(Consumer<Runnable> changed) {}

        @Override
        public String toString() {
          return "LayoutChanges.NONE";
        }
      };

  /**
   * Tells every proxy (this one included) that the array record changed, once it is written, and
   * returns the wait for their acknowledgements. Never throws: an announcement that cannot be made
   * is a wait that lasts its whole bound.
   */
  Acknowledgements announce();

  /**
   * Runs {@code changed} whenever any proxy announces a change of the array record, handing it the
   * acknowledgement to run once the record has been read since (never, when that read failed).
   */
  void listen(Consumer<Runnable> changed);
}
