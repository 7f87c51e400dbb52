package io.racs.proxy.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.store.reshape.RecordedLayout;
import io.racs.proxy.testing.ArrayRecordsUnlisted;
import io.racs.proxy.testing.TestArray;
import io.racs.testkit.DrivenClock;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Proves what an S3 client (AWS SDK v2, no retries) sees from a proxy that could not read the array
 * record for longer than the layout ttl (docs/reshape.md §6): a PUT is {@code 503
 * ServiceUnavailable} with {@code Retry-After} and a message saying how long the layout went
 * unread, a GET of an object written before is served, and once the record is read again the PUT
 * succeeds. The store's ticker is driven by hand.
 */
class StaleLayoutServerTest {
  private static final String ACCESS = "test-access";
  private static final String SECRET = "test-secret-key";

  private final DrivenClock clock = new DrivenClock();
  private final AtomicBoolean listingsFail = new AtomicBoolean();
  private RacsServer server;
  private S3Client s3;

  @AfterEach
  void stop() {
    if (s3 != null) {
      s3.close();
    }
    if (server != null) {
      server.close();
    }
  }

  @Test
  void put_whenTheLayoutIsUnreadPastTheTtl_is503WithRetryAfterAndGetIsServed() throws Exception {
    TestArray array =
        TestArray.builder("4x2")
            .ticker(() -> clock.millis() * 1_000_000L)
            .wrap(rs -> ArrayRecordsUnlisted.wrap(rs, listingsFail))
            .open();
    server =
        RacsServer.start(
            array.store(), ServerConfig.defaults().with("127.0.0.1:0", Map.of(ACCESS, SECRET)));
    s3 =
        S3Client.builder()
            .endpointOverride(URI.create("http://127.0.0.1:" + server.port()))
            .region(Region.US_EAST_1)
            .forcePathStyle(true)
            .credentialsProvider(
                StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS, SECRET)))
            .overrideConfiguration(o -> o.retryStrategy(b -> b.maxAttempts(1)))
            .build();
    s3.createBucket(b -> b.bucket("bkt"));
    s3.putObject(b -> b.bucket("bkt").key("old"), RequestBody.fromString("written before"));

    listingsFail.set(true);
    RecordedLayout.follow(array.store());
    clock.advance(Duration.ofSeconds(41));

    assertThatThrownBy(
            () -> s3.putObject(b -> b.bucket("bkt").key("new"), RequestBody.fromString("no")))
        .isInstanceOfSatisfying(
            S3Exception.class,
            e -> {
              assertThat(e.statusCode()).isEqualTo(503);
              assertThat(e.awsErrorDetails().errorCode()).isEqualTo("ServiceUnavailable");
              assertThat(e.awsErrorDetails().errorMessage())
                  .startsWith("the array's layout could not be read for 41 s");
              assertThat(e.awsErrorDetails().sdkHttpResponse().firstMatchingHeader("Retry-After"))
                  .isPresent();
            });
    assertThat(s3.getObjectAsBytes(b -> b.bucket("bkt").key("old")).asUtf8String())
        .isEqualTo("written before");

    listingsFail.set(false);
    assertThat(RecordedLayout.follow(array.store())).isTrue();
    s3.putObject(b -> b.bucket("bkt").key("new"), RequestBody.fromString("yes"));
    assertThat(s3.getObjectAsBytes(b -> b.bucket("bkt").key("new")).asUtf8String())
        .isEqualTo("yes");
  }
}
