package io.racs.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.racs.testkit.TestTools;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * boto3 1.44 drives the proxy process over six MinIO servers (4x2), over HTTP and HTTPS, through
 * {@code src/test/resources/clients/boto3_roundtrip.py}: uploads carry boto3's default CRC32 and
 * the proxy returns the same CRC32; put/get/list/delete round trips are byte-exact for 0 B, 1 B, 5
 * MiB + 1 and 70 MiB (upload_file/download_file, multipart); a presigned PUT sent by a plain HTTP
 * client stores the body and a presigned GET returns it, with boto3's default presigner (SigV2
 * query authentication) and with SigV4. Through {@code boto3_cors.py}: put/get/delete_bucket_cors
 * round-trip the rules, an unsigned OPTIONS preflight sent with urllib is answered from them (and
 * refused with 403 for an origin they do not allow, or once deleted), and a signed GET carrying an
 * {@code Origin} gets {@code Access-Control-Allow-Origin}. Through {@code boto3_post.py}: a form
 * signed by {@code generate_presigned_post} and posted with urllib3 stores its file byte-exact (201
 * with a PostResponse), and one past its content-length-range or with a forged signature stores
 * nothing.
 */
class Boto3IT {
  @RegisterExtension static final ProxyPairExtension PROXIES = ProxyPairExtension.create();

  @TempDir static Path dir;
  private static final TypeReference<Map<String, String>> STRING_MAP = new TypeReference<>() {};
  private static final Pattern PAIR = Pattern.compile("\"([^\"]+)\": \"([^\"]*)\"");

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void script_whenRoundTrippingEverySize_isByteExactWithDefaultCrc32(boolean secure)
      throws Exception {
    Path work = Files.createDirectories(dir.resolve(secure ? "tls" : "plain"));
    // Over TLS 9 MiB is enough to go multipart (threshold 8 MiB) and keeps the run short.
    List<Long> sizes =
        secure ? List.of(0L, 1L, 5 * Clients.MIB + 1, 9 * Clients.MIB) : Clients.SIZES;
    Map<String, Path> files = new LinkedHashMap<>();
    List<String> entries = new ArrayList<>();
    for (long size : sizes) {
      String key = "objects/size-" + size;
      Path file = Clients.seededFile(work.resolve("up-" + size), 300 + size, size);
      files.put(key, file);
      entries.add("{\"key\": \"" + key + "\", \"path\": \"" + file + "\", \"size\": " + size + "}");
    }
    Path presign = Clients.seededFile(work.resolve("presign"), 301, 300_000);
    String bucket = "boto3-" + (secure ? "tls" : "plain");
    String config =
        "{\"endpoint\": \""
            + PROXIES.proxy(secure).endpoint()
            + "\", \"bucket\": \""
            + bucket
            + "\", \"caBundle\": "
            + (secure ? "\"" + PROXIES.tls().cert() + "\"" : "null")
            + ", \"workDir\": \""
            + work
            + "\", \"presignPath\": \""
            + presign
            + "\", \"files\": ["
            + String.join(", ", entries)
            + "]}";
    Path configFile = work.resolve("config.json");
    Files.writeString(configFile, config);
    Path script = Launcher.root().resolve("src/test/resources/clients/boto3_roundtrip.py");
    Launcher.Result result =
        Clients.ok(
            List.of(TestTools.python().toString(), script.toString(), configFile.toString()),
            Clients.cleanEnv(work.resolve("home")));
    Map<String, String> out = new LinkedHashMap<>();
    Matcher m = PAIR.matcher(result.stdout());
    while (m.find()) {
      out.put(m.group(1), m.group(2));
    }
    assertThat(out).as(result.stdout()).containsKey("boto3");

    List<String> listed = new ArrayList<>();
    for (Map.Entry<String, Path> e : files.entrySet()) {
      String key = e.getKey();
      long size = Files.size(e.getValue());
      listed.add(key + "=" + size);
      assertThat(out.get(key + "/get_size")).as(key).isEqualTo(Long.toString(size));
      assertThat(out.get(key + "/get_md5")).as(key).isEqualTo(Clients.md5Hex(e.getValue()));
      assertThat(out.get(key + "/sent"))
          .as("%s: boto3 sends CRC32 by default", key)
          .contains("crc32");
      if (size > 8 * Clients.MIB) {
        assertThat(out.get(key + "/etag")).as("%s: multipart ETag", key).contains("-");
      } else {
        String crc32 = crc32(Files.readAllBytes(e.getValue()));
        assertThat(out.get(key + "/expected_crc32")).isEqualTo(crc32);
        assertThat(out.get(key + "/put_crc32"))
            .as("%s: PUT answers the CRC32", key)
            .isEqualTo(crc32);
        assertThat(out.get(key + "/get_crc32"))
            .as("%s: GET returns the CRC32", key)
            .isEqualTo(crc32);
        assertThat(out.get(key + "/etag")).isEqualTo(Clients.md5Hex(e.getValue()));
      }
    }
    assertThat(out.get("list")).isEqualTo(String.join(",", listed));
    assertThat(out.get("list_prefixes")).isEqualTo("objects/");
    for (String variant : List.of("default", "s3v4")) {
      String prefix = "presigned_" + variant + "_";
      assertThat(out.get(prefix + "put_status")).as(variant).isEqualTo("200");
      assertThat(out.get(prefix + "get_status")).as(variant).isEqualTo("200");
      assertThat(out.get(prefix + "get_md5")).as(variant).isEqualTo(Clients.md5Hex(presign));
    }
    // boto3's default presigner for S3 still makes SigV2 query URLs; both must work.
    assertThat(out.get("presigned_default_put_query")).isEqualTo("sigv2");
    assertThat(out.get("presigned_s3v4_put_query")).isEqualTo("sigv4");
    assertThat(out.get("list_after_delete")).isEmpty();
    assertThat(out.get("head_after_delete")).isEqualTo("404");
  }

