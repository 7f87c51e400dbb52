package io.racs.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.racs.testkit.TestTools;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.ServerSideEncryption;

/**
 * Encryption at the proxy, end to end: the proxy process over six local directories (4x2), over
 * HTTPS, with a master key file. boto3 ({@code src/test/resources/clients/boto3_sse.py}) and
 * aws-cli v1 (and the AWS SDK for Java v2) round-trip SSE-S3 and SSE-C objects byte-exact (0 B, 1
 * B, 64 KiB + 1 and 9 MiB, which both upload in parts), see S3's headers, and get S3's errors
 * without the key (400), with another key (403) and for SSE-KMS (501); afterwards no file in any
 * repository holds any 16-byte block of any plaintext (so no 32-byte window of one). A key file
 * that others may read keeps the proxy from starting.
 */
class EncryptionIT {
  @TempDir static Path dir;
  private static ProxyProcess proxy;
  private static Tls tls;
  private static Path keyFile;
  private static final List<Path> uploaded = new ArrayList<>();
  private static final long[] SIZES = {0, 1, 64 * 1024 + 1, 9 * Clients.MIB};

  @BeforeAll
  static void start() throws Exception {
    tls = Tls.create(Files.createDirectories(dir.resolve("tls")));
    keyFile = dir.resolve("master.key");
    Files.writeString(keyFile, HexFormat.of().formatHex(Clients.seededBytes(2101, 32)) + "\n");
    Files.setPosixFilePermissions(keyFile, PosixFilePermissions.fromString("rw-------"));
    String config =
        ProxyProcess.fsConfig(
                Files.createDirectories(dir.resolve("array")), "4x2", tls.serverYaml())
            + "encryption:\n  keyFile: "
            + keyFile
            + "\n";
    proxy = ProxyProcess.start(Files.createDirectories(dir.resolve("proxy")), config);
  }

  @AfterAll
  static void stop() {
    if (proxy != null) {
      proxy.close();
    }
  }

  private static Launcher.Result aws(boolean expectOk, String... args) {
    List<String> command = new ArrayList<>();
    command.add(TestTools.awsCli().toString());
    command.addAll(Arrays.asList(args));
    command.add("--endpoint-url");
    command.add(proxy.endpoint().toString());
    command.add("--ca-bundle");
    command.add(tls.cert().toString());
    Map<String, String> env = Clients.cleanEnv(dir.resolve("home"));
    if (expectOk) {
      return Clients.ok(command, env);
    }
    Launcher.Result result = Launcher.exec(command, env);
    assertThat(result.exitCode()).as(result.stderr()).isNotZero();
    return result;
  }

  @Test
  void boto3_whenSseS3AndSseCOverHttps_roundTripsAndRefusesAsS3() throws Exception {
    Path work = Files.createDirectories(dir.resolve("boto3"));
    List<String> entries = new ArrayList<>();
    List<Path> files = new ArrayList<>();
    for (long size : SIZES) {
      Path file = Clients.seededFile(work.resolve("up-" + size), 2200 + size, size);
      files.add(file);
      entries.add("{\"key\": \"size-" + size + "\", \"path\": \"" + file + "\"}");
    }
    uploaded.addAll(files);
    Path configFile = work.resolve("config.json");
    Files.writeString(
        configFile,
        "{\"endpoint\": \""
            + proxy.endpoint()
            + "\", \"caBundle\": \""
            + tls.cert()
            + "\", \"bucket\": \"boto3-sse\", \"files\": ["
            + String.join(", ", entries)
            + "]}");
    Path script = Launcher.root().resolve("src/test/resources/clients/boto3_sse.py");
    Launcher.Result result =
        Clients.ok(
            List.of(TestTools.python().toString(), script.toString(), configFile.toString()),
            Clients.cleanEnv(work.resolve("home")));
    Map<String, String> out =
        new ObjectMapper().readValue(result.stdout(), new TypeReference<Map<String, String>>() {});
    for (int i = 0; i < SIZES.length; i++) {
      String name = "size-" + SIZES[i];
      String md5 = Clients.md5Hex(files.get(i));
      assertThat(out.get(name + "/s3_md5")).as(name).isEqualTo(md5);
      assertThat(out.get(name + "/c_md5")).as(name).isEqualTo(md5);
      assertThat(out.get(name + "/s3_header")).as(name).isEqualTo("AES256");
      assertThat(out.get(name + "/c_algorithm")).as(name).isEqualTo("AES256");
    }
    assertThat(out.get("no_key")).isEqualTo("400 InvalidRequest");
    assertThat(out.get("other_key")).isEqualTo("403 AccessDenied");
    assertThat(out.get("kms")).isEqualTo("501 NotImplemented");
    assertNoPlaintextInRepositories();
  }

