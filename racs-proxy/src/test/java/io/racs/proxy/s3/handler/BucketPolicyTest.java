package io.racs.proxy.s3.handler;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.Delete;
import software.amazon.awssdk.services.s3.model.DeleteObjectsResponse;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;

/**
 * Proves Put, Get and DeleteBucketPolicy and GetBucketPolicyStatus through the real server and the
 * AWS SDK: a policy round-trips as given; a malformed one (bad JSON, an unknown action, a resource
 * of another bucket, over 20 KB) is MalformedPolicy and changes nothing; a bucket without one is
 * NoSuchBucketPolicy. And that the policy is enforced: granting everyone GetObject serves an
 * unsigned GET, which is denied without it; a Deny on a prefix denies even the administrator's PUT
 * (nothing stored) and DeleteObjects reports the denied keys as errors while deleting the others.
 */
class BucketPolicyTest {
  private static final String BUCKET = "policies";

  @RegisterExtension static final S3FrontEnd proxy = S3FrontEnd.withBucket(BUCKET);

  private static final String PUBLIC_READ =
      """
      {"Version": "2012-10-17", "Statement": [{"Sid": "PublicRead", "Effect": "Allow",
        "Principal": "*", "Action": "s3:GetObject", "Resource": "arn:aws:s3:::policies/*"}]}
      """;

  private static final String DENY_LOCKED =
      """
      {"Version": "2012-10-17", "Statement": [{"Effect": "Deny", "Principal": "*",
        "Action": ["s3:PutObject", "s3:DeleteObject"],
        "Resource": "arn:aws:s3:::policies/locked/*"}]}
      """;

  @AfterEach
  void noPolicy() {
    proxy.s3().deleteBucketPolicy(b -> b.bucket(BUCKET));
  }

  private static void putPolicy(String json) {
    proxy.s3().putBucketPolicy(b -> b.bucket(BUCKET).policy(json));
  }

  @Test
  void putBucketPolicy_whenValid_roundTripsAndReportsPublic() {
    putPolicy(PUBLIC_READ);

    assertThat(proxy.s3().getBucketPolicy(b -> b.bucket(BUCKET)).policy()).isEqualTo(PUBLIC_READ);
    assertThat(proxy.s3().getBucketPolicyStatus(b -> b.bucket(BUCKET)).policyStatus().isPublic())
        .isTrue();
  }

  @Test
  void getBucketPolicy_whenNone_isNoSuchBucketPolicy() {
    assertThat(
            S3FrontEnd.error(() -> proxy.s3().getBucketPolicy(b -> b.bucket(BUCKET)))
                .awsErrorDetails()
                .errorCode())
        .isEqualTo("NoSuchBucketPolicy");
  }

  @Test
  void putBucketPolicy_whenMalformed_isRefusedAndChangesNothing() {
    putPolicy(DENY_LOCKED);
    List<String> bad =
        List.of(
            "{not json",
            PUBLIC_READ.replace("s3:GetObject", "s3:GetObjekt"),
            PUBLIC_READ.replace("arn:aws:s3:::policies/*", "arn:aws:s3:::elsewhere/*"),
            PUBLIC_READ.replace("PublicRead", "x".repeat(21 * 1024)));
    for (String policy : bad) {
      assertThat(S3FrontEnd.error(() -> putPolicy(policy)).awsErrorDetails().errorCode())
          .as("%.40s", policy)
          .isEqualTo("MalformedPolicy");
    }
    assertThat(proxy.s3().getBucketPolicy(b -> b.bucket(BUCKET)).policy()).isEqualTo(DENY_LOCKED);
  }

  @Test
  void anonymousGet_whenPolicyGrantsEveryone_isServedAndOtherwiseDenied() throws Exception {
    proxy.put("public/readme.txt", "hello");

    S3FrontEnd.Raw denied =
        proxy.sendUnsigned("GET", "/" + BUCKET + "/public/readme.txt", Map.of(), null);
    assertThat(denied.status()).isEqualTo(403);
    assertThat(denied.code()).isEqualTo("AccessDenied");

    putPolicy(PUBLIC_READ);
    S3FrontEnd.Raw served =
        proxy.sendUnsigned("GET", "/" + BUCKET + "/public/readme.txt", Map.of(), null);
    assertThat(served.status()).isEqualTo(200);
    assertThat(served.text()).isEqualTo("hello");

    S3FrontEnd.Raw put =
        proxy.sendUnsigned("PUT", "/" + BUCKET + "/public/evil.txt", Map.of(), "x".getBytes());
    assertThat(put.status()).isEqualTo(403);
    assertThat(put.code()).isEqualTo("AccessDenied");
    assertThat(S3FrontEnd.error(() -> proxy.get("public/evil.txt")).awsErrorDetails().errorCode())
        .isEqualTo("NoSuchKey");
  }

  @Test
  void put_whenDenyStatementCoversPrefix_isDeniedEvenToTheAdministrator() {
    proxy.put("locked/kept.txt", "before");
    putPolicy(DENY_LOCKED);

    assertThat(
            S3FrontEnd.error(
                    () ->
                        proxy
                            .s3()
                            .putObject(
                                b -> b.bucket(BUCKET).key("locked/kept.txt"),
                                RequestBody.fromString("after")))
                .awsErrorDetails()
                .errorCode())
        .isEqualTo("AccessDenied");
    assertThat(proxy.get("locked/kept.txt")).isEqualTo("before");
    proxy.put("open/fine.txt", "ok");
    assertThat(proxy.get("open/fine.txt")).isEqualTo("ok");
  }

  @Test
  void deleteObjects_whenSomeKeysDenied_reportsThemAndDeletesTheRest() {
    proxy.put("locked/a.txt", "a");
    proxy.put("open/b.txt", "b");
    putPolicy(DENY_LOCKED);

    DeleteObjectsResponse response =
        proxy
            .s3()
            .deleteObjects(
                b ->
                    b.bucket(BUCKET)
                        .delete(
                            Delete.builder()
                                .objects(
                                    ObjectIdentifier.builder().key("locked/a.txt").build(),
                                    ObjectIdentifier.builder().key("open/b.txt").build())
                                .build()));

    assertThat(response.errors()).hasSize(1);
    assertThat(response.errors().get(0).key()).isEqualTo("locked/a.txt");
    assertThat(response.errors().get(0).code()).isEqualTo("AccessDenied");
    assertThat(response.deleted()).extracting(d -> d.key()).containsExactly("open/b.txt");
    assertThat(proxy.get("locked/a.txt")).isEqualTo("a");
  }

  @Test
  void policy_whenItDeniesEverything_stillLetsTheAdministratorRemoveIt() {
    putPolicy(
        """
        {"Statement": [{"Effect": "Deny", "Principal": "*", "Action": "s3:*",
          "Resource": ["arn:aws:s3:::policies", "arn:aws:s3:::policies/*"]}]}
        """);
    assertThat(
            S3FrontEnd.error(() -> proxy.s3().listObjectsV2(b -> b.bucket(BUCKET)))
                .awsErrorDetails()
                .errorCode())
        .isEqualTo("AccessDenied");

    proxy.s3().deleteBucketPolicy(b -> b.bucket(BUCKET));

    assertThat(proxy.s3().listObjectsV2(b -> b.bucket(BUCKET)).sdkHttpResponse().isSuccessful())
        .isTrue();
  }
}
