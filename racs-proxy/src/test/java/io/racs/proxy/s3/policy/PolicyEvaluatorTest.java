package io.racs.proxy.s3.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.s3.policy.PolicyEvaluator.Decision;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The evaluation rule: an explicit Deny wins, otherwise an Allow is needed; and conditions. */
class PolicyEvaluatorTest {
  private static final String BACKUPS =
      """
      {"Version": "2012-10-17", "Statement": [
        {"Effect": "Allow", "Action": ["s3:PutObject", "s3:GetObject"],
         "Resource": "arn:aws:s3:::data/backups/*"},
        {"Effect": "Allow", "Action": "s3:ListBucket", "Resource": "arn:aws:s3:::data",
         "Condition": {"StringLike": {"s3:prefix": "backups/*"}}}]}
      """;

  private static RequestContext request(
      String principal, String action, String resource, Map<String, List<String>> values) {
    return new RequestContext(principal, action, resource, values);
  }

  private static Decision decide(RequestContext r, Policy... policies) {
    return PolicyEvaluator.decide(r, List.of(policies));
  }

  @Test
  void identityPolicy_allowsItsPrefixAndNothingElse() {
    Policy p = PolicyParser.identityPolicy(BACKUPS);
    assertThat(decide(request("job", "s3:PutObject", "arn:aws:s3:::data/backups/a", Map.of()), p))
        .isEqualTo(Decision.ALLOW);
    assertThat(decide(request("job", "s3:PutObject", "arn:aws:s3:::data/other/a", Map.of()), p))
        .isEqualTo(Decision.IMPLICIT_DENY);
    assertThat(
            decide(request("job", "s3:DeleteObject", "arn:aws:s3:::data/backups/a", Map.of()), p))
        .isEqualTo(Decision.IMPLICIT_DENY);
    assertThat(
            decide(
                request(
                    "job",
                    "s3:ListBucket",
                    "arn:aws:s3:::data",
                    Map.of("s3:prefix", List.of("backups/2026"))),
                p))
        .isEqualTo(Decision.ALLOW);
    // A listing without a prefix lacks the key: StringLike is false.
    assertThat(decide(request("job", "s3:ListBucket", "arn:aws:s3:::data", Map.of()), p))
        .isEqualTo(Decision.IMPLICIT_DENY);
  }

  @Test
  void explicitDeny_winsOverAnyAllow() {
    Policy allowAll =
        PolicyParser.identityPolicy(
            "{\"Statement\": {\"Effect\": \"Allow\", \"Action\": \"s3:*\", \"Resource\": \"*\"}}");
    Policy bucket =
        PolicyParser.bucketPolicy(
            """
            {"Statement": [{"Effect": "Deny", "Principal": {"AWS": "job"},
              "Action": "s3:DeleteObject*", "Resource": "arn:aws:s3:::data/*"}]}
            """,
            "data");
    RequestContext delete = request("job", "s3:DeleteObject", "arn:aws:s3:::data/k", Map.of());
    assertThat(decide(delete, allowAll, bucket)).isEqualTo(Decision.EXPLICIT_DENY);
    assertThat(decide(delete, bucket, allowAll)).isEqualTo(Decision.EXPLICIT_DENY);
    // The deny names job: another user is allowed by the same identity policy.
    assertThat(
            decide(
                request("alice", "s3:DeleteObject", "arn:aws:s3:::data/k", Map.of()),
                allowAll,
                bucket))
        .isEqualTo(Decision.ALLOW);
  }

  @Test
  void publicBucketPolicy_allowsAnonymousReadsOnly() {
    Policy p =
        PolicyParser.bucketPolicy(
            """
            {"Statement": [{"Effect": "Allow", "Principal": "*", "Action": "s3:GetObject",
              "Resource": "arn:aws:s3:::pub/*"}]}
            """,
            "pub");
    assertThat(
            decide(
                request(RequestContext.ANONYMOUS, "s3:GetObject", "arn:aws:s3:::pub/f", Map.of()),
                p))
        .isEqualTo(Decision.ALLOW);
    assertThat(
            decide(
                request(RequestContext.ANONYMOUS, "s3:PutObject", "arn:aws:s3:::pub/f", Map.of()),
                p))
        .isEqualTo(Decision.IMPLICIT_DENY);
    assertThat(
            decide(
                request(RequestContext.ANONYMOUS, "s3:GetObject", "arn:aws:s3:::pub/f", Map.of())))
        .isEqualTo(Decision.IMPLICIT_DENY);
  }