  @Test
  void awsCli_whenSseAndSseCCopies_roundTripsAndNeedsTheKey() throws Exception {
    Path work = Files.createDirectories(dir.resolve("cli"));
    Path customerKey = work.resolve("customer.key");
    Files.write(customerKey, Clients.seededBytes(2301, 32));
    aws(true, "s3", "mb", "s3://cli-sse");
    for (long size : new long[] {1, 9 * Clients.MIB}) {
      Path up = Clients.seededFile(work.resolve("up-" + size), 2400 + size, size);
      uploaded.add(up);
      aws(true, "s3", "cp", up.toString(), "s3://cli-sse/s3-" + size, "--sse", "AES256");
      aws(
          true,
          "s3",
          "cp",
          up.toString(),
          "s3://cli-sse/c-" + size,
          "--sse-c",
          "AES256",
          "--sse-c-key",
          "fileb://" + customerKey);
      Path down = work.resolve("down-s3-" + size);
      aws(true, "s3", "cp", "s3://cli-sse/s3-" + size, down.toString());
      assertThat(Clients.md5Hex(down)).isEqualTo(Clients.md5Hex(up));
      Path downC = work.resolve("down-c-" + size);
      aws(
          true,
          "s3",
          "cp",
          "s3://cli-sse/c-" + size,
          downC.toString(),
          "--sse-c",
          "AES256",
          "--sse-c-key",
          "fileb://" + customerKey);
      assertThat(Clients.md5Hex(downC)).isEqualTo(Clients.md5Hex(up));
    }
    String head =
        aws(true, "s3api", "head-object", "--bucket", "cli-sse", "--key", "s3-1").stdout();
    assertThat(head).contains("\"ServerSideEncryption\": \"AES256\"");
    Launcher.Result withoutKey =
        aws(false, "s3", "cp", "s3://cli-sse/c-1", work.resolve("nokey").toString());
    assertThat(withoutKey.stderr()).contains("400");
    assertNoPlaintextInRepositories();
  }

  @Test
  void sdkV2_whenSseS3AndSseCOverHttps_roundTripsAndAnswersTheErrorsItExpects() throws Exception {
    byte[] data = Clients.seededBytes(2601, 700_000);
    uploaded.add(Files.write(dir.resolve("sdk-up"), data));
    byte[] raw = Clients.seededBytes(2602, 32);
    String key = java.util.Base64.getEncoder().encodeToString(raw);
    String md5 =
        java.util.Base64.getEncoder()
            .encodeToString(java.security.MessageDigest.getInstance("MD5").digest(raw));
    try (S3Client s3 =
        S3Client.builder()
            .endpointOverride(proxy.endpoint())
            .region(Region.US_EAST_1)
            .forcePathStyle(true)
            .credentialsProvider(
                StaticCredentialsProvider.create(
                    AwsBasicCredentials.create(ProxyProcess.ACCESS_KEY, ProxyProcess.SECRET_KEY)))
            .httpClientBuilder(
                Apache5HttpClient.builder().tlsTrustManagersProvider(tls::trustManagers))
            .overrideConfiguration(o -> o.retryStrategy(b -> b.maxAttempts(1)))
            .build()) {
      s3.createBucket(b -> b.bucket("sdk-sse"));
      assertThat(
              s3.putObject(
                      p ->
                          p.bucket("sdk-sse")
                              .key("s3")
                              .serverSideEncryption(ServerSideEncryption.AES256),
                      RequestBody.fromBytes(data))
                  .serverSideEncryption())
          .isEqualTo(ServerSideEncryption.AES256);
      assertThat(s3.getObjectAsBytes(g -> g.bucket("sdk-sse").key("s3")).asByteArray())
          .isEqualTo(data);
      s3.putObject(
          p ->
              p.bucket("sdk-sse")
                  .key("c")
                  .sseCustomerAlgorithm("AES256")
                  .sseCustomerKey(key)
                  .sseCustomerKeyMD5(md5),
          RequestBody.fromBytes(data));
      assertThat(
              s3.getObjectAsBytes(
                      g ->
                          g.bucket("sdk-sse")
                              .key("c")
                              .sseCustomerAlgorithm("AES256")
                              .sseCustomerKey(key)
                              .sseCustomerKeyMD5(md5))
                  .asByteArray())
          .isEqualTo(data);
      S3Exception noKey =
          org.assertj.core.api.Assertions.catchThrowableOfType(
              S3Exception.class, () -> s3.getObjectAsBytes(g -> g.bucket("sdk-sse").key("c")));
      assertThat(noKey.statusCode()).isEqualTo(400);
      assertThat(noKey.awsErrorDetails().errorCode()).isEqualTo("InvalidRequest");
    }
    assertNoPlaintextInRepositories();
  }

