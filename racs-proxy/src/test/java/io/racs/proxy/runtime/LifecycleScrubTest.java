package io.racs.proxy.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.s3.lifecycle.Expiration;
import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.MemoryArray;
import io.racs.proxy.store.ObjectStore;
import io.racs.proxy.store.StoreException;
import io.racs.proxy.store.VersionMeta;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Proves that the lifecycle part of the scrub carries out a bucket's rules at the time of its
 * clock: a current version is deleted as a DELETE would (a delete marker in a versioned bucket)
 * from the midnight UTC after its days are up and not before; only the keys, sizes and tags the
 * filter names; disabled rules and buckets without rules are left alone; incomplete uploads are
 * aborted after their days.
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
}
