package io.racs.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * aws-cli v1 drives the proxy process over six MinIO servers (4x2), over HTTP and over HTTPS with
 * {@code --ca-bundle}: {@code s3 mb}, {@code cp} round trips that are byte-exact for 0 B, 1 B, 5
 * MiB + 1 and 70 MiB (multipart), listings with and without delimiters, {@code sync} uploading only
 * what changed and deleting with {@code --delete}, {@code rm}, {@code s3api} calls, and presigned
 * URLs: a fresh one serves the object to a plain HTTP GET, an expired one is AccessDenied; and
 * metadata headers on put, multipart and copy.
 */
@ResourceLock(AwsCliSupport.LOCK)
class AwsCliIT extends AwsCliSupport {
  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void cp_whenRoundTrippingEverySize_isByteExact(boolean secure) throws Exception {
    String bucket = "cli-cp-" + (secure ? "tls" : "plain");
    aws(secure, "s3", "mb", "s3://" + bucket);
    Path work = Files.createDirectories(dir.resolve(bucket));
    // Over TLS 9 MiB is enough to go multipart (the threshold is 8 MiB) and keeps the run short.
    List<Long> sizes =
        secure ? List.of(0L, 1L, 5 * Clients.MIB + 1, 9 * Clients.MIB) : Clients.SIZES;
    Map<String, Long> expected = new TreeMap<>();
    for (long size : sizes) {
      Path up = Clients.seededFile(work.resolve("up-" + size), 100 + size, size);
      String key = "objects/size-" + size;
      aws(secure, "s3", "cp", up.toString(), "s3://" + bucket + "/" + key);
      Path down = work.resolve("down-" + size);
      aws(secure, "s3", "cp", "s3://" + bucket + "/" + key, down.toString());
      assertThat(Files.size(down)).as("size %d", size).isEqualTo(size);
      assertThat(Clients.md5Hex(down)).as("size %d", size).isEqualTo(Clients.md5Hex(up));
      expected.put(key, size);
    }
    String listing =
        aws(
                secure,
                "s3api",
                "list-objects-v2",
                "--bucket",
                bucket,
                "--query",
                "Contents[].[Key, Size, ETag]",
                "--output",
                "text")
            .stdout();
    Map<String, Long> listed = new TreeMap<>();
    for (String line : listing.strip().split("\n")) {
      String[] fields = line.strip().split("\\s+");
      long size = Long.parseLong(fields[1]);
      listed.put(fields[0], size);
      assertThat(fields[2].contains("-"))
          .as("%s: a multipart ETag exactly when above the 8 MiB threshold", line)
          .isEqualTo(size > 8 * Clients.MIB);
    }
    assertThat(listed).isEqualTo(expected);
    String head =
        aws(
                secure,
                "s3api",
                "head-object",
                "--bucket",
                bucket,
                "--key",
                "objects/size-1",
                "--query",
                "ContentLength",
                "--output",
                "text")
            .stdout()
            .strip();
    assertThat(head).isEqualTo("1");
  }

