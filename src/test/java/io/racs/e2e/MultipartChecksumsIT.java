package io.racs.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.racs.repos.minio.ProvisionedTools;
import io.racs.testkit.TestTools;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.checksums.DefaultChecksumAlgorithm;
import software.amazon.awssdk.checksums.SdkChecksum;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.ChecksumMode;
import software.amazon.awssdk.services.s3.model.ChecksumType;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadResponse;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Multipart object checksums through the proxy process over six MinIO servers (4x2), as real
 * clients send them: a Go program on minio-go v7.0.70 (warp's and mc's library; {@code
 * src/test/go/minio-go-multipart}, built with the pinned go.sum into the racs tools cache) uploads
 * 16 MiB and 64 MiB objects with default options (parts with CRC32C, the composite CRC32C in the
 * completion's header) and reads them back byte-exact; the AWS SDK v2 and boto3 complete uploads
 * with a full-object CRC64NVME (a wrong one is BadDigest) and with composite CRC32, and HEAD and
 * GET with checksum mode answer what S3 answers: the full-object value, or the {@code -N} form,
 * with the type. An upload created with {@code checksumType(FULL_OBJECT)}, as the SDKs create it,
 * completes full-object when the completion names no type.
 */
class MultipartChecksumsIT {
  @RegisterExtension static final ProxyPairExtension PROXIES = ProxyPairExtension.create();

  @TempDir static Path dir;
  private static final String GO_PROGRAM = "minio-go-multipart";

  @Test
  void minioGo_whenPuttingObjectsOf16And64MiB_completesAndReadsBackByteExact() throws Exception {
    Path program = goProgram();
    String bucket = "minio-go";
    try (S3Client s3 = Clients.sdk(PROXIES.http().endpoint())) {
      s3.createBucket(b -> b.bucket(bucket));
    }
    var endpoint = PROXIES.http().endpoint();
    Launcher.Result result =
        Clients.ok(
            List.of(
                program.toString(),
                "-endpoint",
                endpoint.getHost() + ":" + endpoint.getPort(),
                "-access",
                ProxyProcess.ACCESS_KEY,
                "-secret",
                ProxyProcess.SECRET_KEY,
                "-bucket",
                bucket,
                "-seed",
                "39",
                "-sizes",
                16 * Clients.MIB + "," + 64 * Clients.MIB),
            Clients.cleanEnv(dir.resolve("go-home")));
    assertThat(result.stdout())
        .contains("minio-go-16777216 size=16777216")
        .contains("minio-go-67108864 size=67108864")
        .doesNotContain("crc32c= ");
    try (S3Client s3 = Clients.sdk(endpoint)) {
      var head =
          s3.headObject(
              b -> b.bucket(bucket).key("minio-go-67108864").checksumMode(ChecksumMode.ENABLED));
      assertThat(head.eTag()).endsWith("-4\"");
      assertThat(head.checksumCRC32C()).endsWith("-4");
      assertThat(head.checksumType()).isEqualTo(ChecksumType.COMPOSITE);
    }
  }

  @Test
  void sdkV2_whenFullObjectCrc64nvmeOrCompositeCrc32_answersAsS3() {
    byte[][] parts = parts(71);
    try (S3Client s3 = Clients.sdk(PROXIES.http().endpoint())) {
      String bucket = "sdk-mpu-checksums";
      s3.createBucket(b -> b.bucket(bucket));

      String key = "full-crc64nvme";
      String upload =
          s3.createMultipartUpload(
                  b ->
                      b.bucket(bucket)
                          .key(key)
                          .checksumAlgorithm(ChecksumAlgorithm.CRC64_NVME)
                          .checksumType(ChecksumType.FULL_OBJECT))
              .uploadId();
      List<CompletedPart> done =
          upload(s3, bucket, key, upload, parts, ChecksumAlgorithm.CRC64_NVME);
      String whole = crc64nvme(parts);
      String wrong = crc64nvme(new byte[][] {new byte[1]});
      Function<String, CompleteMultipartUploadResponse> completeWith =
          value ->
              s3.completeMultipartUpload(
                  b ->
                      b.bucket(bucket)
                          .key(key)
                          .uploadId(upload)
                          .multipartUpload(m -> m.parts(done))
                          .checksumCRC64NVME(value)
                          .checksumType(ChecksumType.FULL_OBJECT));
      S3Exception refused =
          catchThrowableOfType(S3Exception.class, () -> completeWith.apply(wrong));
      assertThat(refused).isNotNull();
      assertThat(refused.statusCode()).isEqualTo(400);
      assertThat(refused.awsErrorDetails().errorCode()).isEqualTo("BadDigest");
      CompleteMultipartUploadResponse completed = completeWith.apply(whole);
      assertThat(completed.checksumCRC64NVME()).isEqualTo(whole);
      assertThat(completed.checksumType()).isEqualTo(ChecksumType.FULL_OBJECT);
      // The SDK checks a full-object CRC64NVME it is answered against the bytes it reads.
      var got =
          s3.getObjectAsBytes(b -> b.bucket(bucket).key(key).checksumMode(ChecksumMode.ENABLED));
      assertThat(got.asByteArray()).isEqualTo(concat(parts));
      assertThat(got.response().checksumCRC64NVME()).isEqualTo(whole);
      assertThat(got.response().checksumType()).isEqualTo(ChecksumType.FULL_OBJECT);

      String compositeKey = "composite-crc32";
      String second =
          s3.createMultipartUpload(
                  b ->
                      b.bucket(bucket).key(compositeKey).checksumAlgorithm(ChecksumAlgorithm.CRC32))
              .uploadId();
      List<CompletedPart> crc32s =
          upload(s3, bucket, compositeKey, second, parts, ChecksumAlgorithm.CRC32);
      String composite = compositeCrc32(crc32s.stream().map(CompletedPart::checksumCRC32).toList());
      assertThat(
              s3.completeMultipartUpload(
                      b ->
                          b.bucket(bucket)
                              .key(compositeKey)
                              .uploadId(second)
                              .multipartUpload(m -> m.parts(crc32s)))
                  .checksumCRC32())
          .isEqualTo(composite);
      var head =
          s3.headObject(b -> b.bucket(bucket).key(compositeKey).checksumMode(ChecksumMode.ENABLED));
      assertThat(head.checksumCRC32()).isEqualTo(composite);
      assertThat(head.checksumType()).isEqualTo(ChecksumType.COMPOSITE);

      // The type recorded at creation, as the SDK sends it there: a completion that names none
      // (nor a value) is still full-object.
      String recordedKey = "recorded-full-crc32";
      var created =
          s3.createMultipartUpload(
              b ->
                  b.bucket(bucket)
                      .key(recordedKey)
                      .checksumAlgorithm(ChecksumAlgorithm.CRC32)
                      .checksumType(ChecksumType.FULL_OBJECT));
      assertThat(created.checksumType()).isEqualTo(ChecksumType.FULL_OBJECT);
      List<CompletedPart> recordedParts =
          upload(s3, bucket, recordedKey, created.uploadId(), parts, ChecksumAlgorithm.CRC32);
      CRC32 wholeCrc32 = new CRC32();
      wholeCrc32.update(concat(parts));
      String expectedCrc32 =
          base64(ByteBuffer.allocate(4).putInt((int) wholeCrc32.getValue()).array());
      CompleteMultipartUploadResponse recorded =
          s3.completeMultipartUpload(
              b ->
                  b.bucket(bucket)
                      .key(recordedKey)
                      .uploadId(created.uploadId())
                      .multipartUpload(m -> m.parts(recordedParts)));
      assertThat(recorded.checksumCRC32()).isEqualTo(expectedCrc32);
      assertThat(recorded.checksumType()).isEqualTo(ChecksumType.FULL_OBJECT);
      var recordedHead =
          s3.headObject(b -> b.bucket(bucket).key(recordedKey).checksumMode(ChecksumMode.ENABLED));
      assertThat(recordedHead.checksumCRC32()).isEqualTo(expectedCrc32);
      assertThat(recordedHead.checksumType()).isEqualTo(ChecksumType.FULL_OBJECT);
    }
  }

  @Test
  void boto3_whenFullObjectCrc64nvmeOrCompositeCrc32_answersAsS3() throws Exception {
    byte[][] parts = parts(72);
    Path work = Files.createDirectories(dir.resolve("boto3"));
    List<String> paths = new ArrayList<>();
    List<String> partCrcs = new ArrayList<>();
    for (int i = 0; i < parts.length; i++) {
      Path file = Files.write(work.resolve("part-" + i), parts[i]);
      paths.add(file.toString());
      partCrcs.add(crc64nvme(new byte[][] {parts[i]}));
    }
    Map<String, Object> config = new HashMap<>();
    config.put("endpoint", PROXIES.http().endpoint().toString());
    config.put("bucket", "boto3-mpu-checksums");
    config.put("parts", paths);
    config.put("partCrc64nvme", partCrcs);
    config.put("wholeCrc64nvme", crc64nvme(parts));
    config.put("wrongCrc64nvme", crc64nvme(new byte[][] {new byte[1]}));
    ObjectMapper json = new ObjectMapper();
    Path configFile = work.resolve("config.json");
    json.writeValue(configFile.toFile(), config);
    Path script = Launcher.root().resolve("src/test/resources/clients/boto3_mpu_checksums.py");
    Launcher.Result result =
        Clients.ok(
            List.of(TestTools.python().toString(), script.toString(), configFile.toString()),
            Clients.cleanEnv(work.resolve("home")));
    Map<String, String> out =
        json.readValue(result.stdout(), new TypeReference<Map<String, String>>() {});
    String whole = crc64nvme(parts);
    assertThat(out.get("full_wrong")).as(result.stdout()).isEqualTo("BadDigest");
    assertThat(out.get("full_complete_crc64nvme")).isEqualTo(whole);
    assertThat(out.get("full_complete_type")).isEqualTo("FULL_OBJECT");
    assertThat(out.get("full_head_crc64nvme")).isEqualTo(whole);
    assertThat(out.get("full_head_type")).isEqualTo("FULL_OBJECT");
    assertThat(out.get("full_get_matches")).isEqualTo("True");
    List<String> crc32s = new ArrayList<>();
    for (byte[] p : parts) {
      CRC32 crc = new CRC32();
      crc.update(p);
      crc32s.add(base64(ByteBuffer.allocate(4).putInt((int) crc.getValue()).array()));
    }
    assertThat(out.get("composite_part_crc32s")).isEqualTo(String.join(",", crc32s));
    String composite = compositeCrc32(crc32s);
    assertThat(out.get("composite_complete_crc32")).isEqualTo(composite);
    assertThat(out.get("composite_complete_type")).isEqualTo("COMPOSITE");
    assertThat(out.get("composite_get_crc32")).isEqualTo(composite);
    assertThat(out.get("composite_get_type")).isEqualTo("COMPOSITE");
    assertThat(out.get("composite_get_matches")).isEqualTo("True");
  }

  /** A 5 MiB part and a short last one, from {@code seed}. */
  private static byte[][] parts(long seed) {
    Random random = new Random(seed);
    byte[][] parts = {new byte[(int) (5 * Clients.MIB)], new byte[1 + random.nextInt(300_000)]};
    for (byte[] p : parts) {
      random.nextBytes(p);
    }
    return parts;
  }

  private static List<CompletedPart> upload(
      S3Client s3,
      String bucket,
      String key,
      String uploadId,
      byte[][] parts,
      ChecksumAlgorithm algorithm) {
    List<CompletedPart> done = new ArrayList<>();
    for (int i = 0; i < parts.length; i++) {
      int number = i + 1;
      var r =
          s3.uploadPart(
              b ->
                  b.bucket(bucket)
                      .key(key)
                      .uploadId(uploadId)
                      .partNumber(number)
                      .checksumAlgorithm(algorithm),
              RequestBody.fromBytes(parts[i]));
      done.add(
          CompletedPart.builder()
              .partNumber(number)
              .eTag(r.eTag())
              .checksumCRC32(r.checksumCRC32())
              .checksumCRC64NVME(r.checksumCRC64NVME())
              .build());
    }
    return done;
  }

  private static byte[] concat(byte[][] parts) {
    ByteBuffer all = ByteBuffer.allocate(parts[0].length + parts[1].length);
    for (byte[] p : parts) {
      all.put(p);
    }
    return all.array();
  }

  private static String crc64nvme(byte[][] pieces) {
    SdkChecksum crc = SdkChecksum.forAlgorithm(DefaultChecksumAlgorithm.CRC64NVME);
    for (byte[] p : pieces) {
      crc.update(p, 0, p.length);
    }
    return base64(crc.getChecksumBytes());
  }

  /** S3's composite CRC32: the CRC32 of the parts' CRC32s, then {@code -N}. */
  private static String compositeCrc32(List<String> partCrc32s) {
    CRC32 crc = new CRC32();
    for (String p : partCrc32s) {
      crc.update(Base64.getDecoder().decode(p));
    }
    return base64(ByteBuffer.allocate(4).putInt((int) crc.getValue()).array())
        + "-"
        + partCrc32s.size();
  }

  private static String base64(byte[] bytes) {
    return Base64.getEncoder().encodeToString(bytes);
  }

  /**
   * The Go program, built once per version of its sources into the racs tools cache (a few minutes
   * the first time: minio-go and its dependencies come from the Go module proxy, checked against
   * the pinned go.sum).
   */
  private static Path goProgram() throws IOException {
    Path source = Launcher.root().resolve("src/test/go").resolve(GO_PROGRAM);
    MessageDigest sha = sha256();
    for (String file : List.of("go.mod", "go.sum", "main.go")) {
      sha.update(Files.readAllBytes(source.resolve(file)));
    }
    String version = HexFormat.of().formatHex(sha.digest()).substring(0, 12);
    Path built =
        ProvisionedTools.cacheDir()
            .resolve("tools")
            .resolve(GO_PROGRAM + "-" + version)
            .resolve(GO_PROGRAM);
    if (Files.isExecutable(built)) {
      return built;
    }
    Files.createDirectories(built.getParent());
    Path tmp = Files.createTempDirectory(built.getParent(), ".build-");
    Map<String, String> env = new HashMap<>();
    env.put("GOFLAGS", "-trimpath -mod=readonly -buildvcs=false");
    Launcher.Result result =
        Launcher.exec(
            List.of(
                "go",
                "build",
                "-C",
                source.toString(),
                "-o",
                tmp.resolve(GO_PROGRAM).toString(),
                "."),
            env);
    assertThat(result.exitCode())
        .as("go build of %s (Go 1.22 or newer needed)\n%s", source, result.stderr())
        .isZero();
    // A concurrent build may have won; either binary is the same program.
    Files.move(tmp.resolve(GO_PROGRAM), built, StandardCopyOption.REPLACE_EXISTING);
    Files.deleteIfExists(tmp);
    return built;
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
