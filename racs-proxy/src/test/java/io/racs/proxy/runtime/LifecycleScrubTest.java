package io.racs.proxy.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.s3.lifecycle.Expiration;
import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.MemoryArray;
import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.format.VersionMeta;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Proves that the lifecycle part of the scrub carries out a bucket's rules at the time of its
 * clock: a current version is deleted as a DELETE would (a delete marker in a versioned bucket)
 * from the midnight UTC after its days are up and not before; only the keys, sizes and tags the
 * filter names; disabled rules and buckets without rules are left alone; incomplete uploads are
 * aborted after their days; in a versioned bucket a noncurrent version is removed for good from the
 * midnight UTC after its NoncurrentDays are up (counted from when the version after it was
 * written), past the NewerNoncurrentVersions newest, and a delete marker left as its key's only
 * version is removed when ExpiredObjectDeleteMarker says so.
 */
class LifecycleScrubTest {
  private final ErasureStore store = MemoryArray.open("4x2");

  @AfterEach
  void close() {
    store.close();
  }

  private VersionMeta put(String bucket, String key, String text, Map<String, String> tags) {
    byte[] data = text.getBytes(StandardCharsets.UTF_8);
    return store.put(
        bucket,
        key,
        new ByteArrayInputStream(data),
        data.length,
        new ObjectStore.PutOptions(null, null, null, null, tags));
  }

  private LifecycleScrub.Report scrubAt(Instant now) {
    return new LifecycleScrub(store, Clock.fixed(now, ZoneOffset.UTC)).run();
  }

  private boolean exists(String bucket, String key) {
    try {
      store.head(bucket, key);
      return true;
    } catch (StoreException e) {
      if (e.code() == StoreException.Code.NO_SUCH_KEY) {
        return false;
      }
      throw e;
    }
  }

  /** When {@code v} expires under a rule of {@code days} (the rule ExpirationTest proves). */
  private static Instant expiry(VersionMeta v, int days) {
    return Expiration.expiresAt(Instant.ofEpochMilli(v.lastModifiedMillis()), days);
  }

  private static String rule(String filter, String action) {
    return "<LifecycleConfiguration><Rule><Filter>"
        + filter
        + "</Filter><Status>Enabled</Status>"
        + action
        + "</Rule></LifecycleConfiguration>";
  }

  @Test
  void run_whenDaysAreUp_deletesMatchingCurrentVersionsFromTheNextMidnight() {
    store.createBucket("bkt");
    store.putBucketLifecycle(
        "bkt", rule("<Prefix>logs/</Prefix>", "<Expiration><Days>2</Days></Expiration>"));
    VersionMeta log = put("bkt", "logs/a", "a", null);
    put("bkt", "data/b", "b", null);
    Instant due = expiry(log, 2);

    assertThat(scrubAt(due.minusMillis(1)).expired()).isEmpty();
    assertThat(exists("bkt", "logs/a")).isTrue();

    LifecycleScrub.Report report = scrubAt(due);
    assertThat(report.expired()).containsExactly("bkt/logs/a");
    assertThat(report.failures()).isEmpty();
    assertThat(exists("bkt", "logs/a")).isFalse();
    assertThat(exists("bkt", "data/b")).isTrue();
  }

  @Test
  void run_whenLeadershipLostAfterTheFirstBucket_leavesTheOthersToTheNextHolder() {
    VersionMeta first = null;
    for (String bucket : List.of("a-first", "b-second")) {
      store.createBucket(bucket);
      store.putBucketLifecycle(
          bucket, rule("<Prefix></Prefix>", "<Expiration><Days>1</Days></Expiration>"));
      VersionMeta v = put(bucket, "k", "x", null);
      first = first == null ? v : first;
    }
    java.util.concurrent.atomic.AtomicInteger asked =
        new java.util.concurrent.atomic.AtomicInteger();
    // Still the holder before the first bucket and on its one page; not from then on.
    LifecycleScrub.Report report =
        new LifecycleScrub(
                store,
                Clock.fixed(expiry(first, 1).plus(java.time.Duration.ofDays(1)), ZoneOffset.UTC),
                () -> asked.incrementAndGet() > 2,
                0)
            .run();
    assertThat(report.expired()).containsExactly("a-first/k");
    assertThat(exists("a-first", "k")).isFalse();
    assertThat(exists("b-second", "k")).isTrue();
  }

  @Test
  void run_whenVersioned_writesADeleteMarkerAndKeepsTheVersion() {
    store.createBucket("ver");
    store.enableVersioning("ver");
    store.putBucketLifecycle("ver", rule("", "<Expiration><Days>1</Days></Expiration>"));
    VersionMeta v = put("ver", "k", "kept", null);

    scrubAt(expiry(v, 1).plus(1, ChronoUnit.DAYS));

    assertThat(exists("ver", "k")).isFalse();
    assertThat(store.version("ver", "k", v.versionId()).deleteMarker()).isFalse();
  }