  /**
   * {@code s3 cp} with every metadata option, for a single PUT and a multipart upload, {@code s3api
   * put-object} with every one and {@code --tagging}, and {@code s3api copy-object} with the COPY
   * and the REPLACE directive: the proxy stores the headers, user metadata and tags and returns
   * them on GET and HEAD (the tag count; the tags on GetObjectTagging), and aws-cli reads them back
   * from both.
   */
  @Test
  void metadata_onPutMultipartAndCopy_isStoredAndReturnedOnGetAndHead() throws Exception {
    String bucket = "cli-metadata";
    aws(false, "s3", "mb", "s3://" + bucket);
    Path work = Files.createDirectories(dir.resolve(bucket));
    Path small = Clients.gzipFile(work.resolve("small.gz"), 40, 100_000);
    // Above the 8 MiB threshold: aws-cli sends the options with CreateMultipartUpload.
    Path large = Clients.gzipFile(work.resolve("large.gz"), 41, 9 * Clients.MIB);
    Map<String, String> standard = Clients.STANDARD_HEADERS;
    List<String> options =
        List.of(
            "--cache-control",
            standard.get("Cache-Control"),
            "--content-disposition",
            standard.get("Content-Disposition"),
            "--content-encoding",
            standard.get("Content-Encoding"),
            "--content-language",
            standard.get("Content-Language"),
            "--content-type",
            standard.get("Content-Type"),
            "--expires",
            "2038-01-01T00:00:00Z",
            "--metadata",
            "colour=blue,owner-id=42");
    List<String> put =
        new ArrayList<>(List.of("s3", "cp", small.toString(), "s3://cli-metadata/put"));
    put.addAll(options);
    aws(false, put.toArray(String[]::new));
    List<String> multipart =
        new ArrayList<>(List.of("s3", "cp", large.toString(), "s3://cli-metadata/multipart"));
    multipart.addAll(options);
    aws(false, multipart.toArray(String[]::new));
    // s3 cp cannot tag; s3api put-object sends every header and the tags on one PUT.
    aws(
        false,
        "s3api",
        "put-object",
        "--bucket",
        bucket,
        "--key",
        "tagged",
        "--body",
        small.toString(),
        "--cache-control",
        standard.get("Cache-Control"),
        "--content-disposition",
        standard.get("Content-Disposition"),
        "--content-encoding",
        standard.get("Content-Encoding"),
        "--content-language",
        standard.get("Content-Language"),
        "--content-type",
        standard.get("Content-Type"),
        "--expires",
        "2038-01-01T00:00:00Z",
        "--metadata",
        "colour=blue,owner-id=42",
        "--tagging",
        Clients.TAGGING);
    aws(
        false,
        "s3api",
        "copy-object",
        "--bucket",
        bucket,
        "--key",
        "copy",
        "--copy-source",
        bucket + "/put");
    aws(
        false,
        "s3api",
        "copy-object",
        "--bucket",
        bucket,
        "--key",
        "replaced",
        "--copy-source",
        bucket + "/put",
        "--metadata-directive",
        "REPLACE",
        "--cache-control",
        Clients.REPLACED_HEADERS.get("Cache-Control"),
        "--content-type",
        Clients.REPLACED_HEADERS.get("Content-Type"),
        "--metadata",
        "state=replaced");

    Map<String, Path> sources =
        Map.of("put", small, "multipart", large, "copy", small, "replaced", small, "tagged", small);
    for (String key : List.of("put", "multipart", "copy", "replaced", "tagged")) {
      boolean replaced = key.equals("replaced");
      boolean tagged = key.equals("tagged");
      Clients.assertStoredTags(
          PROXIES.http().endpoint(), bucket, key, tagged ? Clients.TAGS : Map.of());
      Map<String, String> headers = replaced ? Clients.REPLACED_HEADERS : standard;
      Map<String, String> user = replaced ? Clients.REPLACED_METADATA : Clients.USER_METADATA;
      byte[] body =
          Clients.assertStoredMetadata(PROXIES.http().endpoint(), bucket, key, headers, user);
      assertThat(Clients.md5Hex(body)).as(key).isEqualTo(Clients.md5Hex(sources.get(key)));
      JsonNode head =
          JSON.readTree(
              aws(false, "s3api", "head-object", "--bucket", bucket, "--key", key).stdout());
      assertClientView(key + " head-object", head, headers, user);
      Path down = work.resolve("down-" + key);
      JsonNode get =
          JSON.readTree(
              aws(false, "s3api", "get-object", "--bucket", bucket, "--key", key, down.toString())
                  .stdout());
      assertClientView(key + " get-object", get, headers, user);
      assertThat(get.path("TagCount").asInt()).as(key).isEqualTo(tagged ? 2 : 0);
      assertThat(Clients.md5Hex(down)).as(key).isEqualTo(Clients.md5Hex(sources.get(key)));
      assertThat(head.get("ETag").asText().contains("-"))
          .as("%s: a multipart ETag exactly for the multipart upload", key)
          .isEqualTo(key.equals("multipart"));
    }
  }

