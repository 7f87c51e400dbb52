package io.racs.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.racs.testkit.TestTools;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Proves the users stored in the array through the real proxy process and boto3, via {@code
 * src/test/resources/clients/boto3_users.py}: a user added by {@code racs users add} against the
 * running proxy's array is known within a second of the command returning, because the command
 * announces it through the ZooKeeper the configuration names (the proxy's periodic re-read is 60 s
 * there, so only the announcement, or the re-read an unknown key asks for, can explain it); given a
 * policy that reads public/ only, it can GET and list there, and gets AccessDenied for PUT, DELETE,
 * the rest of the bucket and a PUT through a URL it presigned, which change nothing; once {@code
 * racs users remove} returned, the same key gets {@code InvalidAccessKeyId} within a second; the
 * configuration's key works throughout. And aws-cli and rclone, signing as a stored user with the
 * same read-only policy, read and list public/ and are refused (AccessDenied, nothing stored)
 * everything else.
 */
class UsersIT {
  @TempDir Path dir;

  @Test
  void addedUser_signsWithinASecond_andRemovedOneIsRefused() throws Exception {
    Path proxyDir = Files.createDirectories(dir.resolve("proxy"));
    try (TestingServer zookeeper = new TestingServer(true);
        ProxyProcess proxy =
            ProxyProcess.start(
                proxyDir,
                ProxyProcess.fsConfig(proxyDir, "4x2", null)
                    + "coordination:\n  zookeeper: "
                    + zookeeper.getConnectString()
                    + "\n")) {
      Path configFile = dir.resolve("users.json");
      ObjectMapper json = new ObjectMapper();
      json.writeValue(
          configFile.toFile(),
          json.createObjectNode()
              .put("endpoint", proxy.endpoint().toString())
              .put("racs", Launcher.root().resolve("racs").toString())
              .put("configFile", proxyDir.resolve("racs.yaml").toString())
              .put("user", "reader")
              .put("bucket", "users-it")
              .put("adminKey", ProxyProcess.ACCESS_KEY)
              .put("adminSecret", ProxyProcess.SECRET_KEY)
              .set("env", json.createObjectNode().put("RACS_NO_BUILD", "1")));
      Path script = Launcher.root().resolve("src/test/resources/clients/boto3_users.py");
      Launcher.Result result =
          Clients.ok(
              List.of(TestTools.python().toString(), script.toString(), configFile.toString()),
              Clients.cleanEnv(dir.resolve("home")));
      System.out.println("boto3_users.py: " + result.stdout().strip());
      JsonNode out = json.readTree(result.stdout());

      assertThat(out.get("addSeconds").isNumber()).as(result.stdout()).isTrue();
      assertThat(out.get("addSeconds").asDouble()).as(result.stdout()).isLessThan(1.0);
      // Before it was known, the key was only ever unknown (never an error of another kind).
      assertThat(out.get("addSeen").toString()).isIn("[]", "[\"InvalidAccessKeyId\"]");
      // A read-only user of public/: reads and lists there, and nothing else, through the one
      // decision point; its denied writes changed nothing.
      assertThat(out.get("policySeconds").isNumber()).as(result.stdout()).isTrue();
      assertThat(out.get("policySeconds").asDouble()).as(result.stdout()).isLessThan(1.0);
      assertThat(out.get("getPublic").asText()).isEqualTo("public bytes");
      assertThat(out.get("listPublic").asText()).isEqualTo("OK");
      assertThat(out.get("listAll").asText()).isEqualTo("AccessDenied");
      assertThat(out.get("putPublic").asText()).isEqualTo("AccessDenied");
      assertThat(out.get("deletePublic").asText()).isEqualTo("AccessDenied");
      assertThat(out.get("getPrivate").asText()).isEqualTo("AccessDenied");
      assertThat(out.get("presignedPut").asInt()).isEqualTo(403);
      assertThat(out.get("publicAfter").asText()).isEqualTo("public bytes");
      assertThat(out.get("keysAfter").toString()).isEqualTo("[\"private/b.txt\",\"public/a.txt\"]");
      assertThat(out.get("removeSeconds").isNumber()).as(result.stdout()).isTrue();
      assertThat(out.get("removeSeconds").asDouble()).as(result.stdout()).isLessThan(1.0);
      assertThat(out.get("removeSeen").toString()).isIn("[]", "[\"AccessDenied\"]");

      // The configuration's key is an administrator throughout, and sees the user's bucket.
      Launcher.Result listed =
          Clients.ok(
              List.of(
                  TestTools.awsCli().toString(),
                  "s3api",
                  "list-buckets",
                  "--endpoint-url",
                  proxy.endpoint().toString()),
              Clients.cleanEnv(dir.resolve("home")));
      assertThat(listed.stdout()).contains("users-it");
    }
  }

