package io.racs.proxy.store.reshape;

import io.racs.proxy.codec.Geometry;
import io.racs.proxy.store.api.StoreConfig;
import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.array.LayoutFreshness;
import io.racs.proxy.store.format.ArrayRecord;
import io.racs.proxy.store.format.VersionId;
import io.racs.proxy.store.heal.Maintenance;
import io.racs.repos.Repository;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The check every opening of the array makes (docs/reshape.md §2): the layout a configuration file
 * gives (its geometry over its repositories, by name, in slot order) must be the one the array
 * record says the array has. A file of another layout is refused in one line naming what differs,
 * such as {@code the array was reshaped to 6x3 over 9 repositories (added: g (slot 6), h (slot 7),
 * i (slot 8)) on 2026-12-02T03:00:00Z; this file is 4x2 over 6: start with the new configuration}.
 *
 * <p>The array's layout is the record's {@code to} once the reshape is complete, and its {@code
 * from} otherwise (running, failed or aborted: no mover has made {@code to} the array yet). An
 * array without a record is as its identity markers say, which {@code Identity} checks.
 */
public final class RecordedLayout {
  private static final Logger LOG = LoggerFactory.getLogger(RecordedLayout.class);

  private RecordedLayout() {}

  /**
   * How often a store re-reads the array record, so that its new writes follow a reshape: a third
   * of the layout ttl (docs/reshape.md §6).
   */
  public static final Duration REFRESH_EVERY = LayoutFreshness.TTL.dividedBy(3);

  /**
   * How long after a reshape was recorded a proxy may still write the layout it starts from: twice
   * the layout ttl ({@link LayoutFreshness#TTL}, 30 s), so that every proxy has re-read the record
   * (every {@link #REFRESH_EVERY}) or refuses new writes ({@link LayoutFreshness}), and has
   * finished the writes it began before. The mover's completing sweep begins no earlier.
   */
  public static final Duration FENCE = LayoutFreshness.TTL.multipliedBy(2);

  /**
   * Re-reads the array record and makes {@code store}'s new writes take the layout it says: a
   * geometry-only reshape's target while it runs or once complete, the configured layout otherwise.
   * A read that succeeds (whatever it finds, no record included) renews the store's trust in its
   * layout ({@link LayoutFreshness#read}); one that fails changes nothing (the next one tries
   * again, and past the ttl new writes are refused).
   *
   * @return whether the array record was read
   */
  public static boolean follow(Maintenance store) {
    try {
      Optional<ArrayRecord> recorded = new ArrayRecords(store).current();
      if (recorded.isPresent()) {
        writeIn(store, recorded.get());
      }
      if (store.context().layoutFreshness.read()) {
        LOG.info("the array record is read again: new writes are accepted again");
      }
      return true;
    } catch (RuntimeException e) {
      if (store.context().layoutFreshness.failed()) {
        LOG.warn(
            "cannot re-read the array record for longer than {} s: new writes are refused (503)"
                + " until it is read again: {}",
            LayoutFreshness.TTL.toSeconds(),
            e.toString());
      } else {
        LOG.debug("cannot re-read the array record: {}", e.toString());
      }
      return false;
    }
  }

  /**
   * {@link #follow}, then, once the record is read, runs {@code acknowledge} when every version and
   * delete marker {@code store} began writing before now has ended (those may be in the layout
   * before the re-read; {@code WritesInFlight}), on a thread of its own so that the re-reads go on
   * meanwhile. Never when the read fails, nor when those writes have not ended within {@link
   * #FENCE}: the mover then waits its fence out.
   */
  public static void followAndAcknowledge(Maintenance store, Runnable acknowledge) {
    if (!follow(store)) {
      return;
    }
    Thread.ofVirtual()
        .name("layout-ack")
        .start(
            () -> {
              try {
                if (store.context().writesInFlight.awaitBegunBefore(FENCE)) {
                  acknowledge.run();
                }
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });
  }

  private static void writeIn(Maintenance store, ArrayRecord r) {
    StoreConfig config = store.context().config;
    boolean target =
        (r.state() == ArrayRecord.State.RUNNING || r.state() == ArrayRecord.State.COMPLETE)
            && r.from().repositories().equals(r.to().repositories());
    // The target is parsed only when writes take it: a record the mover failed on (a target it
    // cannot parse) must not make every re-read fail, or new writes would be refused for good.
    Geometry to = target ? Geometry.parse(r.to().geometry()) : config.geometry();
    store
        .context()
        .writeIn(
            target && !to.equals(config.geometry()) ? VersionCopier.configFor(config, to) : config);
  }

  /**
   * Refuses {@code store} when the array record says the array is another layout than the store's
   * configured geometry over its repositories (by name, in slot order).
   *
   * @throws StoreException {@code INCONSISTENT} naming what the array record says, and {@code
   *     INSUFFICIENT_SHARDS} when the array record cannot be read ({@link ArrayRecords#current})
   */
  public static void require(Maintenance store) {
    String geometry = store.context().geometry.toString();
    List<String> repositories =
        store.context().repositories().stream().map(Repository::name).toList();
    Optional<ArrayRecord> recorded = new ArrayRecords(store).current();
    if (recorded.isEmpty()) {
      return;
    }
    ArrayRecord r = recorded.get();
    ArrayRecord.Generation is = r.state() == ArrayRecord.State.COMPLETE ? r.to() : r.from();
    if (is.geometry().equals(geometry) && is.repositories().equals(repositories)) {
      writeIn(store, r);
      return;
    }
    String change = is.changesFrom(repositories).describe();
    String array =
        is.geometry()
            + " over "
            + is.repositories().size()
            + " repositories ("
            + (change.isEmpty() ? "the same repositories" : change)
            + ")";
    String file = "this file is " + geometry + " over " + repositories.size();
    String when = VersionId.time(r.versionId()).truncatedTo(ChronoUnit.SECONDS).toString();
    String message =
        switch (r.state()) {
          case COMPLETE ->
              "the array was reshaped to "
                  + array
                  + " on "
                  + when
                  + "; "
                  + file
                  + ": start with the new configuration";
          case ABORTED ->
              "the reshape to "
                  + r.to().describe()
                  + " was aborted on "
                  + when
                  + ": the array is "
                  + array
                  + "; "
                  + file
                  + ": start with the array's configuration";
          case RUNNING, FAILED ->
              "a reshape to "
                  + r.to().describe()
                  + " is recorded ("
                  + r.state().name().toLowerCase(java.util.Locale.ROOT)
                  + ", started "
                  + Instant.ofEpochMilli(r.startedMillis()).truncatedTo(ChronoUnit.SECONDS)
                  + "): until it completes the array is "
                  + array
                  + "; "
                  + file
                  + ": start with the array's configuration";
        };
    throw new StoreException(StoreException.Code.INCONSISTENT, message);
  }
}