  /** aws-cli's JSON for head-object or get-object shows exactly these headers and metadata. */
  private static void assertClientView(
      String what, JsonNode json, Map<String, String> headers, Map<String, String> user) {
    Map<String, String> shown = new TreeMap<>();
    for (String name : Clients.STANDARD_HEADERS.keySet()) {
      // ExpiresString is the header as sent; Expires, botocore's parse of it, may be dropped.
      String field = name.equals("Expires") ? "ExpiresString" : name.replace("-", "");
      if (json.hasNonNull(field)) {
        shown.put(name, json.get(field).asText());
      }
    }
    Map<String, String> expected = new TreeMap<>(headers);
    if (!expected.containsKey("Content-Type")) {
      expected.put("Content-Type", "binary/octet-stream");
    }
    assertThat(shown).as(what).isEqualTo(expected);
    Map<String, String> metadata = new TreeMap<>();
    json.path("Metadata")
        .properties()
        .forEach(e -> metadata.put(e.getKey(), e.getValue().asText()));
    assertThat(metadata).as(what).isEqualTo(new TreeMap<>(user));
  }

  @Test
  void ls_withAndWithoutRecursive_showsPrefixesOrEveryKey() {
    aws(false, "s3", "mb", "s3://cli-listing");
    Path src = dir.resolve("listing");
    for (String key : List.of("a.txt", "dir/one", "dir/two", "dir/sub/three", "zeta/z")) {
      Clients.seededFile(src.resolve(key), key.hashCode(), 10 + key.length());
    }
    aws(false, "s3", "cp", src.toString(), "s3://cli-listing/", "--recursive");

    String top = aws(false, "s3", "ls", "s3://cli-listing/").stdout();
    assertThat(top.lines().map(String::strip).toList())
        .hasSize(3)
        .contains("PRE dir/", "PRE zeta/")
        .anySatisfy(line -> assertThat(line).endsWith(" a.txt"));

    List<String> all =
        aws(false, "s3", "ls", "s3://cli-listing/", "--recursive")
            .stdout()
            .lines()
            .map(line -> line.substring(line.lastIndexOf(' ') + 1))
            .toList();
    assertThat(all).containsExactly("a.txt", "dir/one", "dir/sub/three", "dir/two", "zeta/z");

    String v2 =
        aws(
                false,
                "s3api",
                "list-objects-v2",
                "--bucket",
                "cli-listing",
                "--prefix",
                "dir/",
                "--delimiter",
                "/",
                "--query",
                "[join(',', Contents[].Key), join(',', CommonPrefixes[].Prefix)]",
                "--output",
                "text")
            .stdout()
            .strip();
    assertThat(v2.split("\\s+")).containsExactly("dir/one,dir/two", "dir/sub/");
  }

  @Test
  void sync_whenOneFileChanges_uploadsOnlyThatFile_andDeleteRemovesTheRemovedOne()
      throws Exception {
    aws(false, "s3", "mb", "s3://sync");
    Path tree = dir.resolve("tree");
    List<String> files = List.of("top.bin", "a/one.bin", "a/two.bin", "a/b/three.bin");
    for (int i = 0; i < files.size(); i++) {
      Clients.seededFile(tree.resolve(files.get(i)), 200 + i, 1000 + 100L * i);
    }
    String first = aws(false, "s3", "sync", tree.toString(), "s3://sync/t").stdout();
    assertThat(uploads(first)).containsExactlyInAnyOrderElementsOf(files);
    assertThat(uploads(aws(false, "s3", "sync", tree.toString(), "s3://sync/t").stdout()))
        .as("nothing changed, nothing goes")
        .isEmpty();

    // A new size is a change whatever the file times say.
    Clients.seededFile(tree.resolve("a/two.bin"), 999, 4321);
    String second = aws(false, "s3", "sync", tree.toString(), "s3://sync/t").stdout();
    assertThat(uploads(second)).containsExactly("a/two.bin");

    Files.delete(tree.resolve("a/b/three.bin"));
    String third = aws(false, "s3", "sync", tree.toString(), "s3://sync/t", "--delete").stdout();
    assertThat(uploads(third)).isEmpty();
    assertThat(third.lines().filter(l -> l.startsWith("delete: ")).toList())
        .singleElement()
        .satisfies(l -> assertThat(l).endsWith("s3://sync/t/a/b/three.bin"));

    Path back = dir.resolve("tree-back");
    aws(false, "s3", "sync", "s3://sync/t", back.toString());
    for (String file : List.of("top.bin", "a/one.bin", "a/two.bin")) {
      assertThat(Clients.md5Hex(back.resolve(file))).isEqualTo(Clients.md5Hex(tree.resolve(file)));
    }
    assertThat(back.resolve("a/b/three.bin")).doesNotExist();
  }

