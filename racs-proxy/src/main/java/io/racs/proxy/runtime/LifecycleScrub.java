package io.racs.proxy.runtime;

import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.s3.lifecycle.LifecycleConfiguration;
import io.racs.proxy.s3.lifecycle.LifecycleConfigurationRequest;
import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.format.VersionMeta;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * Carries out the buckets' lifecycle rules, once per run of the lifecycle scan (see {@link
 * BackgroundWork}), throttled to a number of versions a second: a current version an enabled {@code
 * Expiration} rule has expired is deleted as a DELETE deletes it (a delete marker in a versioned
 * bucket, the key gone otherwise), and an incomplete multipart upload older than an {@code
 * AbortIncompleteMultipartUpload} rule allows is aborted (given up as {@link
 * io.racs.proxy.store.heal.AbandonedUploads} gives uploads up: at once for requests, its parts once
 * the GC grace has passed). When a rule matches is decided by {@link
 * io.racs.proxy.s3.lifecycle.Expiration}, with the time of the clock given.
 *
 * <p>A version is deleted only if it is still the current one when the delete commits: the delete
 * is conditional on its version id, so an object written again after the listing is kept. A bucket
 * whose rules or objects cannot be read is skipped and named in the report; the next scrub tries
 * again.
 *
 * <p>In a bucket that keeps versions, a {@code NoncurrentVersionExpiration} rule removes a
 * noncurrent version for good (as a DELETE with its version id does) once its {@code
 * NoncurrentDays} are up, counted from when it became noncurrent, that is from the last
 * modification of the version after it (as S3 counts), and only past the {@code
 * NewerNoncurrentVersions} newest noncurrent versions of its key; {@code ExpiredObjectDeleteMarker}
 * removes a delete marker that is the only version its key has left. The current version is never
 * removed here: a version listed as noncurrent stays noncurrent, since later writes only add newer
 * versions.
 *
 * <p>Not thread-safe: one run at a time, which the scrub's single thread guarantees.
 */
final class LifecycleScrub {
  /**
   * What one run did.
   *
   * @param expired the versions deleted, as {@code bucket/key}
   * @param aborted the uploads aborted, as {@code bucket/key uploadId}
   * @param removed the noncurrent versions and lone delete markers removed for good, as {@code
   *     bucket/key versionId}
   * @param failures what could not be done, and why
   */
  record Report(
      List<String> expired, List<String> aborted, List<String> removed, List<String> failures) {}