  @Test
  void storedUser_throughAwsCliAndRclone_readsPublicOnly_andIsDeniedTheRest() throws Exception {
    Path proxyDir = Files.createDirectories(dir.resolve("cli-proxy"));
    try (ProxyProcess proxy =
        ProxyProcess.start(proxyDir, ProxyProcess.fsConfig(proxyDir, "4x2", null))) {
      String endpoint = proxy.endpoint().toString();
      String config = proxyDir.resolve("racs.yaml").toString();
      Map<String, String> admin = Clients.cleanEnv(dir.resolve("admin-home"));
      Path publicFile = Files.writeString(dir.resolve("a.txt"), "public bytes");
      Path privateFile = Files.writeString(dir.resolve("b.txt"), "private bytes");
      Clients.ok(aws(endpoint, "s3", "mb", "s3://users-cli"), admin);
      Clients.ok(
          aws(endpoint, "s3", "cp", publicFile.toString(), "s3://users-cli/public/a.txt"), admin);
      Clients.ok(
          aws(endpoint, "s3", "cp", privateFile.toString(), "s3://users-cli/private/b.txt"), admin);

      // The user and its policy are stored before its first request, which (its key unknown to
      // the proxy) makes the proxy re-read the users at once: no coordination is needed.
      Launcher.Result added =
          Launcher.run(Map.of(), "users", "add", "cli-reader", "--config", config);
      assertThat(added.exitCode()).as(added.stderr()).isZero();
      Matcher keys =
          Pattern.compile("access key: (\\S+)[\\s\\S]*secret key: (\\S+)").matcher(added.stdout());
      assertThat(keys.find()).as("racs users add printed the access and secret key").isTrue();
      Path policy =
          Files.writeString(
              dir.resolve("cli-read-public.json"),
              """
              {"Version": "2012-10-17", "Statement": [
                {"Effect": "Allow", "Action": "s3:GetObject",
                 "Resource": "arn:aws:s3:::users-cli/public/*"},
                {"Effect": "Allow", "Action": "s3:ListBucket", "Resource": "arn:aws:s3:::users-cli",
                 "Condition": {"StringLike": {"s3:prefix": "public/*"}}}]}
              """);
      Launcher.Result attached =
          Launcher.run(
              Map.of(),
              "users",
              "attach-policy",
              "cli-reader",
              "read-public",
              "--file",
              policy.toString(),
              "--config",
              config);
      assertThat(attached.exitCode()).as(attached.stderr()).isZero();
      Map<String, String> user = Clients.cleanEnv(dir.resolve("user-home"));
      user.put("AWS_ACCESS_KEY_ID", keys.group(1));
      user.put("AWS_SECRET_ACCESS_KEY", keys.group(2));

      // aws-cli as the user.
      Launcher.Result got = null;
      for (int attempt = 0; attempt < 10 && (got == null || got.exitCode() != 0); attempt++) {
        // Not a wait: each attempt is a request, and the first one asks for the re-read.
        got = Launcher.exec(aws(endpoint, "s3", "cp", "s3://users-cli/public/a.txt", "-"), user);
      }
      assertThat(got.exitCode()).as(got.stderr()).isZero();
      assertThat(got.stdout()).isEqualTo("public bytes");
      assertThat(Clients.ok(aws(endpoint, "s3", "ls", "s3://users-cli/public/"), user).stdout())
          .contains("a.txt");
      assertDenied(
          aws(
              endpoint,
              "s3api",
              "put-object",
              "--bucket",
              "users-cli",
              "--key",
              "public/cli.txt",
              "--body",
              publicFile.toString()),
          user);
      assertDenied(
          aws(
              endpoint,
              "s3api",
              "get-object",
              "--bucket",
              "users-cli",
              "--key",
              "private/b.txt",
              dir.resolve("out.txt").toString()),
          user);
      assertDenied(aws(endpoint, "s3api", "list-objects-v2", "--bucket", "users-cli"), user);
      assertDenied(
          aws(endpoint, "s3api", "delete-object", "--bucket", "users-cli", "--key", "public/a.txt"),
          user);

      // rclone as the user.
      Map<String, String> remote = new HashMap<>(user);
      remote.put("RCLONE_CONFIG_RACS_TYPE", "s3");
      remote.put("RCLONE_CONFIG_RACS_PROVIDER", "Other");
      remote.put("RCLONE_CONFIG_RACS_ENDPOINT", endpoint);
      remote.put("RCLONE_CONFIG_RACS_ACCESS_KEY_ID", keys.group(1));
      remote.put("RCLONE_CONFIG_RACS_SECRET_ACCESS_KEY", keys.group(2));
      remote.put("RCLONE_CONFIG_RACS_REGION", "us-east-1");
      remote.put("RCLONE_CONFIG_RACS_FORCE_PATH_STYLE", "true");
      assertThat(Clients.ok(rclone("cat", "racs:users-cli/public/a.txt"), remote).stdout())
          .isEqualTo("public bytes");
      assertThat(Clients.ok(rclone("lsf", "racs:users-cli/public/"), remote).stdout().strip())
          .isEqualTo("a.txt");
      assertDenied(
          rclone("copyto", publicFile.toString(), "racs:users-cli/public/rclone.txt"), remote);
      assertDenied(rclone("cat", "racs:users-cli/private/b.txt"), remote);
      assertDenied(rclone("deletefile", "racs:users-cli/public/a.txt"), remote);

      // Nothing the user was denied changed anything.
      assertThat(
              Clients.ok(
                      aws(
                          endpoint,
                          "s3api",
                          "list-objects-v2",
                          "--bucket",
                          "users-cli",
                          "--query",
                          "Contents[].Key",
                          "--output",
                          "text"),
                      admin)
                  .stdout()
                  .strip()
                  .split("\\s+"))
          .containsExactly("private/b.txt", "public/a.txt");
    }
  }

  private static List<String> aws(String endpoint, String... args) {
    List<String> command = new ArrayList<>();
    command.add(TestTools.awsCli().toString());
    command.addAll(List.of(args));
    command.add("--endpoint-url");
    command.add(endpoint);
    return command;
  }

  private static List<String> rclone(String... args) {
    List<String> command = new ArrayList<>();
    command.add(TestTools.rclone().toString());
    command.addAll(List.of(args));
    // One attempt each: a denial is final, and rclone would retry it ten times.
    command.addAll(List.of("--retries", "1", "--low-level-retries", "1"));
    return command;
  }

  /** Runs {@code command}, which must fail with AccessDenied. */
  private static void assertDenied(List<String> command, Map<String, String> env) {
    Launcher.Result result = Launcher.exec(command, env);
    assertThat(result.exitCode()).as("%s: %s", command, result.stdout()).isNotZero();
    assertThat(result.stderr()).as("%s", command).contains("AccessDenied");
  }
}
