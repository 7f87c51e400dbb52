package io.racs.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Bucket policies through real clients, on the proxy process over six MinIO servers (4x2): aws-cli
 * puts a policy granting everyone GetObject on one bucket, after which an unsigned {@code curl} GET
 * of an object there is served byte-exact while the same GET of a private bucket's object is 403
 * AccessDenied; and a Deny statement on a prefix makes even the administrator key's {@code aws s3
 * cp} into that prefix fail with AccessDenied, leaving the object as it was, while a PUT elsewhere
 * in the bucket works.
 */
@ResourceLock(AwsCliSupport.LOCK)
class BucketPolicyIT extends AwsCliSupport {
  private static Launcher.Result curl(String url) {
    return Launcher.exec(
        List.of("curl", "-s", "-w", "\n%{http_code}", url), Clients.cleanEnv(dir.resolve("home")));
  }

  private static String object(String bucket, String key) {
    return PROXIES.http().endpoint() + "/" + bucket + "/" + key;
  }

  @Test
  void anonymousCurl_whenPolicyGrantsEveryoneGet_isServedAndPrivateBucketIsDenied()
      throws Exception {
    String open = "cli-policy-public";
    String closed = "cli-policy-private";
    aws(false, "s3", "mb", "s3://" + open);
    aws(false, "s3", "mb", "s3://" + closed);
    Path file = Files.writeString(dir.resolve("hello.txt"), "hello, anyone");
    aws(false, "s3", "cp", file.toString(), "s3://" + open + "/pub/hello.txt");
    aws(false, "s3", "cp", file.toString(), "s3://" + closed + "/pub/hello.txt");
    Path policy =
        Files.writeString(
            dir.resolve("public.json"),
            """
            {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Principal": "*",
              "Action": "s3:GetObject", "Resource": "arn:aws:s3:::cli-policy-public/*"}]}
            """);
    aws(false, "s3api", "put-bucket-policy", "--bucket", open, "--policy", "file://" + policy);

    Launcher.Result served = curl(object(open, "pub/hello.txt"));
    assertThat(served.stdout()).isEqualTo("hello, anyone\n200");
    Launcher.Result denied = curl(object(closed, "pub/hello.txt"));
    assertThat(denied.stdout()).contains("<Code>AccessDenied</Code>").endsWith("\n403");
    Launcher.Result list = curl(PROXIES.http().endpoint() + "/" + open + "?list-type=2");
    assertThat(list.stdout()).as("the policy grants no listing").endsWith("\n403");
  }

  @Test
  void adminCp_whenDenyStatementCoversPrefix_isAccessDeniedAndChangesNothing() throws Exception {
    String bucket = "cli-policy-deny";
    aws(false, "s3", "mb", "s3://" + bucket);
    Path before = Files.writeString(dir.resolve("before.txt"), "before");
    Path after = Files.writeString(dir.resolve("after.txt"), "after");
    aws(false, "s3", "cp", before.toString(), "s3://" + bucket + "/locked/file.txt");
    Path policy =
        Files.writeString(
            dir.resolve("deny.json"),
            """
            {"Version": "2012-10-17", "Statement": [{"Effect": "Deny", "Principal": "*",
              "Action": "s3:PutObject", "Resource": "arn:aws:s3:::cli-policy-deny/locked/*"}]}
            """);
    aws(false, "s3api", "put-bucket-policy", "--bucket", bucket, "--policy", "file://" + policy);

    Launcher.Result refused =
        Launcher.exec(
            awsCommand("s3", "cp", after.toString(), "s3://" + bucket + "/locked/file.txt"),
            Clients.cleanEnv(dir.resolve("home")));
    assertThat(refused.exitCode()).isNotZero();
    assertThat(refused.stderr()).contains("AccessDenied");
    Path back = dir.resolve("back.txt");
    aws(false, "s3", "cp", "s3://" + bucket + "/locked/file.txt", back.toString());
    assertThat(Files.readString(back)).isEqualTo("before");
    aws(false, "s3", "cp", after.toString(), "s3://" + bucket + "/open/file.txt");
    String got =
        aws(false, "s3api", "get-bucket-policy", "--bucket", bucket, "--query", "Policy").stdout();
    assertThat(got).contains("locked/*");
  }
}
