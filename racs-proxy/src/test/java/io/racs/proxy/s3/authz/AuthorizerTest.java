package io.racs.proxy.s3.authz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.s3.auth.AuthType;
import io.racs.proxy.s3.auth.Authentication;
import io.racs.proxy.s3.auth.ContentSha256;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.s3.http.Headers;
import io.racs.proxy.s3.http.RequestHead;
import io.racs.proxy.s3.policy.Policy;
import io.racs.proxy.s3.policy.PolicyActions;
import io.racs.proxy.s3.policy.PolicyParser;
import io.racs.proxy.s3.policy.Principal;
import io.racs.proxy.s3.policy.Principals;
import io.racs.proxy.s3.route.S3Operation;
import io.racs.proxy.s3.route.S3Route;
import io.racs.proxy.s3.route.S3Router;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Proves the one decision point judges each operation family by the action and resource its
 * operation names: administrators are allowed all a bucket policy does not explicitly deny (and
 * always their bucket policy calls), anonymous callers only what a policy grants {@code "*"}, and a
 * user (a fake {@link Principals}) only what their identity policy or the bucket's allows: a
 * read-only user of one prefix reads there, and is denied writes, deletes, other prefixes and a
 * presigned PUT; a copy needs the read of its source; DeleteObjects and ListBuckets are judged per
 * item; condition keys are filled from the request.
 */
class AuthorizerTest {
  private static final String ADMIN = "admin-key";
  private static final String READER = "reader-key";
  private static final S3Router ROUTER = S3Router.pathStyle();
  private static final Clock CLOCK =
      Clock.fixed(Instant.parse("2026-06-01T12:00:00Z"), ZoneOffset.UTC);

  private final Map<String, Policy> bucketPolicies = new HashMap<>();

  /** A user who may read and list {@code photos/} of bucket {@code bkt}, and nothing else. */
  private static final Principal READ_ONE_PREFIX =
      new Principal(
          "reader",
          false,
          List.of(
              PolicyParser.identityPolicy(
                  """
                  {"Version": "2012-10-17", "Statement": [
                    {"Effect": "Allow", "Action": "s3:GetObject",
                     "Resource": "arn:aws:s3:::bkt/photos/*"},
                    {"Effect": "Allow", "Action": "s3:ListBucket", "Resource": "arn:aws:s3:::bkt",
                     "Condition": {"StringLike": {"s3:prefix": "photos/*"}}}]}
                  """)));

  private final Principals principals =
      key ->
          switch (key) {
            case ADMIN -> Optional.of(new Principal(ADMIN, true, List.of()));
            case READER -> Optional.of(READ_ONE_PREFIX);
            default -> Optional.empty();
          };

  private final Authorizer authorizer =
      new Authorizer(principals, b -> Optional.ofNullable(bucketPolicies.get(b)), CLOCK);

  private Access access(String key, AuthType type, String method, String target, String... h) {
    RequestHead head = RequestHead.of(method, target, Headers.of(h));
    S3Route route = ROUTER.route(head);
    Authentication auth =
        key == null
            ? null
            : new Authentication(
                key, type, CLOCK.instant(), ContentSha256.UNSIGNED, Optional.empty());
    return authorizer.identify(new Authorizer.Request(head, route, auth, false, "192.0.2.7"));
  }

  private Access signed(String key, String method, String target, String... headers) {
    return access(key, AuthType.V4_HEADER, method, target, headers);
  }

  private boolean allowed(Access access) {
    try {
      access.check();
      return true;
    } catch (S3Exception e) {
      assertThat(e.code().code()).isEqualTo("AccessDenied");
      assertThat(e.code().httpStatus()).isEqualTo(403);
      return false;
    }
  }

  private void bucketPolicy(String bucket, String json) {
    bucketPolicies.put(bucket, PolicyParser.bucketPolicy(json, bucket));
  }

  @ParameterizedTest
  @EnumSource(S3Operation.class)
  void operation_whenJudged_namesAnActionRacsServes(S3Operation op) {
    if (op == S3Operation.PREFLIGHT_CORS) {
      assertThat(op.action()).isNull();
      assertThat(op.resource()).isEqualTo(S3Operation.Resource.NONE);
      return;
    }
    assertThat(PolicyActions.ALL).contains(op.action(), op.versionAction());
  }