  @Test
  void run_withTagAndSizeFilter_expiresOnlyWhatMatches() {
    store.createBucket("bkt");
    store.putBucketLifecycle(
        "bkt",
        rule(
            "<And><Tag><Key>tier</Key><Value>tmp</Value></Tag>"
                + "<ObjectSizeGreaterThan>3</ObjectSizeGreaterThan></And>",
            "<Expiration><Date>2000-01-01T00:00:00Z</Date></Expiration>"));
    put("bkt", "tagged-big", "12345", Map.of("tier", "tmp"));
    put("bkt", "tagged-small", "12", Map.of("tier", "tmp"));
    put("bkt", "untagged-big", "12345", null);
    VersionMeta retagged = put("bkt", "retagged-big", "12345", null);
    store.putObjectTagging(retagged, Map.of("tier", "tmp"));

    LifecycleScrub.Report report = scrubAt(Instant.now());

    assertThat(report.expired()).containsExactlyInAnyOrder("bkt/tagged-big", "bkt/retagged-big");
    assertThat(exists("bkt", "tagged-small")).isTrue();
    assertThat(exists("bkt", "untagged-big")).isTrue();
  }

  @Test
  void run_whenRuleDisabledOrNoRules_deletesNothing() {
    store.createBucket("off");
    store.createBucket("none");
    store.putBucketLifecycle(
        "off",
        "<LifecycleConfiguration><Rule><Prefix></Prefix><Status>Disabled</Status>"
            + "<Expiration><Days>1</Days></Expiration></Rule></LifecycleConfiguration>");
    put("off", "k", "k", null);
    put("none", "k", "k", null);

    assertThat(scrubAt(Instant.now().plus(400, ChronoUnit.DAYS)).expired()).isEmpty();
    assertThat(exists("off", "k")).isTrue();
    assertThat(exists("none", "k")).isTrue();
  }

  @Test
  void run_whenUploadOlderThanItsDays_abortsIt() {
    store.createBucket("bkt");
    store.putBucketLifecycle(
        "bkt",
        rule(
            "<Prefix>up/</Prefix>",
            "<AbortIncompleteMultipartUpload><DaysAfterInitiation>1</DaysAfterInitiation>"
                + "</AbortIncompleteMultipartUpload>"));
    String old = store.createMultipartUpload("bkt", "up/x", ObjectStore.PutOptions.defaults());
    store.createMultipartUpload("bkt", "other/y", ObjectStore.PutOptions.defaults());

    assertThat(scrubAt(Instant.now()).aborted()).isEmpty();
    LifecycleScrub.Report report = scrubAt(Instant.now().plus(3, ChronoUnit.DAYS));

    assertThat(report.aborted()).containsExactly("bkt/up/x " + old);
    assertThat(store.listMultipartUploads("bkt", ""))
        .extracting(ObjectStore.UploadInfo::key)
        .containsExactly("other/y");
    assertThatThrownBy(() -> store.listParts("bkt", "up/x", old))
        .isInstanceOf(StoreException.class);
  }

  private java.util.List<String> versionIds(String bucket) {
    return store
        .listVersions(bucket, new ObjectStore.VersionListRequest("", null, null, null, 1000))
        .versions()
        .stream()
        .map(v -> v.meta().versionId())
        .toList();
  }

  private static String noncurrent(String days) {
    return rule("", "<NoncurrentVersionExpiration>" + days + "</NoncurrentVersionExpiration>");
  }

  @Test
  void run_whenNoncurrentDaysAreUp_removesNoncurrentVersionsFromTheMidnightAfterTheirSuccessor() {
    store.createBucket("ver");
    store.enableVersioning("ver");
    store.putBucketLifecycle("ver", noncurrent("<NoncurrentDays>1</NoncurrentDays>"));
    VersionMeta v1 = put("ver", "k", "one", null);
    VersionMeta v2 = put("ver", "k", "two", null);
    VersionMeta v3 = put("ver", "k", "three", null);
    VersionMeta other = put("ver", "other", "alone", null);

    // v1 became noncurrent when v2 was written: not removed before a day after that, rounded up.
    LifecycleScrub.Report early = scrubAt(expiry(v2, 1).minusMillis(1));
    assertThat(early.removed()).isEmpty();
    assertThat(versionIds("ver")).hasSize(4);

    Instant due = expiry(v3, 1).isAfter(expiry(v2, 1)) ? expiry(v3, 1) : expiry(v2, 1);
    LifecycleScrub.Report report = scrubAt(due.plus(400, ChronoUnit.DAYS));
    assertThat(report.failures()).isEmpty();
    assertThat(report.removed())
        .containsExactlyInAnyOrder("ver/k " + v1.versionId(), "ver/k " + v2.versionId());
    assertThat(versionIds("ver")).containsExactly(v3.versionId(), other.versionId());
    assertThat(exists("ver", "k")).isTrue();
  }

