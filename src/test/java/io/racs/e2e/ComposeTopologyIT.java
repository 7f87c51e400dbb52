package io.racs.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.repos.config.BackendConfig;
import io.racs.repos.config.RepositoryConfig;
import io.racs.repos.config.RepositoryConfigLoader;
import io.racs.repos.minio.MinioServer;
import io.racs.testkit.MinioExtension;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The Compose demo's proxy configuration ({@code docker/racs.yaml}) runs as it is over six real
 * MinIO processes: only the six repository endpoints and the two listen addresses are rewritten,
 * the secrets are the ones {@code docker/compose.yml} gives the proxy and MinIO, and then an AWS
 * SDK v2 client round-trips an object through the proxy, its shards land on all six nodes, and
 * {@code /health/ready} (asked directly and through the image's own {@code docker/healthcheck.sh})
 * reports the six repositories up.
 */
class ComposeTopologyIT {
  private static final ComposeFile COMPOSE = ComposeFile.load(Map.of());
  private static final Map<String, String> MINIO_ENV = COMPOSE.environment("minio-1");
  private static final Map<String, String> PROXY_ENV = COMPOSE.environment("proxy");
  private static final Pattern ENV_REFERENCE =
      Pattern.compile("\\$\\{env:([A-Za-z_][A-Za-z0-9_]*)}");

  /** MinIO with the root credentials compose.yml gives its MinIO services. */
  @RegisterExtension
  static final MinioExtension MINIO =
      MinioExtension.servers(6)
          .env("MINIO_ROOT_USER", MINIO_ENV.get("MINIO_ROOT_USER"))
          .env("MINIO_ROOT_PASSWORD", MINIO_ENV.get("MINIO_ROOT_PASSWORD"));

  @TempDir static Path dir;
  private static ProxyProcess proxy;
  private static List<String> minioServices;

  /** The servers by the root credentials of compose.yml (the test kit's clients use its own). */
  private static S3Client minioClient(MinioServer server) {
    return S3Client.builder()
        .endpointOverride(server.endpoint())
        .region(Region.of(server.region()))
        .forcePathStyle(true)
        .credentialsProvider(
            StaticCredentialsProvider.create(
                AwsBasicCredentials.create(
                    MINIO_ENV.get("MINIO_ROOT_USER"), MINIO_ENV.get("MINIO_ROOT_PASSWORD"))))
        .httpClientBuilder(Apache5HttpClient.builder())
        .build();
  }

  private static String bucket() {
    String text;
    try {
      text = Files.readString(ComposeFile.dockerDir().resolve("racs.yaml"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    RepositoryConfig first =
        RepositoryConfigLoader.withEnvironment(PROXY_ENV::get)
            .parse(text, "docker/racs.yaml")
            .repositories()
            .get(0);
    return ((BackendConfig.S3) first.backend()).options().bucket();
  }

  /**
   * Replaces the one line that is {@code field: VALUE} with {@code value} matching {@code
   * valueRegex}, keeping its indentation, by {@code field: replacement}.
   */
  private static String replaceLine(
      String text, String field, String valueRegex, String replacement) {
    Matcher m = Pattern.compile("(?m)^( +)" + field + ": " + valueRegex + "$").matcher(text);
    assertThat(m.results().count()).as("lines '%s: %s'", field, valueRegex).isEqualTo(1);
    return m.replaceFirst(r -> Matcher.quoteReplacement(r.group(1) + field + ": " + replacement));
  }

  @BeforeAll
  static void start() throws Exception {
    minioServices = new ArrayList<>();
    for (String name : COMPOSE.serviceNames()) {
      if (COMPOSE.service(name).path("image").asText().startsWith("minio/minio:")) {
        minioServices.add(name);
      }
    }
    assertThat(minioServices).hasSize(6);
    // What minio-init does in Compose.
    String bucket = bucket();
    for (int i = 0; i < 6; i++) {
      try (S3Client s3 = minioClient(MINIO.server(i))) {
        s3.createBucket(b -> b.bucket(bucket));
      }
    }

    String original = Files.readString(ComposeFile.dockerDir().resolve("racs.yaml"));
    String yaml = original;
    for (int i = 0; i < 6; i++) {
      String service = minioServices.get(i);
      yaml =
          replaceLine(
              yaml,
              "endpoint",
              Pattern.quote(COMPOSE.minioEndpoint(service).toString()),
              MINIO.server(i).endpoint().toString());
    }
    // ProxyProcess needs free loopback ports, which it reads from the proxy's output.
    yaml = replaceLine(yaml, "listen", "\\S+", "127.0.0.1:0");
    yaml = replaceLine(yaml, "adminListen", "\\S+", "127.0.0.1:0");
    // ProxyProcess passes no environment of its own, so the values Compose would put in the
    // proxy's environment are written in place of the ${env:...} references.
    Matcher m = ENV_REFERENCE.matcher(yaml);
    StringBuilder resolved = new StringBuilder();
    int references = 0;
    while (m.find()) {
      String value = PROXY_ENV.get(m.group(1));
      assertThat(value).as("compose.yml gives the proxy %s", m.group(1)).isNotNull();
      m.appendReplacement(resolved, Matcher.quoteReplacement(value));
      references++;
    }
    m.appendTail(resolved);
    assertThat(references).isPositive();
    assertThat(resolved.toString()).doesNotContain("${env:");
    assertThat(resolved.toString().lines().count()).isEqualTo(original.lines().count());
    proxy = ProxyProcess.start(dir, resolved.toString());
  }

  @AfterAll
  static void stop() {
    if (proxy != null) {
      proxy.close();
    }
  }

  private static S3Client proxyClient() {
    return S3Client.builder()
        .endpointOverride(proxy.endpoint())
        .region(Region.US_EAST_1)
        .forcePathStyle(true)
        .credentialsProvider(
            StaticCredentialsProvider.create(
                AwsBasicCredentials.create(
                    PROXY_ENV.get("RACS_ACCESS_KEY"), PROXY_ENV.get("RACS_SECRET_KEY"))))
        .httpClientBuilder(Apache5HttpClient.builder())
        .build();
  }

  @Test
  void putGet_roundTripsThroughTheDemoConfiguration_withShardsOnAllSixNodes() {
    byte[] data = new byte[3 * 1024 * 1024 + 1];
    new Random(9).nextBytes(data);
    try (S3Client s3 = proxyClient()) {
      s3.createBucket(b -> b.bucket("demo"));
      s3.putObject(b -> b.bucket("demo").key("compose/object.bin"), RequestBody.fromBytes(data));
      byte[] back =
          s3.getObjectAsBytes(b -> b.bucket("demo").key("compose/object.bin")).asByteArray();
      assertThat(back).isEqualTo(data);
      assertThat(s3.headObject(b -> b.bucket("demo").key("compose/object.bin")).contentLength())
          .isEqualTo(data.length);
    }
    String bucket = bucket();
    for (int i = 0; i < 6; i++) {
      try (S3Client s3 = minioClient(MINIO.server(i))) {
        assertThat(s3.listObjectsV2(b -> b.bucket(bucket)).keyCount())
            .as("objects in %s on %s", bucket, minioServices.get(i))
            .isPositive();
      }
    }
  }

  @Test
  void healthReady_reportsTheSixRepositoriesUp() throws Exception {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    HttpResponse<String> ready =
        http.send(
            HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + proxy.adminPort() + "/health/ready"))
                .timeout(Duration.ofSeconds(30))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(ready.statusCode()).as(ready.body()).isEqualTo(200);
    for (String service : minioServices) {
      assertThat(ready.body()).contains("\"name\":\"" + service + "\",\"state\":\"up\"");
    }
    assertThat(ready.body()).contains("\"healthy\":6").contains("\"ready\":true");
  }

  @Test
  void imageHealthCheckScript_passesForLiveAndReady() throws Exception {
    Path script = ComposeFile.dockerDir().resolve("healthcheck.sh");
    for (String path : List.of("/health/live", "/health/ready")) {
      assertThat(healthcheck(script, proxy.adminPort(), path)).as(path).isZero();
    }
    assertThat(healthcheck(script, proxy.adminPort(), "/no-such-path")).isEqualTo(1);
  }

  private static int healthcheck(Path script, int port, String path) throws Exception {
    ProcessBuilder pb = new ProcessBuilder("bash", script.toString(), path);
    pb.environment().put("RACS_ADMIN_PORT", String.valueOf(port));
    pb.redirectErrorStream(true).redirectOutput(dir.resolve("healthcheck.log").toFile());
    Process process = pb.start();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("healthcheck.sh " + path + " did not finish");
    }
    return process.exitValue();
  }
}
