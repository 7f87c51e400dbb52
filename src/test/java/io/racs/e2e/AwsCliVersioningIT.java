package io.racs.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * aws-cli v1 drives versioned buckets through the proxy over six MinIO servers (4x2): with
 * versioning enabled every version stays readable by id, versions are listed and deleted by id as
 * S3 does, and writes before enabling and while suspended are the null version.
 */
@ResourceLock(AwsCliSupport.LOCK)
class AwsCliVersioningIT extends AwsCliSupport {
  /**
   * {@code s3api put-bucket-versioning} turns versioning on; each {@code put-object} answers a new
   * version id, {@code get-object --version-id} reads an older version, and {@code s3 rm} writes a
   * delete marker that hides the key (404) while the versions stay readable by id.
   */
  @Test
  void versioning_whenEnabled_keepsEveryVersionReadableById() throws Exception {
    String bucket = "cli-versioning";
    aws(false, "s3", "mb", "s3://" + bucket);
    aws(
        false,
        "s3api",
        "put-bucket-versioning",
        "--bucket",
        bucket,
        "--versioning-configuration",
        "Status=Enabled");
    assertThat(
            JSON.readTree(aws(false, "s3api", "get-bucket-versioning", "--bucket", bucket).stdout())
                .path("Status")
                .asText())
        .isEqualTo("Enabled");
    String first = putVersion(bucket, "k", "one");
    String second = putVersion(bucket, "k", "two");
    assertThat(first).isNotEmpty();
    assertThat(second).isNotEmpty().isNotEqualTo(first);
    assertThat(getVersion(bucket, "k", null)).isEqualTo("two");
    assertThat(getVersion(bucket, "k", first)).isEqualTo("one");
    assertThat(getVersion(bucket, "k", second)).isEqualTo("two");

    JsonNode deleted =
        JSON.readTree(
            aws(false, "s3api", "delete-object", "--bucket", bucket, "--key", "k").stdout());
    assertThat(deleted.path("DeleteMarker").asBoolean()).isTrue();
    String marker = deleted.path("VersionId").asText();
    assertThat(marker).isNotEmpty().isNotIn(first, second);
    Launcher.Result gone =
        Launcher.exec(
            awsCommand("s3api", "head-object", "--bucket", bucket, "--key", "k"),
            Clients.cleanEnv(dir.resolve("home")));
    assertThat(gone.exitCode()).isNotZero();
    assertThat(gone.stderr()).contains("404");
    assertThat(getVersion(bucket, "k", first)).isEqualTo("one");
    assertThat(getVersion(bucket, "k", second)).isEqualTo("two");
  }

  /**
   * S3's versions, as aws-cli reaches them: {@code s3api list-object-versions} lists both versions
   * of a key written twice (the newer one latest), {@code delete-object --version-id} removes
   * exactly one version, a plain delete adds a delete marker that list-object-versions shows as
   * latest, and deleting the marker by its id makes the newest remaining version current again.
   * Until ListObjectVersions and DELETE ?versionId are served in versioned buckets, the proxy
   * answers them NotImplemented and this test fails at the first listing.
   */
  @Test
  void versions_whenListedAndDeletedById_followS3() throws Exception {
    String bucket = "cli-versions";
    aws(false, "s3", "mb", "s3://" + bucket);
    aws(
        false,
        "s3api",
        "put-bucket-versioning",
        "--bucket",
        bucket,
        "--versioning-configuration",
        "Status=Enabled");
    String first = putVersion(bucket, "k", "one");
    String second = putVersion(bucket, "k", "two");
    assertThat(listVersions(bucket)).containsExactly("k " + second + " latest", "k " + first);
    assertThat(getVersion(bucket, "k", first)).isEqualTo("one");

    JsonNode removed =
        JSON.readTree(
            aws(
                    false,
                    "s3api",
                    "delete-object",
                    "--bucket",
                    bucket,
                    "--key",
                    "k",
                    "--version-id",
                    first)
                .stdout());
    assertThat(removed.path("VersionId").asText()).isEqualTo(first);
    assertThat(listVersions(bucket)).containsExactly("k " + second + " latest");
    assertThat(getVersion(bucket, "k", null)).isEqualTo("two");

    String marker =
        JSON.readTree(
                aws(false, "s3api", "delete-object", "--bucket", bucket, "--key", "k").stdout())
            .path("VersionId")
            .asText();
    assertThat(listVersions(bucket))
        .containsExactly("k " + marker + " latest marker", "k " + second);
    assertThat(getVersion(bucket, "k", second)).isEqualTo("two");

    JsonNode unmarked =
        JSON.readTree(
            aws(
                    false,
                    "s3api",
                    "delete-object",
                    "--bucket",
                    bucket,
                    "--key",
                    "k",
                    "--version-id",
                    marker)
                .stdout());
    assertThat(unmarked.path("DeleteMarker").asBoolean()).isTrue();
    assertThat(listVersions(bucket)).containsExactly("k " + second + " latest");
    assertThat(getVersion(bucket, "k", null)).isEqualTo("two");
  }