  @Test
  void admin_whenNoBucketPolicy_isAllowedEveryFamily() {
    assertThat(allowed(signed(ADMIN, "GET", "/"))).isTrue();
    assertThat(allowed(signed(ADMIN, "PUT", "/bkt"))).isTrue();
    assertThat(allowed(signed(ADMIN, "GET", "/bkt?list-type=2"))).isTrue();
    assertThat(allowed(signed(ADMIN, "PUT", "/bkt/k"))).isTrue();
    assertThat(allowed(signed(ADMIN, "GET", "/bkt?cors"))).isTrue();
    assertThat(allowed(signed(ADMIN, "PUT", "/bkt/k?tagging"))).isTrue();
    assertThat(allowed(signed(ADMIN, "POST", "/bkt/k?uploads"))).isTrue();
    assertThat(allowed(signed(ADMIN, "GET", "/bkt?policy"))).isTrue();
  }

  @Test
  void admin_whenBucketPolicyDeniesPrefix_isDeniedThereOnly() {
    bucketPolicy(
        "bkt",
        """
        {"Statement": [{"Effect": "Deny", "Principal": "*", "Action": "s3:PutObject",
          "Resource": "arn:aws:s3:::bkt/locked/*"}]}
        """);
    assertThat(allowed(signed(ADMIN, "PUT", "/bkt/locked/x"))).isFalse();
    assertThat(allowed(signed(ADMIN, "PUT", "/bkt/open/x"))).isTrue();
    assertThat(allowed(signed(ADMIN, "GET", "/bkt/locked/x"))).isTrue();
  }

  @Test
  void admin_whenBucketPolicyDeniesEverything_stillManagesThePolicy() {
    bucketPolicy(
        "bkt",
        """
        {"Statement": [{"Effect": "Deny", "Principal": "*", "Action": "s3:*",
          "Resource": ["arn:aws:s3:::bkt", "arn:aws:s3:::bkt/*"]}]}
        """);
    assertThat(allowed(signed(ADMIN, "GET", "/bkt/k"))).isFalse();
    assertThat(allowed(signed(ADMIN, "GET", "/bkt?policy"))).isTrue();
    assertThat(allowed(signed(ADMIN, "PUT", "/bkt?policy"))).isTrue();
    assertThat(allowed(signed(ADMIN, "DELETE", "/bkt?policy"))).isTrue();
  }

  @Test
  void anonymous_whenNoPolicy_isDenied() {
    assertThat(allowed(access(null, null, "GET", "/bkt/k"))).isFalse();
    assertThat(allowed(access(null, null, "GET", "/"))).isFalse();
    assertThat(access(null, null, "GET", "/bkt/k").user()).isEqualTo("anonymous");
  }

  @Test
  void anonymous_whenPolicyAllowsEveryoneGet_readsButCannotWrite() {
    bucketPolicy(
        "bkt",
        """
        {"Statement": [{"Effect": "Allow", "Principal": "*", "Action": "s3:GetObject",
          "Resource": "arn:aws:s3:::bkt/*"}]}
        """);
    assertThat(allowed(access(null, null, "GET", "/bkt/k"))).isTrue();
    assertThat(allowed(access(null, null, "HEAD", "/bkt/k"))).isTrue();
    assertThat(allowed(access(null, null, "PUT", "/bkt/k"))).isFalse();
    assertThat(allowed(access(null, null, "GET", "/bkt?list-type=2"))).isFalse();
    assertThat(allowed(access(null, null, "GET", "/other/k"))).isFalse();
  }

  @Test
  void anonymous_whenPolicyNamesAUser_isDenied() {
    bucketPolicy(
        "bkt",
        """
        {"Statement": [{"Effect": "Allow", "Principal": {"AWS": "reader"},
          "Action": "s3:GetObject", "Resource": "arn:aws:s3:::bkt/*"}]}
        """);
    assertThat(allowed(access(null, null, "GET", "/bkt/k"))).isFalse();
  }

  @Test
  void readOnlyUserOfOnePrefix_whenReadingThere_isAllowed() {
    assertThat(allowed(signed(READER, "GET", "/bkt/photos/cat.jpg"))).isTrue();
    assertThat(allowed(signed(READER, "HEAD", "/bkt/photos/cat.jpg"))).isTrue();
    assertThat(allowed(signed(READER, "GET", "/bkt?list-type=2&prefix=photos/"))).isTrue();
    assertThat(signed(READER, "GET", "/bkt/photos/cat.jpg").user()).isEqualTo("reader");
  }

