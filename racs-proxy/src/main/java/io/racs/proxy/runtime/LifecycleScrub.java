package io.racs.proxy.runtime;

import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.s3.lifecycle.LifecycleConfiguration;
import io.racs.proxy.s3.xml.S3XmlRequests;
import io.racs.proxy.store.ObjectStore;
import io.racs.proxy.store.StoreException;
import io.racs.proxy.store.VersionMeta;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Carries out the buckets' lifecycle rules, once per background scrub: a current version an enabled
 * {@code Expiration} rule has expired is deleted as a DELETE deletes it (a delete marker in a
 * versioned bucket, the key gone otherwise), and an incomplete multipart upload older than an
 * {@code AbortIncompleteMultipartUpload} rule allows is aborted (given up as {@link
 * io.racs.proxy.store.AbandonedUploads} gives uploads up: at once for requests, its parts once the
 * GC grace has passed). When a rule matches is decided by {@link
 * io.racs.proxy.s3.lifecycle.Expiration}, with the time of the clock given.
 *
 * <p>A version is deleted only if it is still the current one when the delete commits: the delete
 * is conditional on its version id, so an object written again after the listing is kept. A bucket
 * whose rules or objects cannot be read is skipped and named in the report; the next scrub tries
 * again. (Noncurrent versions are not touched: {@code NoncurrentVersionExpiration} is refused when
 * the rules are stored, and would hook in here once single versions can be removed.)
 *
 * <p>Not thread-safe: one run at a time, which the scrub's single thread guarantees.
 */
final class LifecycleScrub {
  /**
   * What one run did.
   *
   * @param expired the versions deleted, as {@code bucket/key}
   * @param aborted the uploads aborted, as {@code bucket/key uploadId}
   * @param failures what could not be done, and why
   */
  record Report(List<String> expired, List<String> aborted, List<String> failures) {}

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
  private final List<String> failures = new ArrayList<>();

  LifecycleScrub(ObjectStore store, Clock clock) {
    this.store = store;
    this.clock = clock;
  }

  Report run() {
    Instant now = clock.instant();
    for (ObjectStore.BucketInfo bucket : store.listBuckets()) {
      try {
        configuration(bucket.name()).ifPresent(c -> apply(bucket.name(), c, now));
      } catch (RuntimeException e) {
        failures.add(bucket.name() + ": " + e.getMessage());
      }
    }
    return new Report(List.copyOf(expired), List.copyOf(aborted), List.copyOf(failures));
  }

  private Optional<LifecycleConfiguration> configuration(String bucket) {
    try {
      return store
          .bucketLifecycle(bucket)
          .map(d -> S3XmlRequests.lifecycleConfiguration(d.getBytes(StandardCharsets.UTF_8)));
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
        expire(bucket, version, rules, now);
      }
      if (!page.truncated() || page.nextStartAfter().isEmpty()) {
        break;
      }
      after = page.nextStartAfter().get();
    }
    for (ObjectStore.UploadInfo upload : store.listMultipartUploads(bucket, "")) {
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