  @Test
  void run_whenNewerNoncurrentVersionsGiven_keepsThatManyNewestNoncurrent() {
    store.createBucket("ver");
    store.enableVersioning("ver");
    store.putBucketLifecycle(
        "ver",
        noncurrent(
            "<NoncurrentDays>1</NoncurrentDays>"
                + "<NewerNoncurrentVersions>2</NewerNoncurrentVersions>"));
    VersionMeta v1 = put("ver", "k", "1", null);
    put("ver", "k", "2", null);
    VersionMeta v3 = put("ver", "k", "3", null);
    VersionMeta v4 = put("ver", "k", "4", null);
    VersionMeta marker = store.delete("ver", "k").orElseThrow();

    LifecycleScrub.Report report = scrubAt(Instant.now().plus(400, ChronoUnit.DAYS));

    assertThat(report.removed()).hasSize(2).contains("ver/k " + v1.versionId());
    assertThat(versionIds("ver"))
        .containsExactly(marker.versionId(), v4.versionId(), v3.versionId());
  }

  @Test
  void run_whenExpiredObjectDeleteMarker_removesOnlyMarkersLeftAlone() {
    store.createBucket("ver");
    store.enableVersioning("ver");
    store.putBucketLifecycle(
        "ver",
        rule(
            "",
            "<Expiration><ExpiredObjectDeleteMarker>true</ExpiredObjectDeleteMarker>"
                + "</Expiration>"));
    VersionMeta gone = put("ver", "alone", "a", null);
    store.delete("ver", "alone");
    store.removeVersion("ver", "alone", gone.versionId());
    VersionMeta kept = put("ver", "hidden", "h", null);
    VersionMeta hiding = store.delete("ver", "hidden").orElseThrow();

    LifecycleScrub.Report report = scrubAt(Instant.now());

    assertThat(report.removed()).hasSize(1).allMatch(r -> r.startsWith("ver/alone "));
    assertThat(versionIds("ver")).containsExactly(hiding.versionId(), kept.versionId());
  }

  @Test
  void run_whenTheNewerVersionIsDeletedAfterTheListing_keepsTheVersionThatIsCurrentAgain() {
    store.createBucket("ver");
    store.enableVersioning("ver");
    store.putBucketLifecycle("ver", noncurrent("<NoncurrentDays>1</NoncurrentDays>"));
    VersionMeta v1 = put("ver", "k", "one", null);
    VersionMeta v2 = put("ver", "k", "two", null);
    // The scrub's store, as it is: except that right after it lists the versions, a client
    // deletes v2 by its id (which makes v1 current again).
    ObjectStore racing =
        (ObjectStore)
            java.lang.reflect.Proxy.newProxyInstance(
                ObjectStore.class.getClassLoader(),
                new Class<?>[] {ObjectStore.class},
                (proxy, method, args) -> {
                  Object result;
                  try {
                    result = method.invoke(store, args);
                  } catch (java.lang.reflect.InvocationTargetException e) {
                    throw e.getCause();
                  }
                  if (method.getName().equals("listVersions")) {
                    store.removeVersion("ver", "k", v2.versionId());
                  }
                  return result;
                });
    LifecycleScrub.Report report =
        new LifecycleScrub(
                racing, Clock.fixed(expiry(v2, 1).plus(400, ChronoUnit.DAYS), ZoneOffset.UTC))
            .run();
    // Found in review: v1 was removed too, and the key was gone.
    assertThat(report.removed()).isEmpty();
    assertThat(versionIds("ver")).containsExactly(v1.versionId());
    assertThat(exists("ver", "k")).isTrue();
  }

  @Test
  void run_whenNoncurrentRuleAndBucketNotVersioned_removesNothing() {
    store.createBucket("plain");
    store.putBucketLifecycle("plain", noncurrent("<NoncurrentDays>1</NoncurrentDays>"));
    put("plain", "k", "1", null);
    put("plain", "k", "2", null);

    LifecycleScrub.Report report = scrubAt(Instant.now().plus(400, ChronoUnit.DAYS));

    assertThat(report.removed()).isEmpty();
    assertThat(report.failures()).isEmpty();
    assertThat(exists("plain", "k")).isTrue();
  }
}