  @Test
  void readOnlyUserOfOnePrefix_whenWritingDeletingOrElsewhere_isDenied() {
    assertThat(allowed(signed(READER, "PUT", "/bkt/photos/cat.jpg"))).isFalse();
    assertThat(allowed(signed(READER, "DELETE", "/bkt/photos/cat.jpg"))).isFalse();
    assertThat(allowed(signed(READER, "GET", "/bkt/secret/plans.txt"))).isFalse();
    assertThat(allowed(signed(READER, "GET", "/bkt?list-type=2&prefix=secret/"))).isFalse();
    assertThat(allowed(signed(READER, "GET", "/bkt?list-type=2"))).as("no prefix").isFalse();
    assertThat(allowed(signed(READER, "PUT", "/bkt/photos/cat.jpg?tagging"))).isFalse();
    assertThat(allowed(signed(READER, "GET", "/bkt/photos/cat.jpg?versionId=v1")))
        .as("s3:GetObjectVersion is not granted")
        .isFalse();
    assertThat(allowed(signed(READER, "GET", "/bkt?policy"))).isFalse();
    assertThat(allowed(signed(READER, "PUT", "/cat"))).isFalse();
  }

  @Test
  void readOnlyUserOfOnePrefix_whenPresigned_hasTheSignersRights() {
    assertThat(allowed(access(READER, AuthType.V4_PRESIGNED, "PUT", "/bkt/photos/new.jpg")))
        .isFalse();
    assertThat(allowed(access(READER, AuthType.V4_PRESIGNED, "GET", "/bkt/photos/cat.jpg")))
        .isTrue();
  }

  @Test
  void user_whenBucketPolicyGrantsWhatIdentityDoesNot_isAllowed() {
    bucketPolicy(
        "bkt",
        """
        {"Statement": [{"Effect": "Allow", "Principal": {"AWS": ["reader"]},
          "Action": "s3:PutObject", "Resource": "arn:aws:s3:::bkt/inbox/*"}]}
        """);
    assertThat(allowed(signed(READER, "PUT", "/bkt/inbox/x"))).isTrue();
    assertThat(allowed(signed(READER, "PUT", "/bkt/photos/x"))).isFalse();
  }

  @Test
  void user_whenBucketPolicyDeniesWhatIdentityAllows_isDenied() {
    bucketPolicy(
        "bkt",
        """
        {"Statement": [{"Effect": "Deny", "Principal": "*", "Action": "s3:GetObject",
          "Resource": "arn:aws:s3:::bkt/photos/private/*"}]}
        """);
    assertThat(allowed(signed(READER, "GET", "/bkt/photos/private/x"))).isFalse();
    assertThat(allowed(signed(READER, "GET", "/bkt/photos/public/x"))).isTrue();
  }

  @Test
  void copy_whenSourceNotReadable_isDenied() {
    bucketPolicy(
        "bkt",
        """
        {"Statement": [{"Effect": "Allow", "Principal": {"AWS": "reader"},
          "Action": "s3:PutObject", "Resource": "arn:aws:s3:::bkt/inbox/*"}]}
        """);
    assertThat(allowed(signed(READER, "PUT", "/bkt/inbox/x", "x-amz-copy-source", "/bkt/photos/a")))
        .isTrue();
    assertThat(allowed(signed(READER, "PUT", "/bkt/inbox/x", "x-amz-copy-source", "/bkt/secret/a")))
        .isFalse();
    assertThat(
            allowed(signed(READER, "PUT", "/bkt/photos/x", "x-amz-copy-source", "/bkt/photos/a")))
        .as("the target is not writable")
        .isFalse();
  }

  @Test
  void deleteObjects_whenJudgedPerKey_allowsOnlyPermittedKeys() {
    bucketPolicy(
        "bkt",
        """
        {"Statement": [{"Effect": "Allow", "Principal": {"AWS": "reader"},
          "Action": "s3:DeleteObject", "Resource": "arn:aws:s3:::bkt/tmp/*"}]}
        """);
    Access access = signed(READER, "POST", "/bkt?delete");
    assertThat(allowed(access)).as("the request itself").isTrue();
    assertThat(access.permitsDelete("tmp/a", null)).isTrue();
    assertThat(access.permitsDelete("photos/a", null)).isFalse();
    assertThat(access.permitsDelete("tmp/a", "v1")).as("s3:DeleteObjectVersion").isFalse();
    Access admin = signed(ADMIN, "POST", "/bkt?delete");
    assertThat(admin.permitsDelete("photos/a", "v1")).isTrue();
  }