  @Test
  void negatedConditions_holdWhenTheKeyIsMissing_andIfExistsToo() {
    Policy denyInsecure =
        PolicyParser.bucketPolicy(
            """
            {"Statement": [{"Effect": "Deny", "Principal": "*", "Action": "s3:*",
              "Resource": ["arn:aws:s3:::b", "arn:aws:s3:::b/*"],
              "Condition": {"Bool": {"aws:SecureTransport": "false"}}},
             {"Effect": "Deny", "Principal": "*", "Action": "s3:GetObject",
              "Resource": "arn:aws:s3:::b/*",
              "Condition": {"NotIpAddress": {"aws:SourceIp": "10.0.0.0/8"}}}]}
            """,
            "b");
    Map<String, List<String>> inside =
        Map.of("aws:SecureTransport", List.of("true"), "aws:SourceIp", List.of("10.1.2.3"));
    Map<String, List<String>> outside =
        Map.of("aws:SecureTransport", List.of("true"), "aws:SourceIp", List.of("192.0.2.1"));
    Map<String, List<String>> plain =
        Map.of("aws:SecureTransport", List.of("false"), "aws:SourceIp", List.of("10.1.2.3"));
    String key = "arn:aws:s3:::b/k";
    assertThat(decide(request("u", "s3:GetObject", key, inside), denyInsecure))
        .isEqualTo(Decision.IMPLICIT_DENY);
    assertThat(decide(request("u", "s3:GetObject", key, outside), denyInsecure))
        .isEqualTo(Decision.EXPLICIT_DENY);
    assertThat(decide(request("u", "s3:GetObject", key, plain), denyInsecure))
        .isEqualTo(Decision.EXPLICIT_DENY);
    // No source address at all: NotIpAddress holds, so the deny applies.
    assertThat(
            decide(
                request("u", "s3:GetObject", key, Map.of("aws:SecureTransport", List.of("true"))),
                denyInsecure))
        .isEqualTo(Decision.EXPLICIT_DENY);
  }

  @Test
  void numericDateAndNullOperators_compareAsTheirKinds() {
    Policy p =
        PolicyParser.identityPolicy(
            """
            {"Statement": [{"Effect": "Allow", "Action": "s3:ListBucket",
              "Resource": "arn:aws:s3:::b",
              "Condition": {"NumericLessThanEquals": {"s3:max-keys": "100"},
                            "DateLessThan": {"aws:CurrentTime": "2027-01-01T00:00:00Z"},
                            "Null": {"s3:delimiter": "true"}}}]}
            """);
    String bucket = "arn:aws:s3:::b";
    assertThat(
            decide(
                request(
                    "u",
                    "s3:ListBucket",
                    bucket,
                    Map.of(
                        "s3:max-keys", List.of("100"),
                        "aws:CurrentTime", List.of("2026-12-02T08:00:00Z"))),
                p))
        .isEqualTo(Decision.ALLOW);
    assertThat(
            decide(
                request(
                    "u",
                    "s3:ListBucket",
                    bucket,
                    Map.of(
                        "s3:max-keys", List.of("1000"),
                        "aws:CurrentTime", List.of("2026-12-02T08:00:00Z"))),
                p))
        .isEqualTo(Decision.IMPLICIT_DENY);
    assertThat(
            decide(
                request(
                    "u",
                    "s3:ListBucket",
                    bucket,
                    Map.of(
                        "s3:max-keys", List.of("10"),
                        "aws:CurrentTime", List.of("2027-06-01T00:00:00Z"))),
                p))
        .isEqualTo(Decision.IMPLICIT_DENY);
    assertThat(
            decide(
                request(
                    "u",
                    "s3:ListBucket",
                    bucket,
                    Map.of(
                        "s3:max-keys", List.of("10"),
                        "s3:delimiter", List.of("/"),
                        "aws:CurrentTime", List.of("2026-12-02T08:00:00Z"))),
                p))
        .isEqualTo(Decision.IMPLICIT_DENY);
  }

  @Test
  void actions_compareWithoutCase_andResourcesWithCase() {
    Policy p =
        PolicyParser.identityPolicy(
            "{\"Statement\": {\"Effect\": \"Allow\", \"Action\": \"S3:getobject\","
                + " \"Resource\": \"arn:aws:s3:::b/Docs/*\"}}");
    assertThat(decide(request("u", "s3:GetObject", "arn:aws:s3:::b/Docs/a", Map.of()), p))
        .isEqualTo(Decision.ALLOW);
    assertThat(decide(request("u", "s3:GetObject", "arn:aws:s3:::b/docs/a", Map.of()), p))
        .isEqualTo(Decision.IMPLICIT_DENY);
  }

  @Test
  void wildcards_matchRunsAndSingleCharacters_withoutBlowUp() {
    assertThat(Wildcards.matches("a*b?d", "axxxbcd")).isTrue();
    assertThat(Wildcards.matches("a*b?d", "axxxbd")).isFalse();
    assertThat(Wildcards.matches("*", "")).isTrue();
    assertThat(Wildcards.matches("", "a")).isFalse();
    // Many stars against a long text that cannot match: linear-time matching answers at once.
    assertThat(Wildcards.matches("*a*a*a*a*a*a*a*a*a*a*b", "a".repeat(20_000))).isFalse();
  }

  @Test
  void cidr_readsLiteralsOnly() {
    assertThat(Cidr.parse("10.0.0.0/8").contains("10.255.0.1")).isTrue();
    assertThat(Cidr.parse("10.0.0.0/8").contains("11.0.0.1")).isFalse();
    assertThat(Cidr.parse("2001:db8::/32").contains("2001:db8:1::1")).isTrue();
    assertThat(Cidr.parse("2001:db8::/32").contains("10.0.0.1")).isFalse();
    assertThat(Cidr.parse("localhost")).isNull();
    assertThat(Cidr.parse("10.0.0.0/33")).isNull();
    assertThat(Cidr.parse("256.0.0.1")).isNull();
  }
}
