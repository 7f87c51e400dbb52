package io.racs.proxy.s3.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * Proves that a PutBucketLifecycleConfiguration body is checked rule by rule as S3 checks it (the
 * expectations of the ceph s3-tests {@code test_lifecycle_*} cases): ids of at most 255 characters
 * and unique, dates ISO 8601 at midnight UTC, days at least 1, Status exactly Enabled or Disabled,
 * one of Filter and Prefix; and that a transition, which the proxy does not carry out, is refused
 * as NotImplemented only after every one of those checks passed.
 */
class LifecycleValidationTest {
  private static final String DAYS_1 = "<Expiration><Days>1</Days></Expiration>";
  private static final String TRANSITION =
      "<Transition><Days>30</Days><StorageClass>GLACIER</StorageClass></Transition>";

  private static LifecycleConfiguration parse(String... rules) {
    String xml = "<LifecycleConfiguration>" + String.join("", rules) + "</LifecycleConfiguration>";
    return LifecycleConfigurationRequest.parse(xml.getBytes(StandardCharsets.UTF_8));
  }

  private static String rule(String id, String action) {
    return "<Rule>"
        + (id == null ? "" : "<ID>" + id + "</ID>")
        + "<Prefix>p/</Prefix><Status>Enabled</Status>"
        + action
        + "</Rule>";
  }

  private static S3Exception refusal(String... rules) {
    S3Exception e = catchThrowableOfType(S3Exception.class, () -> parse(rules));
    assertThat(e).as("refused").isNotNull();
    return e;
  }

  private static void assertRefused(S3ErrorCode code, String... rules) {
    S3Exception e = refusal(rules);
    assertThat(e.code()).as(e.getMessage()).isEqualTo(code);
    assertThat(e.code().httpStatus()).isEqualTo(code == S3ErrorCode.NOT_IMPLEMENTED ? 501 : 400);
  }

  @Test
  void id_of255Characters_isAccepted() {
    assertThat(parse(rule("a".repeat(255), DAYS_1)).rules().get(0).id()).hasSize(255);
  }

  @Test
  void id_of256Characters_isInvalidArgument() {
    assertRefused(S3ErrorCode.INVALID_ARGUMENT, rule("a".repeat(256), DAYS_1));
  }

  @Test
  void id_givenTwice_isInvalidArgument() {
    assertRefused(S3ErrorCode.INVALID_ARGUMENT, rule("rule1", DAYS_1), rule("rule1", DAYS_1));
  }

  @Test
  void id_absent_isAccepted() {
    assertThat(parse(rule(null, DAYS_1)).rules().get(0).id()).isNull();
  }

  @Test
  void date_atMidnightUtc_isAccepted() {
    Instant midnight = Instant.parse("2017-09-27T00:00:00Z");
    assertThat(parse(rule("d", "<Expiration><Date>2017-09-27</Date></Expiration>")).rules())
        .extracting(LifecycleRule::expirationDate)
        .containsExactly(midnight);
    assertThat(
            parse(rule("d", "<Expiration><Date>2017-09-27T00:00:00.000Z</Date></Expiration>"))
                .rules())
        .extracting(LifecycleRule::expirationDate)
        .containsExactly(midnight);
  }

  @Test
  void date_notIso8601_isInvalidArgument() {
    assertRefused(
        S3ErrorCode.INVALID_ARGUMENT, rule("d", "<Expiration><Date>20200101</Date></Expiration>"));
    assertRefused(
        S3ErrorCode.INVALID_ARGUMENT, rule("d", "<Expiration><Date>tomorrow</Date></Expiration>"));
  }

  @Test
  void date_notAtMidnightUtc_isInvalidArgument() {
    assertRefused(
        S3ErrorCode.INVALID_ARGUMENT,
        rule("d", "<Expiration><Date>2027-01-01T10:00:00Z</Date></Expiration>"));
    // Midnight somewhere else is not midnight UTC.
    assertRefused(
        S3ErrorCode.INVALID_ARGUMENT,
        rule("d", "<Expiration><Date>2027-01-01T00:00:00+01:00</Date></Expiration>"));
  }