  @Test
  void server_whenKeyFileReadableByOthers_refusesToStart() throws Exception {
    Path loose = dir.resolve("loose.key");
    Files.writeString(loose, HexFormat.of().formatHex(Clients.seededBytes(2501, 32)));
    Files.setPosixFilePermissions(loose, PosixFilePermissions.fromString("rw-r--r--"));
    Path config = dir.resolve("loose.yaml");
    Files.writeString(
        config,
        ProxyProcess.fsConfig(Files.createDirectories(dir.resolve("loose-array")), "4x2", null)
            + "encryption:\n  keyFile: "
            + loose
            + "\n");
    Launcher.Result result = Launcher.run(Map.of(), "server", "--config", config.toString());
    assertThat(result.exitCode()).isEqualTo(2);
    assertThat(result.stderr()).contains("chmod 600").doesNotContain(Files.readString(loose));
  }

  /**
   * Every file in every repository is free of every 16-byte aligned block of every upload: each
   * block's two 8-byte halves go into an open-addressing set of longs, and every position of every
   * stored file is looked up without allocating (the files hold about 60 MB).
   */
  private static void assertNoPlaintextInRepositories() throws IOException {
    List<long[]> blocks = new ArrayList<>();
    for (Path file : uploaded) {
      ByteBuffer data = ByteBuffer.wrap(Files.readAllBytes(file));
      for (int at = 0; at + 16 <= data.capacity(); at += 16) {
        blocks.add(new long[] {data.getLong(at), data.getLong(at + 8)});
      }
    }
    int capacity = Integer.highestOneBit(Math.max(16, blocks.size() * 4)) * 2;
    long[] firsts = new long[capacity];
    long[] seconds = new long[capacity];
    boolean[] used = new boolean[capacity];
    for (long[] b : blocks) {
      int i = slot(b[0], capacity);
      while (used[i] && !(firsts[i] == b[0] && seconds[i] == b[1])) {
        i = (i + 1) & (capacity - 1);
      }
      used[i] = true;
      firsts[i] = b[0];
      seconds[i] = b[1];
    }
    try (Stream<Path> files = Files.walk(dir.resolve("array"))) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        ByteBuffer stored = ByteBuffer.wrap(Files.readAllBytes(f));
        for (int at = 0; at + 16 <= stored.capacity(); at++) {
          long first = stored.getLong(at);
          for (int i = slot(first, capacity); used[i]; i = (i + 1) & (capacity - 1)) {
            assertThat(firsts[i] == first && seconds[i] == stored.getLong(at + 8))
                .as("plaintext at %d of %s", at, f)
                .isFalse();
          }
        }
      }
    }
  }

  private static int slot(long value, int capacity) {
    long h = value * 0x9E3779B97F4A7C15L;
    return (int) (h >>> 40) & (capacity - 1);
  }
}