  /**
   * The null version, as aws-cli reaches it: a key written before versioning was enabled (its PUT
   * answers no version id) is listed by {@code list-object-versions} with the id "null" below the
   * version written after, and {@code get-object --version-id null} reads it. After {@code
   * put-bucket-versioning Suspended} a write replaces the null version: the listing has exactly one
   * "null", the new bytes, as latest above the kept version. {@code delete-object --version-id
   * null} removes it (no delete marker), and the kept version is current again.
   */
  @Test
  void versions_whenWrittenBeforeEnablingAndWhileSuspended_areTheNullVersion() throws Exception {
    String bucket = "cli-null-version";
    aws(false, "s3", "mb", "s3://" + bucket);
    assertThat(putVersion(bucket, "k", "one")).as("a bucket never versioned names no id").isEmpty();
    setVersioning(bucket, "Enabled");
    String second = putVersion(bucket, "k", "two");
    assertThat(second).isNotEmpty().isNotEqualTo("null");
    assertThat(listVersions(bucket)).containsExactly("k " + second + " latest", "k null");
    assertThat(getVersion(bucket, "k", "null")).isEqualTo("one");
    assertThat(getVersion(bucket, "k", null)).isEqualTo("two");

    setVersioning(bucket, "Suspended");
    assertThat(
            JSON.readTree(aws(false, "s3api", "get-bucket-versioning", "--bucket", bucket).stdout())
                .path("Status")
                .asText())
        .isEqualTo("Suspended");
    // The PUT answers no version id while versioning is suspended, as MinIO's does.
    assertThat(putVersion(bucket, "k", "three")).isEmpty();
    assertThat(listVersions(bucket)).containsExactly("k null latest", "k " + second);
    assertThat(getVersion(bucket, "k", "null")).isEqualTo("three");
    assertThat(getVersion(bucket, "k", null)).isEqualTo("three");

    JsonNode removed =
        JSON.readTree(
            aws(
                    false,
                    "s3api",
                    "delete-object",
                    "--bucket",
                    bucket,
                    "--key",
                    "k",
                    "--version-id",
                    "null")
                .stdout());
    assertThat(removed).isEqualTo(JSON.readTree("{\"VersionId\": \"null\"}"));
    assertThat(listVersions(bucket)).containsExactly("k " + second + " latest");
    assertThat(getVersion(bucket, "k", null)).isEqualTo("two");
    Launcher.Result gone =
        Launcher.exec(
            awsCommand(
                "s3api", "head-object", "--bucket", bucket, "--key", "k", "--version-id", "null"),
            Clients.cleanEnv(dir.resolve("home")));
    assertThat(gone.exitCode()).isNotZero();
    assertThat(gone.stderr()).contains("404");
  }

  private static void setVersioning(String bucket, String status) {
    aws(
        false,
        "s3api",
        "put-bucket-versioning",
        "--bucket",
        bucket,
        "--versioning-configuration",
        "Status=" + status);
  }

  /**
   * list-object-versions as lines {@code key versionId [latest] [marker]}, versions and delete
   * markers merged newest first per key (S3 lists them in that order within a key).
   */
  private static List<String> listVersions(String bucket) throws Exception {
    JsonNode listing =
        JSON.readTree(aws(false, "s3api", "list-object-versions", "--bucket", bucket).stdout());
    List<JsonNode> entries = new ArrayList<>();
    listing.path("Versions").forEach(entries::add);
    listing.path("DeleteMarkers").forEach(entries::add);
    entries.sort(
        java.util.Comparator.comparing((JsonNode e) -> e.path("Key").asText())
            .thenComparing(e -> !e.path("IsLatest").asBoolean())
            .thenComparing(
                e -> e.path("LastModified").asText(), java.util.Comparator.reverseOrder()));
    List<String> lines = new ArrayList<>();
    for (JsonNode e : entries) {
      boolean marker = !e.has("ETag");
      lines.add(
          e.path("Key").asText()
              + " "
              + e.path("VersionId").asText()
              + (e.path("IsLatest").asBoolean() ? " latest" : "")
              + (marker ? " marker" : ""));
    }
    return lines;
  }

  private static String putVersion(String bucket, String key, String content) throws Exception {
    Path body = Files.writeString(dir.resolve("version-" + content), content);
    return JSON.readTree(
            aws(
                    false,
                    "s3api",
                    "put-object",
                    "--bucket",
                    bucket,
                    "--key",
                    key,
                    "--body",
                    body.toString())
                .stdout())
        .path("VersionId")
        .asText();
  }

  /** The content of {@code key} (its version {@code versionId} unless null), read by get-object. */
  private static String getVersion(String bucket, String key, String versionId) throws Exception {
    Path out = dir.resolve("version-out");
    List<String> args =
        new ArrayList<>(List.of("s3api", "get-object", "--bucket", bucket, "--key", key));
    if (versionId != null) {
      args.addAll(List.of("--version-id", versionId));
    }
    args.add(out.toString());
    JsonNode answer = JSON.readTree(aws(false, args.toArray(String[]::new)).stdout());
    if (versionId != null) {
      assertThat(answer.path("VersionId").asText()).isEqualTo(versionId);
    }
    return Files.readString(out);
  }
}