  /** The relative paths an {@code s3 sync} output says it uploaded. */
  private static List<String> uploads(String output) {
    return output
        .lines()
        .filter(line -> line.startsWith("upload: "))
        .map(line -> line.substring(line.indexOf(" to s3://sync/t/") + " to s3://sync/t/".length()))
        .toList();
  }

  @Test
  void rm_singleAndRecursive_removesOnlyWhatWasNamed() {
    aws(false, "s3", "mb", "s3://removal");
    Path src = dir.resolve("removal");
    for (String key : List.of("keep", "gone", "d/x", "d/y", "d/e/z")) {
      Clients.seededFile(src.resolve(key), key.hashCode(), 64);
    }
    aws(false, "s3", "cp", src.toString(), "s3://removal/", "--recursive");
    aws(false, "s3", "rm", "s3://removal/gone");
    String removed = aws(false, "s3", "rm", "s3://removal/d/", "--recursive").stdout();
    assertThat(removed.lines().filter(l -> l.startsWith("delete: ")).count()).isEqualTo(3);
    String left =
        aws(
                false,
                "s3api",
                "list-objects-v2",
                "--bucket",
                "removal",
                "--query",
                "Contents[].Key",
                "--output",
                "text")
            .stdout()
            .strip();
    assertThat(left).isEqualTo("keep");
  }

  @Test
  void presign_whenFresh_servesPlainGet_andWhenExpired_isAccessDeniedWithNoObject()
      throws Exception {
    aws(false, "s3", "mb", "s3://presign");
    byte[] data = Clients.seededBytes(77, 100_000);
    Path file = dir.resolve("presign.bin");
    Files.write(file, data);
    aws(false, "s3", "cp", file.toString(), "s3://presign/p/file.bin");
    URI fresh =
        URI.create(
            aws(false, "s3", "presign", "s3://presign/p/file.bin", "--expires-in", "600")
                .stdout()
                .strip());
    HttpClient client = HttpClient.newHttpClient();
    HttpResponse<byte[]> ok =
        client.send(HttpRequest.newBuilder(fresh).build(), HttpResponse.BodyHandlers.ofByteArray());
    assertThat(ok.statusCode()).isEqualTo(200);
    assertThat(ok.body()).isEqualTo(data);

    // Signed two hours ago for one minute: expired however long the test takes.
    URI expired =
        Clients.presignGet(
            PROXIES.http().endpoint(),
            "presign",
            "p/file.bin",
            ProxyProcess.SECRET_KEY,
            Instant.now().minus(Duration.ofHours(2)),
            Duration.ofMinutes(1));
    HttpResponse<String> denied =
        client.send(HttpRequest.newBuilder(expired).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(denied.statusCode()).isEqualTo(403);
    assertThat(denied.headers().firstValue("Content-Type")).hasValue("application/xml");
    assertThat(denied.body()).contains("<Error>", "<Code>AccessDenied</Code>");

    // The same signer at the current time is accepted: the expiry alone made the difference.
    URI now =
        Clients.presignGet(
            PROXIES.http().endpoint(),
            "presign",
            "p/file.bin",
            ProxyProcess.SECRET_KEY,
            Instant.now(),
            Duration.ofMinutes(1));
    HttpResponse<byte[]> control =
        client.send(HttpRequest.newBuilder(now).build(), HttpResponse.BodyHandlers.ofByteArray());
    assertThat(control.statusCode()).isEqualTo(200);
    assertThat(control.body()).isEqualTo(data);
  }
}