  /**
   * boto3 reads the ACLs of a bucket and an object as the one owner (the ListBuckets owner) with
   * FULL_CONTROL; a private ACL, by header or body, is accepted and a public one refused with
   * NotImplemented; get_object_attributes answers a single-PUT and a multipart object (parts
   * paged), and NoSuchKey for a missing key.
   */
  @Test
  void script_whenReadingAclsAndAttributes_ownerOnlyAndAttributesAsStored() throws Exception {
    Path work = Files.createDirectories(dir.resolve("acl"));
    String config =
        "{\"endpoint\": \"" + PROXIES.proxy(false).endpoint() + "\", \"bucket\": \"boto3-acl\"}";
    Path configFile = work.resolve("config.json");
    Files.writeString(configFile, config);
    Path script = Launcher.root().resolve("src/test/resources/clients/boto3_acl_attributes.py");
    Launcher.Result result =
        Clients.ok(
            List.of(TestTools.python().toString(), script.toString(), configFile.toString()),
            Clients.cleanEnv(work.resolve("home")));
    Map<String, String> out = new LinkedHashMap<>();
    Matcher m = PAIR.matcher(result.stdout());
    while (m.find()) {
      out.put(m.group(1), m.group(2));
    }
    String owner = out.get("owner");
    assertThat(owner).as(result.stdout()).isNotEmpty();
    for (String target : List.of("bucket", "object")) {
      assertThat(out.get(target + "_acl_owner")).isEqualTo(owner);
      assertThat(out.get(target + "_acl_grants"))
          .isEqualTo("CanonicalUser:" + owner + ":FULL_CONTROL");
    }
    assertThat(out.get("put_object_acl_private")).isEqualTo("ok");
    assertThat(out.get("put_bucket_acl_private")).isEqualTo("ok");
    assertThat(out.get("put_object_acl_owner_body")).isEqualTo("ok");
    assertThat(out.get("put_object_acl_public_read")).isEqualTo("NotImplemented");
    assertThat(out.get("put_bucket_acl_public_read")).isEqualTo("NotImplemented");
    assertThat(out.get("put_object_acl_public_body")).isEqualTo("NotImplemented");
    assertThat(out.get("attrs_etag")).isEqualTo(out.get("attrs_put_etag"));
    assertThat(out.get("attrs_size")).isEqualTo("10");
    assertThat(out.get("attrs_storage_class")).isEqualTo("STANDARD");
    assertThat(out.get("attrs_crc32")).isEqualTo(out.get("attrs_put_crc32"));
    assertThat(out.get("attrs_checksum_type")).isEqualTo("FULL_OBJECT");
    assertThat(out.get("attrs_has_parts")).isEqualTo("False");
    assertThat(out.get("mp_parts_count")).isEqualTo("2");
    assertThat(out.get("mp_truncated")).isEqualTo("True");
    assertThat(out.get("mp_first_part")).isEqualTo("1:" + 5 * Clients.MIB);
    assertThat(out.get("mp_first_part_crc32_matches")).isEqualTo("True");
    assertThat(out.get("attrs_missing_key")).isEqualTo("NoSuchKey");
  }

