package io.racs.proxy.s3.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** What a policy document must be to be accepted, and the one-line refusal of what is not. */
class PolicyParserTest {

  private static String bucketPolicy(String statement) {
    return "{\"Version\": \"2012-10-17\", \"Statement\": [" + statement + "]}";
  }

  @Test
  void bucketPolicy_readsEveryElement() {
    Policy p =
        PolicyParser.bucketPolicy(
            bucketPolicy(
                """
                {"Sid": "public", "Effect": "Allow", "Principal": "*",
                 "Action": ["s3:GetObject", "s3:List*"],
                 "Resource": ["arn:aws:s3:::downloads", "arn:aws:s3:::downloads/*"],
                 "Condition": {"IpAddress": {"aws:SourceIp": ["10.0.0.0/8", "192.168.1.1"]},
                               "Bool": {"aws:SecureTransport": true}}},
                {"Effect": "Deny", "Principal": {"AWS": ["arn:aws:iam::123456789012:user/eve", "mallory"]},
                 "NotAction": "s3:GetObject", "NotResource": "arn:aws:s3:::downloads/public/*"}
                """),
            "downloads");
    assertThat(p.statements()).hasSize(2);
    Policy.Statement allow = p.statements().get(0);
    assertThat(allow.sid()).isEqualTo("public");
    assertThat(allow.principals()).containsExactly("*");
    assertThat(allow.actions())
        .contains(
            "s3:GetObject",
            "s3:ListBucket",
            "s3:ListBucketVersions",
            "s3:ListAllMyBuckets",
            "s3:ListMultipartUploadParts")
        .doesNotContain("s3:PutObject");
    assertThat(allow.conditions()).hasSize(2);
    Policy.Statement deny = p.statements().get(1);
    assertThat(deny.effect()).isEqualTo(Policy.Effect.DENY);
    assertThat(deny.principals()).containsExactlyInAnyOrder("eve", "mallory");
    assertThat(deny.notAction()).isTrue();
    assertThat(deny.notResource()).isTrue();
  }

