package io.racs.proxy.store;

import io.racs.proxy.codec.Geometry;
import io.racs.repos.ListPage;
import io.racs.repos.Repository;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The identity marker on every repository ({@code racs/identity}: array id, slot, geometry), and
 * the check the store makes when it opens: a repository of another array, or of this array in
 * another slot, is refused; an empty repository in a slot of an existing array is adopted as a
 * replacement (heal rebuilds it); all-empty repositories become a new array.
 */
final class Identity {
  private static final Logger LOG = LoggerFactory.getLogger(Identity.class);

  /** The marker. */
  record Marker(String arrayId, int slot, String geometry, long createdMillis) {}

  private Identity() {}

  /**
   * Writes the marker of {@code arrayId} on every reachable slot that has none, as heal does for a
   * repository replaced while the proxy runs; returns the slots adopted.
   */
  static List<Integer> adoptUnmarked(RepositoryArray array, String arrayId, Geometry geometry) {
    List<Integer> adopted = new ArrayList<>();
    for (int slot = 0; slot < array.size(); slot++) {
      Repository repository = array.slot(slot);
      try {
        if (RepositoryArray.getBytes(repository, Layout.IDENTITY).isEmpty()) {
          RepositoryArray.putBytes(
              repository,
              Layout.IDENTITY,
              Layout.encode(
                  new Marker(arrayId, slot, geometry.toString(), System.currentTimeMillis())));
          adopted.add(slot);
        }
      } catch (RuntimeException e) {
        LOG.debug("slot {} not adopted: {}", slot, e.toString());
      }
    }
    return adopted;
  }

  /** Checks (and where needed writes) the markers; returns the array id. */
  static String check(
      List<Repository> repositories, Geometry geometry, Duration timeout, boolean readOnly) {
    RepositoryArray array = new RepositoryArray(repositories, timeout.toNanos());
    try {
      List<RepositoryArray.Outcome<Optional<Marker>>> markers =
          array.fanOut(
              (slot, repository) ->
                  RepositoryArray.getBytes(repository, Layout.IDENTITY)
                      .map(
                          bytes ->
                              Layout.decode(bytes, Marker.class)
                                  .orElseThrow(
                                      () ->
                                          new StoreException(
                                              StoreException.Code.INCONSISTENT,
                                              repository.name() + ": damaged identity marker"))));
      Map<String, Integer> ids = new HashMap<>();
      List<Integer> unmarked = new ArrayList<>();
      int reachable = 0;
      for (RepositoryArray.Outcome<Optional<Marker>> outcome : markers) {
        if (!outcome.ok()) {
          if (outcome.failure() instanceof StoreException se) {
            throw se;
          }
          LOG.warn(
              "repository in slot {} unreachable at open: {}", outcome.slot(), outcome.cause());
          continue;
        }
        reachable++;
        Optional<Marker> marker = outcome.value();
        if (marker.isEmpty()) {
          unmarked.add(outcome.slot());
          continue;
        }
        Marker m = marker.get();
        if (m.slot() != outcome.slot()) {
          throw new StoreException(
              StoreException.Code.INCONSISTENT,
              repositories.get(outcome.slot()).name()
                  + " is slot "
                  + m.slot()
                  + " of array "
                  + m.arrayId()
                  + " but is configured in slot "
                  + outcome.slot()
                  + "; refusing to start");
        }
        if (!m.geometry().equals(geometry.toString())) {
          throw new StoreException(
              StoreException.Code.INCONSISTENT,
              repositories.get(outcome.slot()).name()
                  + " belongs to a "
                  + m.geometry()
                  + " array, not "
                  + geometry
                  + "; refusing to start");
        }
        ids.merge(m.arrayId(), 1, Integer::sum);
      }
      if (reachable < geometry.dataShards()) {
        throw new StoreException(
            StoreException.Code.INSUFFICIENT_SHARDS,
            "only " + reachable + " of " + repositories.size() + " repositories reachable",
            array.failures(markers),
            null);
      }
      if (ids.size() > 1) {
        throw new StoreException(
            StoreException.Code.INCONSISTENT,
            "repositories belong to different arrays " + ids.keySet() + "; refusing to start");
      }
      String arrayId =
          ids.isEmpty() ? UUID.randomUUID().toString() : ids.keySet().iterator().next();
      if (readOnly) {
        return arrayId;
      }
      for (int slot : unmarked) {
        Repository repository = repositories.get(slot);
        ListPage any = repository.list("", "", 1);
        if (!any.objects().isEmpty()) {
          throw new StoreException(
              StoreException.Code.INCONSISTENT,
              repository.name()
                  + " (slot "
                  + slot
                  + ") holds data but no RACS identity marker; refusing to adopt it");
        }
        if (!ids.isEmpty()) {
          LOG.warn(
              "slot {} ({}) is empty: adopting it as a replacement; run heal to rebuild it",
              slot,
              repository.name());
        }
        RepositoryArray.putBytes(
            repository,
            Layout.IDENTITY,
            Layout.encode(
                new Marker(arrayId, slot, geometry.toString(), System.currentTimeMillis())));
      }
      return arrayId;
    } finally {
      array.close();
    }
  }
}
