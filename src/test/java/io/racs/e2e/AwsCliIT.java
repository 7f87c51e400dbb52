package io.racs.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.testkit.TestTools;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * aws-cli v1 drives the proxy process over six MinIO servers (4x2), over HTTP and over HTTPS with
 * {@code --ca-bundle}: {@code s3 mb}, {@code cp} round trips that are byte-exact for 0 B, 1 B, 5
 * MiB + 1 and 70 MiB (multipart), listings with and without delimiters, {@code sync} uploading only
 * what changed and deleting with {@code --delete}, {@code rm}, {@code s3api} calls, and presigned
 * URLs: a fresh one serves the object to a plain HTTP GET, an expired one is AccessDenied.
 */
class AwsCliIT {
  @RegisterExtension static final ProxyPairExtension PROXIES = ProxyPairExtension.create();

  @TempDir static Path dir;

  /** Runs {@code aws <args> --endpoint-url ...} against the HTTP or HTTPS proxy; must succeed. */
  private static Launcher.Result aws(boolean secure, String... args) {
    List<String> command = new ArrayList<>();
    command.add(TestTools.awsCli().toString());
    command.addAll(Arrays.asList(args));
    command.add("--endpoint-url");
    command.add(PROXIES.proxy(secure).endpoint().toString());
    if (secure) {
      command.add("--ca-bundle");
      command.add(PROXIES.tls().cert().toString());
    }
    Map<String, String> env = Clients.cleanEnv(dir.resolve("home"));
    return Clients.ok(command, env);
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void cp_whenRoundTrippingEverySize_isByteExact(boolean secure) throws Exception {
    String bucket = "cp-" + (secure ? "tls" : "plain");
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

  @Test
  void ls_withAndWithoutRecursive_showsPrefixesOrEveryKey() {
    aws(false, "s3", "mb", "s3://listing");
    Path src = dir.resolve("listing");
    for (String key : List.of("a.txt", "dir/one", "dir/two", "dir/sub/three", "zeta/z")) {
      Clients.seededFile(src.resolve(key), key.hashCode(), 10 + key.length());
    }
    aws(false, "s3", "cp", src.toString(), "s3://listing/", "--recursive");

    String top = aws(false, "s3", "ls", "s3://listing/").stdout();
    assertThat(top.lines().map(String::strip).toList())
        .hasSize(3)
        .contains("PRE dir/", "PRE zeta/")
        .anySatisfy(line -> assertThat(line).endsWith(" a.txt"));

    List<String> all =
        aws(false, "s3", "ls", "s3://listing/", "--recursive")
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
                "listing",
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
