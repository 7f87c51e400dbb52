package io.racs.proxy.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.testing.TestArray;
import io.racs.proxy.testing.TestClients;
import io.racs.testkit.SeededBytes;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Proves, with real full file systems (three repositories on 512 KiB tmpfs mounts, filled to the
 * last byte) behind the real S3 server, that a PUT the full disks keep from its write quorum
 * answers 507 {@code XMinioStorageFull} naming the cause (not a 503 asking to slow down), reads go
 * on, {@code /health/ready} reports the three as {@code full} with the file system's error and is
 * not ready, and once space is freed the health check and PUTs succeed again. Mounting needs root:
 * without it the test says so and is skipped ({@code StorageFullTest} covers the same rules with
 * decorators everywhere).
 */
class FullDiskServerTest {
  private static final String ACCESS = "test-access";
  private static final String SECRET = "test-secret-key";
  private static final long SEED = 0x5EED_0016L;

  @TempDir Path dir;
  private final List<Path> mounts = new ArrayList<>();
  private RacsServer server;
  private S3Client s3;
  private final HttpClient http = HttpClient.newHttpClient();

  private void mountTmpfs(Path at) throws Exception {
    Files.createDirectories(at);
    Process mount =
        new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=512k", "tmpfs", at.toString())
            .redirectErrorStream(true)
            .start();
    String output = new String(mount.getInputStream().readAllBytes());
    int status = mount.waitFor();
    Assumptions.assumeTrue(
        status == 0, "cannot mount a tmpfs here (needs root): " + output.strip());
    mounts.add(at);
  }

  /** Writes into {@code root} until the file system has no byte left. */
  private static Path fill(Path root) throws IOException {
    Path filler = root.resolve("filler");
    try (FileChannel channel =
        FileChannel.open(filler, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      ByteBuffer chunk = ByteBuffer.allocate(4096);
      while (true) {
        chunk.clear();
        channel.write(chunk);
      }
    } catch (IOException e) {
      assertThat(e.getMessage()).contains("No space left");
    }
    return filler;
  }

  @AfterEach
  void stop() throws Exception {
    if (s3 != null) {
      s3.close();
    }
    if (server != null) {
      server.close();
    }
    for (Path at : mounts) {
      new ProcessBuilder("umount", at.toString()).inheritIO().start().waitFor();
    }
  }

  private HttpResponse<String> ready() throws Exception {
    return http.send(
        HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + server.adminPort() + "/health/ready"))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void put_whenThreeDisksFull_507NamingTheCauseAndHealthSaysFull() throws Exception {
    for (int i = 0; i < 3; i++) {
      mountTmpfs(dir.resolve("r" + i));
    }
    ErasureStore store =
        TestArray.builder("4x2")
            .blockBytes(64 << 10)
            .writeQuorum(4)
            .slowShardTimeout(Duration.ofSeconds(5))
            .fs(dir, true)
            .open()
            .store();
    server =
        RacsServer.start(
            store,
            ServerConfig.defaults()
                .with("127.0.0.1:0", Map.of(ACCESS, SECRET))
                .withAdmin("127.0.0.1:0"));
    s3 = TestClients.s3(server.port(), ACCESS, SECRET);
    s3.createBucket(b -> b.bucket("bkt"));
    byte[] before = SeededBytes.bytes(SEED, 50_000);
    s3.putObject(b -> b.bucket("bkt").key("before"), RequestBody.fromBytes(before));

    List<Path> fillers = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      fillers.add(fill(dir.resolve("r" + i)));
    }
    byte[] body = SeededBytes.bytes(SEED + 1, 300_000);
    S3Exception refused = null;
    try {
      s3.putObject(b -> b.bucket("bkt").key("big"), RequestBody.fromBytes(body));
    } catch (S3Exception e) {
      refused = e;
    }
    assertThat(refused).as("PUT onto three full disks").isNotNull();
    assertThat(refused.statusCode()).isEqualTo(507);
    assertThat(refused.awsErrorDetails().errorCode()).isEqualTo("XMinioStorageFull");
    assertThat(refused.awsErrorDetails().errorMessage()).containsIgnoringCase("out of space");
    assertThat(s3.getObjectAsBytes(b -> b.bucket("bkt").key("before")).asByteArray())
        .isEqualTo(before);

    HttpResponse<String> ready = ready();
    assertThat(ready.statusCode()).as(ready.body()).isEqualTo(503);
    assertThat(ready.body())
        .contains("\"name\":\"r0\",\"state\":\"full\",\"reason\":\"")
        .contains("\"name\":\"r2\",\"state\":\"full\"")
        .contains("No space left on device")
        .contains("\"name\":\"r3\",\"state\":\"up\"")
        .contains("\"healthy\":3", "\"ready\":false");

    for (Path filler : fillers) {
      Files.delete(filler);
    }
    ready = ready();
    assertThat(ready.statusCode()).as(ready.body()).isEqualTo(200);
    assertThat(ready.body()).contains("\"healthy\":6");
    s3.putObject(b -> b.bucket("bkt").key("after"), RequestBody.fromBytes(before));
  }
}
