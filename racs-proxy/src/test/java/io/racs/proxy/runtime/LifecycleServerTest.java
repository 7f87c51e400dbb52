package io.racs.proxy.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.testing.TestArray;
import io.racs.proxy.testing.TestClients;
import io.racs.testkit.DrivenClock;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ExpirationStatus;
import software.amazon.awssdk.services.s3.model.LifecycleRule;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Proves that lifecycle works with the server as shipped: with {@link ServerConfig#defaults()}
 * (only the listen address, the admin port and the credentials set, which every server needs) a
 * PutBucketLifecycleConfiguration is accepted, {@code /health/ready} says lifecycle is on, and the
 * lifecycle scan, which the default schedule runs, expires an object once its day has come on the
 * store's clock (a {@link DrivenClock}, moved rather than waited for). With lifecycle turned off
 * ({@code lifecycleInterval: 0s}) the rule is refused with a message that says so and how to turn
 * it on, {@code /health/ready} says lifecycle is off, and no heal lease is taken.
 */
class LifecycleServerTest {
  private static final String ACCESS = "lc-access";
  private static final String SECRET = "lc-secret-key";

  private final DrivenClock clock = new DrivenClock();
  private final HttpClient http = HttpClient.newHttpClient();
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

  private void start(ServerConfig config) throws Exception {
    ErasureStore store = TestArray.builder("4x2").clock(clock).open().store();
    server =
        RacsServer.start(
            store, config.with("127.0.0.1:0", Map.of(ACCESS, SECRET)).withAdmin("127.0.0.1:0"));
    s3 = TestClients.s3(server.port(), ACCESS, SECRET);
  }

  private String ready() throws Exception {
    return http.send(
            HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + server.adminPort() + "/health/ready"))
                .build(),
            HttpResponse.BodyHandlers.ofString())
        .body();
  }

  private static final LifecycleRule LOGS_AFTER_A_DAY =
      LifecycleRule.builder()
          .id("logs")
          .filter(f -> f.prefix("logs/"))
          .status(ExpirationStatus.ENABLED)
          .expiration(e -> e.days(1))
          .build();

  @Test
  void asShipped_acceptsALifecycleRuleAndTheScanExpiresTheObject() throws Exception {
    start(ServerConfig.defaults());
    s3.createBucket(b -> b.bucket("lc-home"));
    s3.putBucketLifecycleConfiguration(
        b -> b.bucket("lc-home").lifecycleConfiguration(c -> c.rules(LOGS_AFTER_A_DAY)));
    s3.putObject(b -> b.bucket("lc-home").key("logs/a"), RequestBody.fromString("old"));
    s3.putObject(b -> b.bucket("lc-home").key("keep/b"), RequestBody.fromString("kept"));
    assertThat(ready()).contains("\"lifecycle\":\"on\"");
    assertThat(server.lease()).as("the scan runs under the heal lease").isNotNull();

    assertThat(server.lifecycleOnce(0).expired()).as("not yet due").isEmpty();
    clock.advance(Duration.ofDays(2));
    LifecycleScrub.Report report = server.lifecycleOnce(0);

    assertThat(report.expired()).containsExactly("lc-home/logs/a");
    assertThat(S3FrontEndErrors.of(() -> s3.headObject(b -> b.bucket("lc-home").key("logs/a"))))
        .isInstanceOf(NoSuchKeyException.class);
    assertThat(s3.getObjectAsBytes(b -> b.bucket("lc-home").key("keep/b")).asUtf8String())
        .isEqualTo("kept");
  }

  @Test
  void lifecycleOff_refusesTheRuleSayingHowToTurnItOn() throws Exception {
    start(ServerConfig.defaults().withLifecycleInterval(Duration.ZERO));
    s3.createBucket(b -> b.bucket("lc-home"));

    S3Exception e =
        S3FrontEndErrors.of(
            () ->
                s3.putBucketLifecycleConfiguration(
                    b ->
                        b.bucket("lc-home")
                            .lifecycleConfiguration(c -> c.rules(LOGS_AFTER_A_DAY))));

    assertThat(e.statusCode()).isEqualTo(501);
    assertThat(e.awsErrorDetails().errorCode()).isEqualTo("NotImplemented");
    assertThat(e.awsErrorDetails().errorMessage())
        .contains("Lifecycle is turned off")
        .contains("lifecycleInterval: 0s")
        .contains("To turn it on");
    assertThat(ready()).contains("\"lifecycle\":\"off\"");
    assertThat(server.lease()).isNull();
  }

  @Test
  void lifecycleOff_stillAnswersAMalformedRuleWithItsOwnError() throws Exception {
    start(ServerConfig.defaults().withLifecycleInterval(Duration.ZERO));
    s3.createBucket(b -> b.bucket("lc-home"));
    LifecycleRule daysZero = LOGS_AFTER_A_DAY.toBuilder().expiration(x -> x.days(0)).build();

    S3Exception e =
        S3FrontEndErrors.of(
            () ->
                s3.putBucketLifecycleConfiguration(
                    b -> b.bucket("lc-home").lifecycleConfiguration(c -> c.rules(daysZero))));

    assertThat(e.statusCode()).isEqualTo(400);
    assertThat(e.awsErrorDetails().errorCode()).isEqualTo("InvalidArgument");
  }

  /** The S3 error a call ends with. */
  private static final class S3FrontEndErrors {
    static S3Exception of(Runnable call) {
      try {
        call.run();
      } catch (S3Exception e) {
        return e;
      }
      throw new AssertionError("expected an S3 error");
    }
  }
}