  @Test
  void versioning_whenEnabledThenSuspended_keepsVersionsAndReplacesTheNullVersion()
      throws Exception {
    Path work = Files.createDirectories(dir.resolve("versioning"));
    Path configFile = work.resolve("config.json");
    Files.writeString(
        configFile,
        "{\"endpoint\": \""
            + PROXIES.proxy(false).endpoint()
            + "\", \"bucket\": \"boto3-versioning\", \"caBundle\": null}");
    Path script = Launcher.root().resolve("src/test/resources/clients/boto3_versioning.py");
    Launcher.Result result =
        Clients.ok(
            List.of(TestTools.python().toString(), script.toString(), configFile.toString()),
            Clients.cleanEnv(work.resolve("home")));
    Map<String, String> out = new LinkedHashMap<>();
    Matcher m = PAIR.matcher(result.stdout());
    while (m.find()) {
      out.put(m.group(1), m.group(2));
    }
    assertThat(out).as(result.stdout()).containsKey("delete_bucket");
    assertThat(out.get("status_before")).isEmpty();
    assertThat(out.get("status_after")).isEqualTo("Enabled");
    assertThat(out.get("first_version")).isNotEmpty();
    assertThat(out.get("second_version")).isNotEmpty().isNotEqualTo(out.get("first_version"));
    assertThat(out.get("current")).isEqualTo("two");
    assertThat(out.get("delete_marker")).isEqualTo("True");
    assertThat(out.get("delete_version"))
        .isNotEmpty()
        .isNotIn(out.get("first_version"), out.get("second_version"));
    assertThat(out.get("get_after_delete")).isEqualTo("NoSuchKey 404");
    assertThat(out.get("suspend")).isEqualTo("ok");
    assertThat(out.get("status_after_suspend")).isEqualTo("Suspended");
    assertThat(out.get("get_first")).isEqualTo("one");
    assertThat(out.get("get_first_version")).isEqualTo(out.get("first_version"));
    assertThat(out.get("get_marker")).isEqualTo("MethodNotAllowed 405");
    assertThat(out.get("get_unknown")).isEqualTo("NoSuchVersion 404");
    assertThat(out.get("list_versions"))
        .isEqualTo(out.get("second_version") + "," + out.get("first_version"));
    assertThat(out.get("list_markers")).isEqualTo(out.get("delete_version") + "*");
    // Removing the marker by its version id brings the key back.
    assertThat(out.get("remove_marker")).isEqualTo("True " + out.get("delete_version"));
    assertThat(out.get("current_after_remove")).isEqualTo("two");
    // The versions are kept, so the bucket is not empty until they are removed too.
    assertThat(out.get("delete_bucket")).isEqualTo("BucketNotEmpty 409");
    assertThat(out.get("batch_deleted"))
        .isEqualTo(
            java.util.stream.Stream.of(out.get("first_version"), out.get("second_version"))
                .sorted()
                .collect(java.util.stream.Collectors.joining(",")));
    assertThat(out.get("batch_errors")).isEqualTo("0");
    assertThat(out.get("versions_left")).isEqualTo("0");
    assertThat(out.get("delete_bucket_emptied")).isEqualTo("ok");
    // The null version: the object written before versioning, then replaced while suspended.
    assertThat(out.get("null_get_before")).isEqualTo("before");
    assertThat(out.get("null_status")).isEqualTo("Suspended");
    assertThat(out.get("null_put_version")).isEmpty();
    assertThat(out.get("null_head_version")).isEqualTo("null");
    assertThat(out.get("null_get")).isEqualTo("second null");
    assertThat(out.get("null_list")).isEqualTo("null*," + out.get("null_kept_version"));
    assertThat(out.get("null_delete")).isEqualTo("True null");
    assertThat(out.get("null_list_markers")).isEqualTo("null*");
    assertThat(out.get("null_list_after_delete")).isEqualTo(out.get("null_kept_version"));
    assertThat(out.get("null_remove")).isEqualTo("null");
    assertThat(out.get("null_current")).isEqualTo("kept");
  }

