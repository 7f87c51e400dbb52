package io.racs.proxy.users;

import java.util.function.Consumer;

/**
 * How a change of the stored users reaches every proxy of the array at once, instead of at its next
 * periodic re-read: whoever writes a user record ({@link UserAccounts}) {@link #announce announces}
 * it, and every proxy's {@link UserDirectory} {@link #listen listens}, re-reads the users when it
 * hears, and then acknowledges. With coordination this is a ZooKeeper node and the proxies' member
 * nodes ({@code io.racs.proxy.coord}): the announcement returns once every live proxy has
 * acknowledged, or after a bound; without, {@link #NONE}, and the directory relies on its periodic
 * re-read and on re-reading when it meets an unknown key.
 *
 * <p>Best effort by contract: an announcement that cannot be made (ZooKeeper unreachable) is not an
 * error of the change it announces, which is written already; the proxies then see the change at
 * their next periodic re-read. So an implementation never throws from {@link #announce}, and a
 * listener must not depend on hearing every announcement.
 *
 * <p>Implementations are thread-safe. Listeners are called on the implementation's own thread (for
 * ZooKeeper, Curator's event thread); they must return quickly and never block.
 */
public interface UserChanges {
  /** No announcements: each proxy finds changes by re-reading. */
  UserChanges NONE =
      new UserChanges() {
        @Override
        public void announce() {}

        @Override
        public void listen(Consumer<Runnable> changed) {}

        @Override
        public String toString() {
          return "UserChanges.NONE";
        }
      };

  /**
   * Tells every proxy (this one included) that the stored users changed: called after the change is
   * written. Never throws; returns once every live proxy has acknowledged (re-read the users), or
   * the announcement has failed, or its bound has passed.
   */
  void announce();

  /**
   * Runs {@code changed} whenever any proxy announces a change, and whenever announcements may have
   * been missed (the ZooKeeper session was interrupted), from now until the implementation closes.
   * It is handed the acknowledgement, to run once the users have been re-read since (never, when
   * that re-read failed).
   */
  void listen(Consumer<Runnable> changed);
}