  @Test
  void listBuckets_whenUserMayListOneBucket_listsOnlyThatOne() {
    bucketPolicy(
        "cat",
        """
        {"Statement": [{"Effect": "Allow", "Principal": {"AWS": "reader"},
          "Action": "s3:ListBucket", "Resource": "arn:aws:s3:::cat"}]}
        """);
    Access access = signed(READER, "GET", "/").check();
    assertThat(access.listsAllBuckets()).isFalse();
    assertThat(access.listsBucket("cat")).isTrue();
    assertThat(access.listsBucket("bkt")).as("only with an s3:prefix under photos/").isFalse();
    assertThat(access.listsBucket("dog")).isFalse();
    assertThat(signed(ADMIN, "GET", "/").check().listsAllBuckets()).isTrue();
  }

  @Test
  void form_whenSigned_isJudgedForItsSigner() {
    Access form = access(null, null, "POST", "/bkt", "content-type", "multipart/form-data; b=x");
    assertThat(allowed(form)).as("judged once the signer is known").isTrue();
    assertThat(form.user()).isEqualTo("-");
    assertThatThrownBy(() -> form.signedBy(READER, "photos/x")).isInstanceOf(S3Exception.class);
    assertThat(form.signedBy(ADMIN, "photos/x").user()).isEqualTo(ADMIN);
  }

  @Test
  void preflight_whenUnsigned_isNotJudged() {
    Access preflight = access(null, null, "OPTIONS", "/bkt/k");
    assertThat(allowed(preflight)).isTrue();
  }

  @Test
  void unknownKey_whenIdentified_isDenied() {
    assertThatThrownBy(() -> signed("stranger", "GET", "/bkt/k"))
        .isInstanceOfSatisfying(
            S3Exception.class, e -> assertThat(e.code().code()).isEqualTo("AccessDenied"));
  }

  @Test
  void conditions_whenPolicyNamesRequestKeys_areFilledFromTheRequest() {
    bucketPolicy(
        "bkt",
        """
        {"Statement": [
          {"Effect": "Allow", "Principal": "*", "Action": "s3:GetObject",
           "Resource": "arn:aws:s3:::bkt/*",
           "Condition": {"IpAddress": {"aws:SourceIp": "192.0.2.0/24"},
                         "DateLessThan": {"aws:CurrentTime": "2027-01-01T00:00:00Z"}}},
          {"Effect": "Allow", "Principal": "*", "Action": "s3:ListBucket",
           "Resource": "arn:aws:s3:::bkt",
           "Condition": {"NumericLessThanEquals": {"s3:max-keys": "10"},
                         "StringEquals": {"s3:delimiter": "/"}}},
          {"Effect": "Deny", "Principal": "*", "Action": "s3:PutObject",
           "Resource": "arn:aws:s3:::bkt/*",
           "Condition": {"Bool": {"aws:SecureTransport": "false"}}}]}
        """);
    assertThat(allowed(access(null, null, "GET", "/bkt/k"))).isTrue();
    assertThat(allowed(access(null, null, "GET", "/bkt?list-type=2&max-keys=5&delimiter=/")))
        .isTrue();
    assertThat(allowed(access(null, null, "GET", "/bkt?list-type=2&max-keys=50&delimiter=/")))
        .isFalse();
    assertThat(allowed(access(null, null, "GET", "/bkt?list-type=2&max-keys=5"))).isFalse();
    assertThat(allowed(signed(ADMIN, "PUT", "/bkt/k"))).as("over plain HTTP").isFalse();
  }

  @Test
  void bypassGovernance_whenNotGranted_isDenied() {
    bucketPolicy(
        "bkt",
        """
        {"Statement": [{"Effect": "Allow", "Principal": {"AWS": "reader"},
          "Action": "s3:DeleteObject", "Resource": "arn:aws:s3:::bkt/*"}]}
        """);
    assertThat(allowed(signed(READER, "DELETE", "/bkt/k"))).isTrue();
    assertThat(
            allowed(
                signed(READER, "DELETE", "/bkt/k", "x-amz-bypass-governance-retention", "true")))
        .isFalse();
  }
}