  /**
   * Through {@code boto3_metadata.py}: put_object and create_multipart_upload with every standard
   * header and user metadata, copy_object with the default directive (COPY) and with REPLACE. The
   * proxy answers them on GET and HEAD, and boto3's head_object and get_object parse them.
   */
  @Test
  void script_whenMetadataSetOnPutMultipartAndCopy_isReturnedOnGetAndHead() throws Exception {
    Path work = Files.createDirectories(dir.resolve("metadata"));
    Path small = Clients.gzipFile(work.resolve("small.gz"), 48, 100_000);
    Path large = Clients.gzipFile(work.resolve("large.gz"), 49, 7 * Clients.MIB);
    ObjectMapper json = new ObjectMapper();
    Map<String, Object> config = new LinkedHashMap<>();
    config.put("endpoint", PROXIES.proxy(false).endpoint().toString());
    config.put("bucket", "boto3-metadata");
    config.put("small", small.toString());
    config.put("large", large.toString());
    config.put("headers", Clients.STANDARD_HEADERS);
    config.put("metadata", Clients.USER_METADATA);
    config.put("replacedHeaders", Clients.REPLACED_HEADERS);
    config.put("replacedMetadata", Clients.REPLACED_METADATA);
    Path configFile = work.resolve("config.json");
    Files.writeString(configFile, json.writeValueAsString(config));
    Path script = Launcher.root().resolve("src/test/resources/clients/boto3_metadata.py");
    Launcher.Result result =
        Clients.ok(
            List.of(TestTools.python().toString(), script.toString(), configFile.toString()),
            Clients.cleanEnv(work.resolve("home")));
    JsonNode out = json.readTree(result.stdout());

    Map<String, Path> sources =
        Map.of("put", small, "multipart", large, "copy", small, "replaced", small);
    for (String key : List.of("put", "multipart", "copy", "replaced")) {
      boolean replaced = key.equals("replaced");
      Map<String, String> headers = replaced ? Clients.REPLACED_HEADERS : Clients.STANDARD_HEADERS;
      Map<String, String> user = replaced ? Clients.REPLACED_METADATA : Clients.USER_METADATA;
      byte[] body =
          Clients.assertStoredMetadata(
              PROXIES.http().endpoint(), "boto3-metadata", key, headers, user);
      assertThat(Clients.md5Hex(body)).as(key).isEqualTo(Clients.md5Hex(sources.get(key)));
      for (String call : List.of("head", "get")) {
        JsonNode seen = out.path(key).path(call);
        assertThat(json.convertValue(seen.path("headers"), STRING_MAP))
            .as("%s %s", call, key)
            .isEqualTo(headers);
        assertThat(json.convertValue(seen.path("metadata"), STRING_MAP))
            .as("%s %s", call, key)
            .isEqualTo(user);
        assertThat(seen.path("etag").asText().contains("-"))
            .as("%s %s: a multipart ETag exactly for the multipart upload", call, key)
            .isEqualTo(key.equals("multipart"));
      }
      assertThat(out.path(key).path("get").path("md5").asText())
          .as(key)
          .isEqualTo(Clients.md5Hex(sources.get(key)));
    }
  }

  /**
   * Through {@code boto3_versions.py}, S3's version calls: list_object_versions lists every version
   * of every key, newest first per key with the newest latest (with a prefix, and paged by MaxKeys
   * with the key and version-id markers); delete_object with a VersionId removes exactly that
   * version; a delete marker is listed as latest, and deleting it by id makes the remaining version
   * current again. Until ListObjectVersions and DELETE ?versionId are served in versioned buckets,
   * the proxy answers them NotImplemented and the script fails at the first listing.
   */
  @Test
  void script_whenVersionsListedAndDeletedById_followS3() throws Exception {
    Path work = Files.createDirectories(dir.resolve("versions"));
    Path configFile = work.resolve("config.json");
    Files.writeString(
        configFile,
        "{\"endpoint\": \""
            + PROXIES.proxy(false).endpoint()
            + "\", \"bucket\": \"boto3-versions\"}");
    Path script = Launcher.root().resolve("src/test/resources/clients/boto3_versions.py");
    Launcher.Result result =
        Clients.ok(
            List.of(TestTools.python().toString(), script.toString(), configFile.toString()),
            Clients.cleanEnv(work.resolve("home")));
    JsonNode out = new ObjectMapper().readTree(result.stdout());
    String first = out.path("first").asText();
    String second = out.path("second").asText();
    String other = out.path("other").asText();
    String marker = out.path("marker").asText();
    assertThat(lines(out, "list"))
        .containsExactly("k " + second + " latest", "k " + first, "other " + other + " latest");
    assertThat(lines(out, "list_prefix")).containsExactly("k " + second + " latest", "k " + first);
    assertThat(lines(out, "page1")).containsExactly("k " + second + " latest");
    assertThat(out.path("page1_truncated").asBoolean()).isTrue();
    assertThat(lines(out, "page2")).containsExactly("k " + first);
    assertThat(out.path("get_first").asText()).isEqualTo("one");
    assertThat(out.path("delete_first_version_id").asText()).isEqualTo(first);
    assertThat(out.path("delete_first_marker").asText()).isEqualTo("False");
    assertThat(lines(out, "list_after_delete_first")).containsExactly("k " + second + " latest");
    assertThat(lines(out, "list_with_marker"))
        .containsExactly("k " + marker + " latest marker", "k " + second);
    assertThat(out.path("delete_marker_marker").asText()).isEqualTo("True");
    assertThat(out.path("delete_marker_version_id").asText()).isEqualTo(marker);
    assertThat(lines(out, "list_after_unmark")).containsExactly("k " + second + " latest");
    assertThat(out.path("current_after_unmark").asText()).isEqualTo("two");
  }

