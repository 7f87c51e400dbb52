package io.racs.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.racs.testkit.TestTools;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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
 * configuration's key works throughout.
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
}
