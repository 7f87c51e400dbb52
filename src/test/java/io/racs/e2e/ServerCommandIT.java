package io.racs.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Proves the zero-configuration {@code ./racs server} of the README: it serves 4x2 over six local
 * directories, generates credentials on first start (saved with mode 0600, printed with an aws
 * command line that works), keeps them across restarts, and refuses a non-loopback address with
 * generated credentials unless told.
 */
class ServerCommandIT {
  private static final Pattern TRY =
      Pattern.compile(
          "try: AWS_ACCESS_KEY_ID=(\\S+) AWS_SECRET_ACCESS_KEY=(\\S+) aws --endpoint-url (\\S+) s3 ls");

  private record Started(Process process, List<String> lines) {}

  private static Started start(Path cwd, String... args) throws IOException {
    List<String> command =
        new ArrayList<>(List.of(Launcher.root().resolve("racs").toString(), "server"));
    command.addAll(List.of(args));
    ProcessBuilder pb =
        new ProcessBuilder(command).directory(cwd.toFile()).redirectErrorStream(true);
    pb.environment().put("RACS_NO_BUILD", "1");
    Process process = pb.start();
    List<String> lines = new ArrayList<>();
    BufferedReader in =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    for (String line; (line = in.readLine()) != null; ) {
      lines.add(line);
      if (line.equals("ready")) {
        break;
      }
    }
    return new Started(process, lines);
  }

  private static void stop(Process process) throws InterruptedException {
    process.destroy();
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
  }

  @Test
  void server_withNoConfig_generatesCredentialsAndServes(@TempDir Path cwd) throws Exception {
    Started first = start(cwd, "--listen", "127.0.0.1:0", "--admin-listen", "off");
    String output = String.join("\n", first.lines());
    assertThat(output).contains("4x2 over 6 fs repositories in " + cwd.resolve("racs-data"));
    Matcher m = TRY.matcher(output);
    assertThat(m.find()).as(output).isTrue();
    Path credentials = cwd.resolve("racs-data/credentials");
    assertThat(Files.getPosixFilePermissions(credentials))
        .containsExactlyInAnyOrder(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);
    try (S3Client s3 =
        S3Client.builder()
            .endpointOverride(URI.create(m.group(3)))
            .region(Region.US_EAST_1)
            .forcePathStyle(true)
            .credentialsProvider(
                StaticCredentialsProvider.create(
                    AwsBasicCredentials.create(m.group(1), m.group(2))))
            .httpClientBuilder(Apache5HttpClient.builder())
            .build()) {
      s3.createBucket(b -> b.bucket("first"));
      s3.putObject(b -> b.bucket("first").key("k"), RequestBody.fromString("kept"));
    } finally {
      stop(first.process());
    }
    for (int i = 0; i < 6; i++) {
      assertThat(cwd.resolve("racs-data/repo-" + i)).isDirectory();
    }
    // A restart keeps the credentials and the data.
    Started second = start(cwd, "--listen", "127.0.0.1:0", "--admin-listen", "off");
    Matcher again = TRY.matcher(String.join("\n", second.lines()));
    assertThat(again.find()).isTrue();
    assertThat(again.group(1)).isEqualTo(m.group(1));
    try (S3Client s3 =
        S3Client.builder()
            .endpointOverride(URI.create(again.group(3)))
            .region(Region.US_EAST_1)
            .forcePathStyle(true)
            .credentialsProvider(
                StaticCredentialsProvider.create(
                    AwsBasicCredentials.create(again.group(1), again.group(2))))
            .httpClientBuilder(Apache5HttpClient.builder())
            .build()) {
      assertThat(s3.getObjectAsBytes(b -> b.bucket("first").key("k")).asUtf8String())
          .isEqualTo("kept");
    } finally {
      stop(second.process());
    }
  }

  @Test
  void server_whenNonLoopbackWithGeneratedCredentials_refuses(@TempDir Path cwd) {
    Launcher.Result result =
        Launcher.exec(
            List.of(
                Launcher.root().resolve("racs").toString(),
                "server",
                "--data-dir",
                cwd.resolve("data").toString(),
                "--listen",
                "0.0.0.0:0",
                "--admin-listen",
                "off"),
            Map.of("RACS_NO_BUILD", "1"));
    assertThat(result.exitCode()).isEqualTo(2);
    assertThat(result.stderr())
        .contains("is not a loopback address and the credentials were generated")
        .contains("--allow-remote");
  }
}
