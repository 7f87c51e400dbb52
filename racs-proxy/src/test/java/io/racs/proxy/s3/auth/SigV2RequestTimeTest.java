package io.racs.proxy.s3.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.s3.http.Headers;
import io.racs.proxy.s3.http.RequestHead;
import io.racs.testkit.DrivenClock;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/**
 * Proves every SigV2 form judges its time against the server's clock as S3 does: a header-signed
 * request whose {@code x-amz-date} or {@code Date} is more than 15 minutes off is {@code 403
 * RequestTimeTooSkewed} (the date read whatever weekday name it carries, as the ceph s3-tests'
 * {@code bad_date_before_today}, {@code after_today} and {@code after_end} cases send), a date that
 * is not one, or is before 1970, is {@code 403 AccessDenied}, and a presigned URL is refused once
 * its {@code Expires} has passed. Every request is correctly signed, so each refusal is the time's.
 */
class SigV2RequestTimeTest {
  private static final String AK = "AKV2TIME";
  private static final String SK = "v2-time-secret";
  private static final DateTimeFormatter RFC_1123 = DateTimeFormatter.RFC_1123_DATE_TIME;

  private final DrivenClock clock = new DrivenClock();
  private final S3Authenticator auth =
      S3Authenticator.builder(StaticCredentialStore.of(AK, SK)).clock(clock).build();

  private String httpDate(Instant at) {
    return RFC_1123.format(at.atOffset(ZoneOffset.UTC));
  }

  private static String hmacSha1(String stringToSign) {
    try {
      Mac mac = Mac.getInstance("HmacSHA1");
      mac.init(new SecretKeySpec(SK.getBytes(StandardCharsets.UTF_8), "HmacSHA1"));
      return Base64.getEncoder()
          .encodeToString(mac.doFinal(stringToSign.getBytes(StandardCharsets.UTF_8)));
    } catch (GeneralSecurityException e) {
      throw new AssertionError(e);
    }
  }

  /** A PUT signed as botocore's HmacV1Auth signs it: Date on the date line, x-amz-date below. */
  private RequestHead putWithAmzDate(String amzDate) {
    String date = httpDate(clock.instant());
    String signature = hmacSha1("PUT\n\n\n" + date + "\nx-amz-date:" + amzDate + "\n/b/k");
    return RequestHead.of(
        "PUT",
        "/b/k",
        Headers.of(
            "Host",
            "h",
            "Date",
            date,
            "x-amz-date",
            amzDate,
            "Authorization",
            "AWS " + AK + ":" + signature));
  }

  /** A PUT that carries its time in the Date header alone. */
  private static RequestHead putWithDate(String date) {
    String signature = hmacSha1("PUT\n\n\n" + date + "\n/b/k");
    return RequestHead.of(
        "PUT",
        "/b/k",
        Headers.of("Host", "h", "Date", date, "Authorization", "AWS " + AK + ":" + signature));
  }

  private void assertRefused(RequestHead head, S3ErrorCode code) {
    assertThatThrownBy(() -> auth.authenticate(head))
        .isInstanceOfSatisfying(
            S3Exception.class,
            e -> {
              assertThat(e.code()).isEqualTo(code);
              assertThat(e.httpStatus()).isEqualTo(403);
            });
  }

  @Test
  void authenticate_whenAmzDateYearsOffWithWrongWeekday_requestTimeTooSkewed() {
    // The s3-tests dates: 7 July 2010 was a Wednesday, 2030's a Sunday, 9999's a Wednesday.
    assertRefused(
        putWithAmzDate("Tue, 07 Jul 2010 21:53:04 GMT"), S3ErrorCode.REQUEST_TIME_TOO_SKEWED);
    assertRefused(
        putWithAmzDate("Tue, 07 Jul 2030 21:53:04 GMT"), S3ErrorCode.REQUEST_TIME_TOO_SKEWED);
    assertRefused(
        putWithAmzDate("Tue, 07 Jul 9999 21:53:04 GMT"), S3ErrorCode.REQUEST_TIME_TOO_SKEWED);
  }

  @Test
  void authenticate_whenAmzDateBeforeEpochOrNotADate_accessDenied() {
    assertRefused(putWithAmzDate("Tue, 07 Jul 1950 21:53:04 GMT"), S3ErrorCode.ACCESS_DENIED);
    assertRefused(putWithAmzDate("Bad Date"), S3ErrorCode.ACCESS_DENIED);
    assertRefused(putWithAmzDate(""), S3ErrorCode.ACCESS_DENIED);
  }

  @Test
  void authenticate_whenAmzDateCurrentButWeekdayWrong_accepts() {
    Instant now = clock.instant();
    String wrongDay = RFC_1123.format(now.atOffset(ZoneOffset.UTC).plusDays(1)).substring(0, 3);
    String amzDate = wrongDay + httpDate(now).substring(3);
    Authentication a = auth.authenticate(putWithAmzDate(amzDate));
    assertThat(a.type()).isEqualTo(AuthType.V2_HEADER);
    assertThat(a.requestTime()).isEqualTo(now);
  }

  @Test
  void authenticate_whenAmzDateSkewedWhileDateCurrent_judgesTheAmzDate() {
    Instant now = clock.instant();
    RequestHead late = putWithAmzDate(httpDate(now.minus(Duration.ofMinutes(16))));
    assertRefused(late, S3ErrorCode.REQUEST_TIME_TOO_SKEWED);
    assertThat(auth.authenticate(putWithAmzDate(httpDate(now.minus(Duration.ofMinutes(15))))))
        .extracting(Authentication::accessKeyId)
        .isEqualTo(AK);
  }

  @Test
  void authenticate_whenDateHeaderMoreThanFifteenMinutesOff_requestTimeTooSkewed() {
    RequestHead signedNow = putWithDate(httpDate(clock.instant()));
    clock.advance(Duration.ofMinutes(15));
    assertThat(auth.authenticate(signedNow).accessKeyId()).isEqualTo(AK);
    clock.advance(Duration.ofSeconds(1));
    assertRefused(signedNow, S3ErrorCode.REQUEST_TIME_TOO_SKEWED);

    RequestHead fromTheFuture = putWithDate(httpDate(clock.instant().plusSeconds(15 * 60 + 1)));
    assertRefused(fromTheFuture, S3ErrorCode.REQUEST_TIME_TOO_SKEWED);
  }

  @Test
  void authenticate_whenPresignedExpiresPasses_accessDeniedRequestHasExpired() {
    String expires = Long.toString(clock.instant().getEpochSecond() + 60);
    String signature = hmacSha1("GET\n\n\n" + expires + "\n/b/k");
    RequestHead get =
        RequestHead.of(
            "GET",
            "/b/k?AWSAccessKeyId="
                + AK
                + "&Expires="
                + expires
                + "&Signature="
                + URLEncoder.encode(signature, StandardCharsets.UTF_8),
            Headers.of("Host", "h"));
    clock.advance(Duration.ofSeconds(60));
    assertThat(auth.authenticate(get).type()).isEqualTo(AuthType.V2_PRESIGNED);
    clock.advance(Duration.ofSeconds(1));
    assertThatThrownBy(() -> auth.authenticate(get))
        .isInstanceOfSatisfying(
            S3Exception.class,
            e -> {
              assertThat(e.code()).isEqualTo(S3ErrorCode.ACCESS_DENIED);
              assertThat(e.getMessage()).isEqualTo("Request has expired");
            });
  }
}
