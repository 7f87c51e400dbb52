package io.racs.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.testkit.SeededBytes;
import io.racs.testkit.TestTools;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ObjectLockMode;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Object Lock across proxies whose clocks disagree, with real clocks: two proxies serve one 4x2
 * array of directories, {@code right} on this machine's clock and {@code ahead} under libfaketime
 * two days ahead (the kernel's clock is not touched; only that process reads a shifted one).
 * Retention is judged by each proxy's own clock, and a proxy that has seen a commit time later than
 * its clock reads judges no retention ended, so that another proxy's clock running ahead never
 * makes it delete a version early (docs/ordering.md, "Clocks and Object Lock"). New writes keep
 * their order by the hybrid clock: a write through the proxy that is behind, after one through the
 * proxy that is ahead, is the newer version.
 *
 * <p>What this cannot show: a proxy whose own clock is ahead judges retention by it, and no proxy
 * can tell that its own clock is wrong from versions that are all older than it; the docs say so.
 */
class ObjectLockClocksIT {
  private static final String BUCKET = "locked";
  private static final Duration AHEAD = Duration.ofDays(2);

  @TempDir static Path dir;
  private static ProxyProcess right;
  private static ProxyProcess ahead;
  private static S3Client s3;

  @BeforeAll
  static void start() throws Exception {
    String config =
        ProxyProcess.fsConfig(Files.createDirectories(dir.resolve("repos")), "4x2", null);
    right = ProxyProcess.start(Files.createDirectories(dir.resolve("right")), config);
    // FAKETIME_DONT_FAKE_MONOTONIC: only the wall clock moves; the JVM's timers stay true.
    ahead =
        ProxyProcess.start(
            Files.createDirectories(dir.resolve("ahead")),
            config,
            Map.of(
                "LD_PRELOAD",
                TestTools.faketimeLib().toString(),
                "FAKETIME",
                "+" + AHEAD.toDays() + "d",
                "FAKETIME_DONT_FAKE_MONOTONIC",
                "1"));
    s3 = FaultLoad.client(right.endpoint());
    s3.createBucket(b -> b.bucket(BUCKET).objectLockEnabledForBucket(true));
  }

  @AfterAll
  static void stop() {
    if (s3 != null) {
      s3.close();
    }
    for (ProxyProcess proxy : new ProxyProcess[] {ahead, right}) {
      if (proxy != null) {
        proxy.close();
      }
    }
  }

  @Test
  void retention_whenAnotherProxysClockIsAhead_endsForNoOneEarly() throws Exception {
    // Two versions whose retention ends in a few seconds (each taken when it is sent, so that a
    // slow machine cannot make it a date in the past), and one kept for a day.
    String ended = putLocked("ended", soon());
    Instant shortUntil = soon();
    String endedToo = putLocked("ended-too", shortUntil);
    String kept = putLocked("kept", Instant.now().plus(Duration.ofDays(1)));
    // Retention is a point on the clock: this waits for this machine's clock to pass it.
    while (Instant.now().isBefore(shortUntil.plusMillis(500))) {
      Thread.sleep(Duration.between(Instant.now(), shortUntil.plusMillis(500)).toMillis() + 1);
    }

    // On the right clock, with nothing newer seen, an ended retention ends and a day's does not.
    s3.deleteObject(b -> b.bucket(BUCKET).key("ended").versionId(ended));
    assertThat(s3.listObjectVersions(b -> b.bucket(BUCKET).prefix("ended")).versions())
        .extracting(v -> v.key())
        .containsExactly("ended-too");
    assertLocked("kept", kept);

    // The proxy two days ahead writes: its version id carries its clock's time.
    RawS3 fromAhead =
        new RawS3(ahead.endpoint(), ProxyProcess.SECRET_KEY, Instant.now().plus(AHEAD));
    byte[] future = SeededBytes.bytes(39, 1000);
    RawS3.Response put =
        fromAhead.send(
            fromAhead.sign(
                "PUT",
                "/" + BUCKET + "/written-ahead",
                "",
                Map.of(),
                RawS3.sha256Hex(future),
                Map.of("content-length", Integer.toString(future.length))),
            future);
    assertThat(put.status()).as(put.text()).isEqualTo(200);
    String aheadVersion = put.headers().get("x-amz-version-id");
    assertThat(aheadVersion).isNotNull();

    // The right proxy reads it, and so has seen a commit time two days past its own clock: some
    // clock is wrong, and it no longer ends a retention it would have ended a moment ago.
    assertThat(s3.getObjectAsBytes(b -> b.bucket(BUCKET).key("written-ahead")).asByteArray())
        .isEqualTo(future);
    assertLocked("ended-too", endedToo);
    assertLocked("kept", kept);

    // Its own write after the one from ahead is the newer version, whatever its clock says.
    byte[] later = SeededBytes.bytes(40, 500);
    String laterVersion =
        s3.putObject(b -> b.bucket(BUCKET).key("written-ahead"), RequestBody.fromBytes(later))
            .versionId();
    assertThat(s3.getObjectAsBytes(b -> b.bucket(BUCKET).key("written-ahead")).asByteArray())
        .isEqualTo(later);
    assertThat(
            s3.listObjectVersions(b -> b.bucket(BUCKET).prefix("written-ahead")).versions().stream()
                .map(v -> v.versionId() + (v.isLatest() ? " latest" : ""))
                .toList())
        .containsExactly(laterVersion + " latest", aheadVersion);
    // Every locked version is still there, read back byte-exact.
    for (String key : new String[] {"ended-too", "kept"}) {
      assertThat(s3.getObjectAsBytes(b -> b.bucket(BUCKET).key(key)).asByteArray())
          .isEqualTo(body(key));
    }
  }

  private static String putLocked(String key, Instant until) {
    return s3.putObject(
            b ->
                b.bucket(BUCKET)
                    .key(key)
                    .objectLockMode(ObjectLockMode.COMPLIANCE)
                    .objectLockRetainUntilDate(until),
            RequestBody.fromBytes(body(key)))
        .versionId();
  }

  private static Instant soon() {
    return Instant.now().plusSeconds(5).truncatedTo(ChronoUnit.SECONDS);
  }

  private static byte[] body(String key) {
    return SeededBytes.bytes(key.hashCode(), 2000);
  }

  private static void assertLocked(String key, String versionId) {
    assertThatThrownBy(() -> s3.deleteObject(b -> b.bucket(BUCKET).key(key).versionId(versionId)))
        .as("DELETE %s?versionId=%s", key, versionId)
        .isInstanceOfSatisfying(
            S3Exception.class,
            e -> assertThat(e.awsErrorDetails().errorCode()).isEqualTo("AccessDenied"));
    assertThat(s3.headObject(b -> b.bucket(BUCKET).key(key).versionId(versionId)).versionId())
        .isEqualTo(versionId);
  }
}