  @Test
  void identityPolicy_withoutVersion_isRead() {
    Policy p =
        PolicyParser.identityPolicy(
            "{\"Statement\": {\"Effect\": \"Allow\", \"Action\": \"s3:*\", \"Resource\": \"*\"}}");
    assertThat(p.statements().get(0).actions()).isEqualTo(PolicyActions.ALL);
    assertThat(p.statements().get(0).principals()).isNull();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "not json | {\"Statement\": | Policies must be valid JSON",
        "not an object | [] | the first byte must be",
        "unknown top field | {\"Statement\": [], \"Extra\": 1} | Unknown field Extra",
        "no statement | {\"Version\": \"2012-10-17\"} | Missing required field Statement",
        "empty statement | {\"Statement\": []} | Missing required field Statement",
        "bad version | {\"Version\": \"2020-01-01\", \"Statement\": []} | invalid Version",
        "duplicate key | {\"Statement\": [], \"Statement\": []} | valid JSON",
      })
  void document_whenMalformed_isRefused(String name, String json, String message) {
    assertThatThrownBy(() -> PolicyParser.bucketPolicy(json, "b"))
        .isInstanceOf(PolicyException.class)
        .hasMessageContaining(message);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "effect case | {\"Effect\": \"allow\", \"Principal\": \"*\", \"Action\": \"s3:GetObject\","
            + " \"Resource\": \"arn:aws:s3:::b/*\"} | Effect must be Allow or Deny",
        "unknown action | {\"Effect\": \"Allow\", \"Principal\": \"*\", \"Action\": \"s3:GetObjekt\","
            + " \"Resource\": \"arn:aws:s3:::b/*\"} | invalid action: s3:GetObjekt",
        "other service | {\"Effect\": \"Allow\", \"Principal\": \"*\", \"Action\": \"iam:*\","
            + " \"Resource\": \"arn:aws:s3:::b/*\"} | invalid action: iam:*",
        "no principal | {\"Effect\": \"Allow\", \"Action\": \"s3:GetObject\","
            + " \"Resource\": \"arn:aws:s3:::b/*\"} | Missing required field Principal",
        "service principal | {\"Effect\": \"Allow\", \"Principal\": {\"Service\": \"x\"},"
            + " \"Action\": \"s3:GetObject\", \"Resource\": \"arn:aws:s3:::b/*\"} | Invalid principal",
        "not principal | {\"Effect\": \"Deny\", \"NotPrincipal\": \"*\", \"Action\": \"s3:GetObject\","
            + " \"Resource\": \"arn:aws:s3:::b/*\"} | NotPrincipal is not supported",
        "other bucket | {\"Effect\": \"Allow\", \"Principal\": \"*\", \"Action\": \"s3:GetObject\","
            + " \"Resource\": \"arn:aws:s3:::bb/*\"} | not in bucket b",
        "not s3 | {\"Effect\": \"Allow\", \"Principal\": \"*\", \"Action\": \"s3:GetObject\","
            + " \"Resource\": \"arn:aws:sqs:::b\"} | invalid resource",
        "action and not | {\"Effect\": \"Allow\", \"Principal\": \"*\", \"Action\": \"s3:GetObject\","
            + " \"NotAction\": \"s3:PutObject\", \"Resource\": \"arn:aws:s3:::b/*\"} | exactly one",
        "no resource | {\"Effect\": \"Allow\", \"Principal\": \"*\", \"Action\": \"s3:GetObject\"}"
            + " | exactly one of Resource",
        "unknown operator | {\"Effect\": \"Allow\", \"Principal\": \"*\", \"Action\": \"s3:GetObject\","
            + " \"Resource\": \"arn:aws:s3:::b/*\", \"Condition\": {\"StringSortOf\":"
            + " {\"s3:prefix\": \"a\"}}} | invalid condition operator: StringSortOf",
        "set operator | {\"Effect\": \"Allow\", \"Principal\": \"*\", \"Action\": \"s3:GetObject\","
            + " \"Resource\": \"arn:aws:s3:::b/*\", \"Condition\": {\"ForAnyValue:StringEquals\":"
            + " {\"s3:prefix\": \"a\"}}} | set operators are not supported",
        "unknown key | {\"Effect\": \"Allow\", \"Principal\": \"*\", \"Action\": \"s3:GetObject\","
            + " \"Resource\": \"arn:aws:s3:::b/*\", \"Condition\": {\"StringEquals\":"
            + " {\"s3:x-amz-acl\": \"public-read\"}}} | invalid condition key: s3:x-amz-acl",
        "bad ip | {\"Effect\": \"Allow\", \"Principal\": \"*\", \"Action\": \"s3:GetObject\","
            + " \"Resource\": \"arn:aws:s3:::b/*\", \"Condition\": {\"IpAddress\":"
            + " {\"aws:SourceIp\": \"example.com\"}}} | invalid value for IpAddress",
        "bad number | {\"Effect\": \"Allow\", \"Principal\": \"*\", \"Action\": \"s3:ListBucket\","
            + " \"Resource\": \"arn:aws:s3:::b\", \"Condition\": {\"NumericLessThan\":"
            + " {\"s3:max-keys\": \"ten\"}}} | invalid value for NumericLessThan",
        "variable | {\"Effect\": \"Allow\", \"Principal\": \"*\", \"Action\": \"s3:ListBucket\","
            + " \"Resource\": \"arn:aws:s3:::b\", \"Condition\": {\"StringLike\":"
            + " {\"s3:prefix\": \"${aws:username}/*\"}}} | Policy variables are not supported",
        "duplicate sid | {\"Sid\": \"a\", \"Effect\": \"Allow\", \"Principal\": \"*\", \"Action\":"
            + " \"s3:GetObject\", \"Resource\": \"arn:aws:s3:::b/*\"}, {\"Sid\": \"a\", \"Effect\":"
            + " \"Deny\", \"Principal\": \"*\", \"Action\": \"s3:GetObject\", \"Resource\":"
            + " \"arn:aws:s3:::b/*\"} | must be unique",
      })
  void statement_whenNotJudgeable_isRefused(String name, String statement, String message) {
    assertThatThrownBy(() -> PolicyParser.bucketPolicy(bucketPolicy(statement), "b"))
        .isInstanceOf(PolicyException.class)
        .hasMessageContaining(message);
  }

  @Test
  void identityPolicy_namingAPrincipal_isRefused() {
    assertThatThrownBy(
            () ->
                PolicyParser.identityPolicy(
                    bucketPolicy(
                        "{\"Effect\": \"Allow\", \"Principal\": \"*\", \"Action\": \"s3:GetObject\","
                            + " \"Resource\": \"arn:aws:s3:::b/*\"}")))
        .isInstanceOf(PolicyException.class)
        .hasMessageContaining("names no Principal");
  }

  @Test
  void document_over20KiB_isRefused() {
    String statement =
        "{\"Effect\": \"Allow\", \"Principal\": \"*\", \"Action\": \"s3:GetObject\","
            + " \"Resource\": \"arn:aws:s3:::b/"
            + "x".repeat(PolicyParser.MAX_BYTES)
            + "\"}";
    assertThatThrownBy(() -> PolicyParser.bucketPolicy(bucketPolicy(statement), "b"))
        .isInstanceOf(PolicyException.class)
        .hasMessageContaining("no more than 20480 bytes");
  }

  @Test
  void parse_whenTheDocumentsOwnTextHasControlCharacters_refusesInOneLine() {
    // The fuzzer's finding: a field name with an escaped newline ("Stateme\nt") was quoted back.
    assertThatThrownBy(
            () ->
                PolicyParser.bucketPolicy(
                    "{\"Version\": \"2012-10-17\", \"Stateme\\nt\": []}", "b"))
        .isInstanceOf(PolicyException.class)
        .hasMessage("Unknown field Stateme\\u000at in the policy");
    assertThat(new PolicyException("a\tb\r\nc\u007f").getMessage())
        .isEqualTo("a\\u0009b\\u000d\\u000ac\\u007f");
  }
}
