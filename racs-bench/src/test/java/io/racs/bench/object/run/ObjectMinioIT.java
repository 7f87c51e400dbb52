package io.racs.bench.object.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.racs.bench.cli.BenchMain;
import io.racs.bench.object.target.ErrorKinds;
import io.racs.bench.object.target.S3EndpointTarget;
import io.racs.bench.object.target.Target;
import io.racs.bench.object.workload.Content;
import io.racs.proxy.cli.ExitCodes;
import io.racs.repos.minio.MinioServer;
import io.racs.testkit.MinioExtension;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Proves one run measures a MinIO server twice side by side — as a {@code minio} repository through
 * the SPI and as an S3 endpoint through the SDK — next to an fs repository, with every GET
 * verified, the overhead ratio of the pair, and the endpoint's missing delay injection said
 * plainly; and that MinIO accepts every payload signing mode's requests (PUT, whole and ranged GET,
 * LIST, DELETE, HEAD) and that a missing key is named as S3 names it.
 */
class ObjectMinioIT {
  @RegisterExtension static final MinioExtension MINIO = MinioExtension.servers(1);

  @TempDir Path dir;

  @ParameterizedTest
  @EnumSource(S3EndpointTarget.Payload.class)
  void endpoint_whenEachPayload_minioAcceptsThePutAndGetReturnsItsBytes(
      S3EndpointTarget.Payload payload) throws Exception {
    MinioServer server = MINIO.server(0);
    int size = 1_100_000;
    long seed = Content.seed(3, "p", 1);
    byte[] expected;
    try (InputStream in = Content.stream(seed, size)) {
      expected = in.readAllBytes();
    }
    try (S3EndpointTarget target =
            S3EndpointTarget.of(
                new S3EndpointTarget.Endpoint(
                    "minio",
                    server.endpoint(),
                    server.accessKey(),
                    server.secretKey(),
                    server.region(),
                    "payload-" + payload.label(),
                    payload));
        Target.Client client = target.client(0)) {
      client.put("k", Content.stream(seed, size), size);
      try (InputStream in = client.get("k", 0, -1)) {
        assertThat(in.readAllBytes()).isEqualTo(expected);
      }
      try (InputStream in = client.get("k", 1000, 5000)) {
        assertThat(in.readAllBytes()).isEqualTo(java.util.Arrays.copyOfRange(expected, 1000, 6000));
      }
      assertThat(client.list("", 10)).isEqualTo(1);
      client.delete("k");
      assertThat(client.head("k")).isFalse();
      assertThatThrownBy(() -> client.get("k", 0, -1).close())
          .satisfies(e -> assertThat(ErrorKinds.of(e)).isEqualTo("S3_404_NoSuchKey"));
    }
  }

  @Test
  void object_whenMinioAsRepositoryAndEndpoint_measuresBothAndTheirRatio() throws Exception {
    MinioServer server = MINIO.server(0);
    MINIO.client(0).createBucket(b -> b.bucket("repo"));
    Path fs = Files.createDirectories(dir.resolve("fs"));
    Path config =
        Files.writeString(
            dir.resolve("racs.yaml"),
            """
            repositories:
              - name: minio-repo
                type: minio
                endpoint: %s
                bucket: repo
                credentials: {accessKey: %s, secretKey: %s}
              - name: disk
                type: fs
                path: %s
                durable: false
            """
                .formatted(server.endpoint(), server.accessKey(), server.secretKey(), fs));
    Path out = dir.resolve("out");
    StringWriter stdout = new StringWriter();
    StringWriter stderr = new StringWriter();
    int code =
        BenchMain.run(
            new PrintWriter(stdout, true),
            new PrintWriter(stderr, true),
            "object",
            "--config",
            config.toString(),
            "--repository",
            "minio-repo,disk",
            "--endpoint",
            server.endpoint().toString(),
            "--access-key",
            server.accessKey(),
            "--secret-key",
            server.secretKey(),
            "--region",
            server.region(),
            "--name",
            "minio-s3",
            "--op",
            "get,put",
            "--sizes",
            "64KiB",
            "--objects",
            "8",
            "--clients",
            "1,2",
            "--delay",
            "0ms,5ms",
            "--warmup",
            "0",
            "--iterations",
            "2",
            "--duration",
            "250ms",
            "--verify",
            "--overhead",
            "minio-s3/minio-repo",
            "--quiet",
            "--out",
            out.toString());
    assertThat(code).as(stderr.toString()).isEqualTo(ExitCodes.OK);
    JsonNode root = new ObjectMapper().readTree(out.resolve("results.json").toFile());
    List<String> ids = new ArrayList<>();
    for (JsonNode p : root.get("points")) {
      ids.add(p.get("id").asText());
      assertThat(p.get("errorsTotal").asLong()).as(p.get("id").asText()).isZero();
      assertThat(p.get("ops").asLong()).isPositive();
      if (p.get("workload").asText().equals("get")) {
        assertThat(p.get("verifiedObjects").asLong()).isEqualTo(p.get("ops").asLong());
      }
    }
    assertThat(ids)
        .contains(
            "minio-s3/get/64KiB/c2/d0ms", "minio-repo/get/64KiB/c2/d5ms", "disk/put/64KiB/c1/d5ms")
        .doesNotContain("minio-s3/get/64KiB/c1/d5ms");
    List<String> overhead = new ArrayList<>();
    for (JsonNode r : root.get("ratios")) {
      if (r.get("kind").asText().equals("overhead")) {
        overhead.add(r.get("numerator").asText() + " / " + r.get("denominator").asText());
        assertThat(r.get("value").asDouble()).isPositive();
      }
    }
    assertThat(overhead).contains("minio-s3/get/64KiB/c1/d0ms / minio-repo/get/64KiB/c1/d0ms");
    assertThat(root.get("notes").toString())
        .contains("minio-s3: delay injection is not applied to S3 endpoint targets");
    assertThat(root.get("command").toString()).doesNotContain(server.secretKey());
  }
}
