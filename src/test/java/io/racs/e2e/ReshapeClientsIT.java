package io.racs.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.racs.testkit.TestTools;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * boto3 and aws-cli (v1, as provisioned) see the same versioned, partly encrypted bucket before and
 * after a reshape from 4x2 to 3x3 over the same six repositories: boto3 writes plain, SSE-S3 and
 * SSE-C versions and a delete marker ({@code src/test/resources/clients/boto3_reshape.py}), aws-cli
 * adds SSE-S3 versions of its own, and afterwards both list the same versions with the same ids,
 * latest flags, ETags, sizes, times and encryption, and read each one back byte-exact (SSE-C with
 * its key). The reshape runs in the foreground ({@code racs reshape run --fence 0}) while no proxy
 * serves, as docs/operations.md allows; the proxy is then started on the new file.
 */
class ReshapeClientsIT {
  private static final String BUCKET = "reshape-clients";

  @TempDir Path dir;

  @Test
  void boto3AndAwsCli_beforeAndAfterAReshape_seeTheSameVersionsIdsETagsAndBytes() throws Exception {
    Tls tls = Tls.create(Files.createDirectories(dir.resolve("tls")));
    Path keyFile = dir.resolve("master.key");
    Files.writeString(keyFile, HexFormat.of().formatHex(Clients.seededBytes(3801, 32)) + "\n");
    Files.setPosixFilePermissions(keyFile, PosixFilePermissions.fromString("rw-------"));
    String old =
        ProxyProcess.fsConfig(
                Files.createDirectories(dir.resolve("array")), "4x2", tls.serverYaml())
            + "encryption:\n  keyFile: "
            + keyFile
            + "\n";
    String reshaped = old.replace("geometry: 4x2\n", "geometry: 3x3\n");
    Path from = Files.writeString(dir.resolve("from.yaml"), old);
    Path to = Files.writeString(dir.resolve("to.yaml"), reshaped);
    Path proxyDir = Files.createDirectories(dir.resolve("proxy"));
    Path cliFile = Clients.seededFile(dir.resolve("cli-up"), 3802, 2 * Clients.MIB + 5);

    String boto3Before;
    String cliBefore;
    List<String> cliBodiesBefore;
    try (ProxyProcess proxy = ProxyProcess.start(proxyDir, old)) {
      boto3(proxy, tls, "write");
      for (int i = 0; i < 2; i++) {
        aws(
            proxy,
            tls,
            "s3",
            "cp",
            cliFile.toString(),
            "s3://" + BUCKET + "/cli/object",
            "--sse",
            "AES256");
      }
      boto3Before = boto3(proxy, tls, "read"); // aws-cli's versions too
      cliBefore = cliVersions(proxy, tls);
      cliBodiesBefore = cliBodies(proxy, tls, cliBefore);
    }
    JsonNode listed = new ObjectMapper().readTree(boto3Before);
    assertThat(listed.size()).as(boto3Before).isEqualTo(12); // 3 x 3, a marker, aws-cli's 2
    assertThat(boto3Before).contains("\"sse\": \"AES256\"", "\"sseC\": \"AES256\"");

    Launcher.Result start = ReshapeArray.reshape(from, "start", "--to", to.toString());
    assertThat(start.exitCode()).as(start.stderr()).isZero();
    Launcher.Result run = ReshapeArray.reshape(from, "run", "--fence", "0");
    assertThat(run.exitCode()).as("reshape run: %s", run.stderr()).isZero();
    assertThat(ReshapeArray.reshape(from, "status").exitCode()).isZero();
    Launcher.Result plan = ReshapeArray.reshape(to, "plan", "--to", to.toString());
    assertThat(plan.stdout()).contains(", to move: 0 (");

    try (ProxyProcess proxy = ProxyProcess.start(proxyDir, reshaped)) {
      assertThat(new ObjectMapper().readTree(boto3(proxy, tls, "read"))).isEqualTo(listed);
      String cliAfter = cliVersions(proxy, tls);
      assertThat(new ObjectMapper().readTree(cliAfter))
          .isEqualTo(new ObjectMapper().readTree(cliBefore));
      assertThat(cliBodies(proxy, tls, cliAfter))
          .isEqualTo(cliBodiesBefore)
          .containsOnly(Clients.md5Hex(cliFile));
    }
  }

  private String boto3(ProxyProcess proxy, Tls tls, String mode) throws Exception {
    Path config = dir.resolve("boto3.json");
    Files.writeString(
        config,
        "{\"endpoint\": \""
            + proxy.endpoint()
            + "\", \"caBundle\": \""
            + tls.cert()
            + "\", \"bucket\": \""
            + BUCKET
            + "\"}");
    Path script = Launcher.root().resolve("src/test/resources/clients/boto3_reshape.py");
    return Clients.ok(
            List.of(TestTools.python().toString(), script.toString(), config.toString(), mode),
            Clients.cleanEnv(dir.resolve("home")))
        .stdout();
  }

  private Launcher.Result aws(ProxyProcess proxy, Tls tls, String... args) {
    List<String> command = new ArrayList<>();
    command.add(TestTools.awsCli().toString());
    command.addAll(List.of(args));
    command.addAll(
        List.of(
            "--endpoint-url", proxy.endpoint().toString(), "--ca-bundle", tls.cert().toString()));
    return Clients.ok(command, Clients.cleanEnv(dir.resolve("home")));
  }

  /** aws-cli's ListObjectVersions of cli/, as it prints it (JSON). */
  private String cliVersions(ProxyProcess proxy, Tls tls) {
    return aws(proxy, tls, "s3api", "list-object-versions", "--bucket", BUCKET, "--prefix", "cli/")
        .stdout();
  }

  /** The MD5 of each version {@code listing} names, read back by aws-cli by its id. */
  private List<String> cliBodies(ProxyProcess proxy, Tls tls, String listing) throws Exception {
    List<String> md5s = new ArrayList<>();
    for (JsonNode v : new ObjectMapper().readTree(listing).path("Versions")) {
      Path down = dir.resolve("cli-down");
      aws(
          proxy,
          tls,
          "s3api",
          "get-object",
          "--bucket",
          BUCKET,
          "--key",
          v.get("Key").asText(),
          "--version-id",
          v.get("VersionId").asText(),
          down.toString());
      md5s.add(Clients.md5Hex(down));
    }
    assertThat(md5s).hasSize(2);
    return md5s;
  }
}