  /** Thrown by a delete's condition when the version to expire is no longer the current one. */
  private static final class Superseded extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Superseded() {
      super(null, null, false, false);
    }
  }

  private static final int PAGE = 1000;

  private final ObjectStore store;
  private final Clock clock;
  private final List<String> expired = new ArrayList<>();
  private final List<String> aborted = new ArrayList<>();
  private final List<String> removed = new ArrayList<>();
  private final List<String> failures = new ArrayList<>();

  private final BooleanSupplier stop;
  private final OperationPace pace;

  /** The pace of the background lifecycle scan: versions and uploads judged per second. */
  static final double DEFAULT_VERSIONS_PER_SECOND = 500;

  LifecycleScrub(ObjectStore store, Clock clock) {
    this(store, clock, () -> false, 0);
  }

  /**
   * A pass that stops, before its next bucket or page, once {@code stop} says so (the proxy lost
   * the leadership or the heal lease, and another runs the lifecycle now), and judges at most
   * {@code versionsPerSecond} versions and uploads a second (0: no limit).
   */
  LifecycleScrub(ObjectStore store, Clock clock, BooleanSupplier stop, double versionsPerSecond) {
    this.store = store;
    this.clock = clock;
    this.stop = stop;
    this.pace = OperationPace.perSecond(versionsPerSecond);
  }

  Report run() {
    Instant now = clock.instant();
    for (ObjectStore.BucketInfo bucket : store.listBuckets()) {
      if (stop.getAsBoolean()) {
        break;
      }
      try {
        configuration(bucket.name()).ifPresent(c -> apply(bucket.name(), c, now));
      } catch (RuntimeException e) {
        failures.add(bucket.name() + ": " + e.getMessage());
      }
    }
    return new Report(
        List.copyOf(expired), List.copyOf(aborted), List.copyOf(removed), List.copyOf(failures));
  }

  private Optional<LifecycleConfiguration> configuration(String bucket) {
    try {
      return store
          .bucketLifecycle(bucket)
          .map(d -> LifecycleConfigurationRequest.parse(d.getBytes(StandardCharsets.UTF_8)));
    } catch (StoreException e) {
      if (e.code() == StoreException.Code.NO_SUCH_BUCKET) {
        return Optional.empty(); // deleted since it was listed
      }
      throw e;
    } catch (S3Exception e) {
      throw new IllegalStateException("stored lifecycle rules do not parse: " + e.getMessage(), e);
    }
  }

  private void apply(String bucket, LifecycleConfiguration rules, Instant now) {
    String after = "";
    while (true) {
      ObjectStore.ListResult page =
          store.list(bucket, new ObjectStore.ListRequest("", null, after, PAGE));
      for (VersionMeta version : page.objects()) {
        pace.await();
        expire(bucket, version, rules, now);
      }
      if (!page.truncated() || page.nextStartAfter().isEmpty() || stop.getAsBoolean()) {
        break;
      }
      after = page.nextStartAfter().get();
    }
    if (stop.getAsBoolean()) {
      return;
    }
    if (rules.actsOnVersions() && store.versioned(bucket)) {
      removeNoncurrent(bucket, rules, now);
    }
    for (ObjectStore.UploadInfo upload : store.listMultipartUploads(bucket, "")) {
      pace.await();
      if (rules.abortsUpload(upload.key(), upload.initiated(), now)) {
        try {
          // Not an abort: a completion that read the upload just before must keep its parts.
          store.abandonMultipartUpload(bucket, upload.key(), upload.uploadId());
          aborted.add(bucket + "/" + upload.key() + " " + upload.uploadId());
        } catch (StoreException e) {
          failures.add(
              bucket + "/" + upload.key() + " " + upload.uploadId() + ": " + e.getMessage());
        }
      }
    }
  }

  /**
   * Walks every version of the bucket, newest first per key, and removes the noncurrent versions
   * and lone delete markers the rules expire. A key's versions may span pages; what the walk needs
   * of the versions before (the newer one's time, how many noncurrent ones were newer) is carried
   * over.
   */
  private void removeNoncurrent(String bucket, LifecycleConfiguration rules, Instant now) {
    String keyMarker = null;
    String idMarker = null;
    String key = null;
    Instant newerModified = null;
    int newerNoncurrent = 0;
    VersionMeta loneMarker = null; // a key's current delete marker, while nothing else is seen
    while (true) {
      ObjectStore.VersionListResult page =
          store.listVersions(
              bucket, new ObjectStore.VersionListRequest("", null, keyMarker, idMarker, PAGE));
      for (ObjectStore.ListedVersion listed : page.versions()) {
        pace.await();
        VersionMeta version = listed.meta();
        if (!version.key().equals(key)) {
          removeLoneMarker(bucket, loneMarker, rules);
          key = version.key();
          newerModified = null;
          newerNoncurrent = 0;
          loneMarker = null;
        }
        if (listed.latest() || newerModified == null) {
          loneMarker = listed.latest() && version.deleteMarker() ? version : null;
        } else {
          loneMarker = null;
          expireNoncurrent(bucket, version, newerModified, newerNoncurrent, rules, now);
          newerNoncurrent++;
        }
        newerModified = Instant.ofEpochMilli(version.lastModifiedMillis());
      }
      if (!page.truncated() || page.nextKeyMarker().isEmpty()) {
        break;
      }
      if (stop.getAsBoolean()) {
        return; // a lone marker seen last is left for the next pass
      }
      keyMarker = page.nextKeyMarker().get();
      idMarker = page.nextVersionIdMarker().orElse(null);
    }
    removeLoneMarker(bucket, loneMarker, rules);
  }

  /** Whether {@code version} is its key's current version now (read again, not as listed). */
  private boolean isCurrent(String bucket, VersionMeta version) {
    try {
      return store.head(bucket, version.key()).versionId().equals(version.versionId());
    } catch (StoreException.DeletedKey e) {
      return e.marker().versionId().equals(version.versionId());
    } catch (StoreException e) {
      if (e.code() == StoreException.Code.NO_SUCH_KEY) {
        return false;
      }
      throw e;
    }
  }

  private void expireNoncurrent(
      String bucket,
      VersionMeta version,
      Instant becameNoncurrent,
      int newerNoncurrent,
      LifecycleConfiguration rules,
      Instant now) {
    String what = bucket + "/" + version.key() + " " + version.versionId();
    try {
      Map<String, String> tags =
          rules.needsTags() && !version.deleteMarker()
              ? ObjectStore.ObjectTagging.of(version, store.objectTaggings(bucket, version.key()))
              : version.tags();
      if (rules.expiresNoncurrent(
          version.key(), version.sizeBytes(), tags, becameNoncurrent, newerNoncurrent, now)) {
        // Still noncurrent? The newer version may have been deleted by its id since the listing,
        // which made this one current again: a current version is not this rule's to remove.
        if (isCurrent(bucket, version)) {
          return;
        }
        // By the store's own id, not "null": a null version written after the listing must stay.
        if (store.removeVersion(bucket, version.key(), version.versionId()).isPresent()) {
          removed.add(what);
        }
      }
    } catch (StoreException e) {
      if (e.code() == StoreException.Code.OBJECT_LOCKED) {
        return; // its retention or legal hold keeps it: the store's removal rule said no
      }
      failures.add(what + ": " + e.getMessage());
    }
  }

  /**
   * Removes a delete marker that was its key's only version when listed, if a rule says so. A
   * version written since is newer than the marker, so removing the marker then hides nothing and
   * removes nothing but the marker.
   */
  private void removeLoneMarker(String bucket, VersionMeta marker, LifecycleConfiguration rules) {
    if (marker == null || !rules.removesExpiredMarker(marker.key())) {
      return;
    }
    String what = bucket + "/" + marker.key() + " " + marker.versionId();
    try {
      if (store.removeVersion(bucket, marker.key(), marker.versionId()).isPresent()) {
        removed.add(what);
      }
    } catch (StoreException e) {
      failures.add(what + ": " + e.getMessage());
    }
  }

  private void expire(
      String bucket, VersionMeta version, LifecycleConfiguration rules, Instant now) {
    if (version.deleteMarker()) {
      return;
    }
    Instant lastModified = Instant.ofEpochMilli(version.lastModifiedMillis());
    try {
      Map<String, String> tags =
          rules.needsTags()
              ? ObjectStore.ObjectTagging.of(version, store.objectTaggings(bucket, version.key()))
              : version.tags();
      if (!rules.expires(version.key(), version.sizeBytes(), lastModified, tags, now)) {
        return;
      }
      store.delete(
          bucket,
          version.key(),
          current -> {
            if (current.isEmpty() || !current.get().versionId().equals(version.versionId())) {
              throw new Superseded();
            }
          });
      expired.add(bucket + "/" + version.key());
    } catch (Superseded e) {
      // Written again (or deleted) since the listing: the rules will judge the new version.
    } catch (StoreException e) {
      failures.add(bucket + "/" + version.key() + ": " + e.getMessage());
    }
  }
}