  private static List<String> lines(JsonNode out, String field) {
    List<String> lines = new ArrayList<>();
    out.path(field).forEach(n -> lines.add(n.asText()));
    return lines;
  }

  @Test
  void script_whenBucketCorsSetAndPreflighted_answersFromTheRules() throws Exception {
    Path work = Files.createDirectories(dir.resolve("cors"));
    Path configFile = work.resolve("config.json");
    Files.writeString(
        configFile,
        "{\"endpoint\": \"" + PROXIES.proxy(false).endpoint() + "\", \"bucket\": \"boto3-cors\"}");
    Path script = Launcher.root().resolve("src/test/resources/clients/boto3_cors.py");
    Launcher.Result result =
        Clients.ok(
            List.of(TestTools.python().toString(), script.toString(), configFile.toString()),
            Clients.cleanEnv(work.resolve("home")));
    Map<String, Object> out =
        new ObjectMapper().readValue(result.stdout(), new TypeReference<>() {});

    assertThat(out).as(result.stdout()).containsEntry("get_before", "NoSuchCORSConfiguration");
    assertThat(out.get("get_rules")).isEqualTo(out.get("put_rules"));
    assertThat(out).containsEntry("preflight_status", "200");
    assertThat(out).containsEntry("preflight_allow_origin", "https://app.example.com");
    assertThat(out).containsEntry("preflight_allow_methods", "GET, PUT");
    assertThat(out).containsEntry("preflight_allow_headers", "content-type, x-amz-date");
    assertThat(out).containsEntry("preflight_max_age", "300");
    assertThat(out).containsEntry("refused_status", "403");
    assertThat(out).containsEntry("refused_allow_origin", "");
    assertThat(out).containsEntry("get_object_body", "cors");
    assertThat(out).containsEntry("get_object_allow_origin", "https://app.example.com");
    assertThat(out).containsEntry("get_after_delete", "NoSuchCORSConfiguration");
    assertThat(out).containsEntry("preflight_after_delete", "403");
  }

  @Test
  void script_whenPresignedPostUploaded_storesTheFileByteExact() throws Exception {
    Path work = Files.createDirectories(dir.resolve("post"));
    Path file = Clients.seededFile(work.resolve("upload"), 302, 3 * Clients.MIB + 7);
    Path configFile = work.resolve("config.json");
    Files.writeString(
        configFile,
        "{\"endpoint\": \""
            + PROXIES.proxy(false).endpoint()
            + "\", \"bucket\": \"boto3-post\", \"path\": \""
            + file
            + "\"}");
    Path script = Launcher.root().resolve("src/test/resources/clients/boto3_post.py");
    Launcher.Result result =
        Clients.ok(
            List.of(TestTools.python().toString(), script.toString(), configFile.toString()),
            Clients.cleanEnv(work.resolve("home")));
    Map<String, Object> out =
        new ObjectMapper().readValue(result.stdout(), new TypeReference<>() {});

    assertThat(out).as(result.stdout()).containsEntry("status", "201");
    assertThat((String) out.get("body"))
        .contains("<Key>uploads/photo.png</Key>")
        .contains("<Bucket>boto3-post</Bucket>");
    assertThat(out).containsEntry("get_md5", Clients.md5Hex(file));
    assertThat(out).containsEntry("get_content_type", "image/png");
    assertThat(out).containsEntry("too_large_status", "400");
    assertThat((String) out.get("too_large_body")).contains("<Code>EntityTooLarge</Code>");
    assertThat(out).containsEntry("forged_status", "403");
    assertThat((String) out.get("forged_body")).contains("<Code>SignatureDoesNotMatch</Code>");
    assertThat(out).containsEntry("keys", "uploads/photo.png");
  }

  private static String crc32(byte[] data) {
    CRC32 crc = new CRC32();
    crc.update(data);
    return Base64.getEncoder()
        .encodeToString(ByteBuffer.allocate(4).putInt((int) crc.getValue()).array());
  }
}