  @Test
  void days_zeroOrNegative_isInvalidArgument() {
    // s3-tests test_lifecycle_expiration_days0 expects InvalidArgument.
    assertRefused(
        S3ErrorCode.INVALID_ARGUMENT, rule("z", "<Expiration><Days>0</Days></Expiration>"));
    assertRefused(
        S3ErrorCode.INVALID_ARGUMENT, rule("n", "<Expiration><Days>-1</Days></Expiration>"));
  }

  @Test
  void days_one_isAccepted() {
    assertThat(parse(rule("one", DAYS_1)).rules().get(0).expirationDays()).isEqualTo(1);
  }

  @Test
  void days_notANumber_isMalformedXml() {
    assertRefused(
        S3ErrorCode.MALFORMED_XML, rule("x", "<Expiration><Days>one</Days></Expiration>"));
  }

  @Test
  void status_notExactlyEnabledOrDisabled_isMalformedXml() {
    // s3-tests test_lifecycle_invalid_status: enabled, disabled and invalid are MalformedXML.
    for (String status : new String[] {"enabled", "disabled", "invalid"}) {
      assertRefused(
          S3ErrorCode.MALFORMED_XML,
          "<Rule><ID>s</ID><Prefix>p/</Prefix><Status>"
              + status
              + "</Status>"
              + DAYS_1
              + "</Rule>");
    }
    assertRefused(
        S3ErrorCode.MALFORMED_XML, "<Rule><ID>s</ID><Prefix>p/</Prefix>" + DAYS_1 + "</Rule>");
  }

  @Test
  void filterAndPrefix_bothOrNeither_isMalformedXml() {
    assertRefused(
        S3ErrorCode.MALFORMED_XML,
        "<Rule><ID>f</ID><Prefix>p/</Prefix><Filter><Prefix>p/</Prefix></Filter>"
            + "<Status>Enabled</Status>"
            + DAYS_1
            + "</Rule>");
    assertRefused(
        S3ErrorCode.MALFORMED_XML, "<Rule><ID>f</ID><Status>Enabled</Status>" + DAYS_1 + "</Rule>");
  }

  @Test
  void filter_emptyOrWithPrefix_isAccepted() {
    String marker =
        "<Expiration><ExpiredObjectDeleteMarker>true</ExpiredObjectDeleteMarker></Expiration>";
    assertThat(
            parse("<Rule><ID>e</ID><Filter/><Status>Enabled</Status>" + marker + "</Rule>").rules())
        .hasSize(1);
    assertThat(
            parse(
                    "<Rule><ID>p</ID><Filter><Prefix>foo</Prefix></Filter><Status>Enabled</Status>"
                        + marker
                        + "</Rule>")
                .rules()
                .get(0)
                .filter()
                .prefix())
        .isEqualTo("foo");
  }

  @Test
  void transition_whenEverythingElseIsValid_isNotImplemented() {
    S3Exception e = refusal(rule("t", TRANSITION));
    assertThat(e.code()).isEqualTo(S3ErrorCode.NOT_IMPLEMENTED);
    assertThat(e.getMessage()).contains("Transition");
    assertRefused(
        S3ErrorCode.NOT_IMPLEMENTED,
        rule("t", "<Expiration><Days>90</Days></Expiration>" + TRANSITION));
  }

  @Test
  void transition_withAnInvalidRule_isThatRulesErrorFirst() {
    assertRefused(S3ErrorCode.INVALID_ARGUMENT, rule("a".repeat(256), TRANSITION));
    assertRefused(S3ErrorCode.INVALID_ARGUMENT, rule("same", TRANSITION), rule("same", DAYS_1));
    assertRefused(
        S3ErrorCode.INVALID_ARGUMENT,
        rule("t", "<Expiration><Days>0</Days></Expiration>" + TRANSITION));
    // s3-tests test_lifecycle_transition_set_invalid_date: the transition's own date, too.
    assertRefused(
        S3ErrorCode.INVALID_ARGUMENT,
        rule(
            "t",
            "<Expiration><Date>2023-09-27</Date></Expiration><Transition><Date>20220927</Date>"
                + "<StorageClass>GLACIER</StorageClass></Transition>"));
    assertRefused(
        S3ErrorCode.MALFORMED_XML,
        "<Rule><ID>t</ID><Prefix>p/</Prefix><Status>on</Status>" + TRANSITION + "</Rule>");
  }
}
