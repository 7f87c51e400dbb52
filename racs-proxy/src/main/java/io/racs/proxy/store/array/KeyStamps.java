package io.racs.proxy.store.array;

import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.commit.CurrentVersions;

/**
 * What lets a proxy answer which version of a key is current without listing the key again: a stamp
 * per slot of keys, kept by a coordination service that every proxy of the array shares (ZooKeeper:
 * {@code io.racs.proxy.coord.ZooKeeperCoordination}). Every write of a key's index entries (a
 * version, a delete marker, a version's removal record, heal's copies of them) registers in its
 * slot before its first repository call and leaves when all of them have ended; both change the
 * slot's stamp. A reader that resolved a key from a listing while its slot was quiet (no write
 * registered) and finds the same stamp later knows that no write of any key in the slot began
 * since, so the version it resolved is still the current one ({@link CurrentVersions}).
 *
 * <p>Keys fall in {@link #SLOTS} slots per bucket by the hash of their index prefix; a write of one
 * key makes the next read of every key in its slot list again, nothing worse.
 *
 * <p>Implementations are thread-safe.
 */
public interface KeyStamps {
  /** How many slots the keys of one bucket fall in. */
  int SLOTS = 1024;

  /** No coordination: no stamp can be read, so every read lists. */
  KeyStamps NONE =
      new KeyStamps() {
        @Override
        public Stamp stamp(String bucket, int slot) {
          return null;
        }

        @Override
        public Registration writing(String bucket, int slot) {
          return Registration.NONE;
        }
      };

  /**
   * The stamp of a slot now, read so that it reflects every registration and departure that ended
   * before this call began, through any proxy; null when it cannot be read now (not connected).
   */
  Stamp stamp(String bucket, int slot);

  /**
   * Registers a write of the index entries of a key in {@code slot}, before the write's first
   * repository call; closing the registration (after its last repository call ended) leaves.
   *
   * @throws StoreException {@code COORDINATION_UNAVAILABLE} when the write cannot be registered
   *     now; then nothing may be written
   */
  Registration writing(String bucket, int slot);

  /**
   * A slot's state.
   *
   * @param changed an id of the slot's newest registration or departure, unique and growing across
   *     the coordination service's life; -1 when no write ever registered in the slot
   * @param quiet whether no write is registered in the slot
   * @param session which unbroken view of the coordination service the stamp was read in (with
   *     ZooKeeper, the session's id): stamps read in different ones never compare equal, since a
   *     service that lost its state (a ZooKeeper started again without its data) counts its ids
   *     from the start again and has forgotten the slots written
   */
  record Stamp(long changed, boolean quiet, long session) {}

  /** A registered write; {@link #close} leaves. */
  interface Registration extends AutoCloseable {
    /** Nothing registered. */
    Registration NONE = () -> {};

    @Override
    void close();
  }
}
