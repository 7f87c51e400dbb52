package io.racs.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.testkit.SeededBytes;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Collections;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.GZIPOutputStream;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4FamilyHttpSigner;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.HttpSigner;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * What the external-client tests share: a clean environment for client processes, seeded files,
 * digests, and SigV4 presigned URLs made by the SDK's own signer at a chosen signing time.
 */
final class Clients {
  static final long MIB = 1024 * 1024;

  /** The sizes every client round-trips; the last goes multipart in every client. */
  static final List<Long> SIZES = List.of(0L, 1L, 5 * MIB + 1, 70 * MIB);

  /** Variables a developer's shell may carry that would change what a client does. */
  private static final List<String> INHERITED =
      List.of(
          "AWS_CA_BUNDLE",
          "AWS_PROFILE",
          "AWS_DEFAULT_PROFILE",
          "AWS_SESSION_TOKEN",
          "AWS_SECURITY_TOKEN",
          "AWS_REGION",
          "AWS_ENDPOINT_URL",
          "AWS_ENDPOINT_URL_S3",
          "AWS_REQUEST_CHECKSUM_CALCULATION",
          "AWS_RESPONSE_CHECKSUM_VALIDATION",
          "AWS_USE_FIPS_ENDPOINT",
          "HTTP_PROXY",
          "HTTPS_PROXY",
          "http_proxy",
          "https_proxy",
          "RCLONE_CONFIG");

  /**
   * The standard headers S3 stores with an object, as the metadata tests set them on every upload
   * (PUT, multipart, and a copy's source): one value each, as S3 writes the names. The body is gzip
   * data to go with its {@code Content-Encoding} (see {@link #gzipBytes}).
   */
  static final Map<String, String> STANDARD_HEADERS =
      ordered(
          "Cache-Control", "max-age=3600, must-revalidate",
          "Content-Disposition", "attachment; filename=\"report.csv\"",
          "Content-Encoding", "gzip",
          "Content-Language", "de-CH",
          "Content-Type", "text/csv",
          "Expires", "Fri, 01 Jan 2038 00:00:00 GMT");

  /** The user metadata ({@code x-amz-meta-*}) the metadata tests set with the headers above. */
  static final Map<String, String> USER_METADATA = ordered("colour", "blue", "owner-id", "42");

  /**
   * What a copy with {@code x-amz-metadata-directive: REPLACE} sets instead: the headers it does
   * not name are gone from the copy, like the source's user metadata.
   */
  static final Map<String, String> REPLACED_HEADERS =
      ordered("Cache-Control", "no-cache", "Content-Type", "application/json");

  /** The user metadata the REPLACE copy sets. */
  static final Map<String, String> REPLACED_METADATA = ordered("state", "replaced");

  /** The tags the metadata tests set on an upload, as a client's {@code key=value&...} option. */
  static final String TAGGING = "colour=blue&owner=42";

  /** {@link #TAGGING} as the tag set GetObjectTagging answers. */
  static final Map<String, String> TAGS = ordered("colour", "blue", "owner", "42");

  /** Every standard header the proxy stores, to check that the ones not set are absent. */
  private static final List<String> STORED_HEADERS =
      List.of(
          "Cache-Control",
          "Content-Disposition",
          "Content-Encoding",
          "Content-Language",
          "Expires");

  private Clients() {}

  private static Map<String, String> ordered(String... pairs) {
    Map<String, String> map = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      map.put(pairs[i], pairs[i + 1]);
    }
    return Collections.unmodifiableMap(map);
  }

  /**
   * {@code size} bytes from {@link SeededBytes} of {@code seed}, gzip-compressed into {@code file}:
   * a body that matches {@code Content-Encoding: gzip}, so no client in between has cause to
   * complain.
   */
  static Path gzipFile(Path file, long seed, long size) {
    try {
      Files.createDirectories(file.getParent());
      try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(file))) {
        SeededBytes.stream(seed, size).transferTo(out);
      }
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Asserts what the proxy itself answers a plain GET and a plain HEAD of {@code bucket/key}
   * (presigned, sent by the JDK's HTTP client, so no S3 client interprets the answer): exactly the
   * {@code standard} headers among those S3 stores, {@code Content-Type} included, and exactly the
   * {@code user} metadata. Returns the GET's body.
   */
  static byte[] assertStoredMetadata(
      URI endpoint,
      String bucket,
      String key,
      Map<String, String> standard,
      Map<String, String> user) {
    byte[] body = null;
    for (SdkHttpMethod method : List.of(SdkHttpMethod.GET, SdkHttpMethod.HEAD)) {
      URI uri =
          presign(
              method,
              endpoint,
              bucket,
              key,
              ProxyProcess.SECRET_KEY,
              Instant.now(),
              Duration.ofMinutes(5));
      HttpResponse<byte[]> response;
      try {
        response =
            HttpClient.newHttpClient()
                .send(
                    HttpRequest.newBuilder(uri)
                        .method(method.name(), HttpRequest.BodyPublishers.noBody())
                        .build(),
                    HttpResponse.BodyHandlers.ofByteArray());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
      String what = method + " " + bucket + "/" + key;
      assertThat(response.statusCode()).as(what).isEqualTo(200);
      Map<String, List<String>> headers = response.headers().map();
      for (String name : STORED_HEADERS) {
        if (standard.containsKey(name)) {
          assertThat(response.headers().allValues(name))
              .as("%s: %s", what, name)
              .containsExactly(standard.get(name));
        } else {
          assertThat(response.headers().allValues(name)).as("%s: %s", what, name).isEmpty();
        }
      }
      if (standard.containsKey("Content-Type")) {
        assertThat(response.headers().allValues("Content-Type"))
            .as("%s: Content-Type", what)
            .containsExactly(standard.get("Content-Type"));
      }
      Map<String, String> meta = new TreeMap<>();
      headers.forEach(
          (name, values) -> {
            String lower = name.toLowerCase(Locale.ROOT);
            if (lower.startsWith("x-amz-meta-")) {
              meta.put(lower.substring("x-amz-meta-".length()), String.join(",", values));
            }
          });
      assertThat(meta).as("%s: user metadata", what).isEqualTo(new TreeMap<>(user));
      if (method == SdkHttpMethod.GET) {
        body = response.body();
      }
    }
    return body;
  }

  /** An AWS SDK v2 client for the plain-HTTP proxy at {@code endpoint}, path style, us-east-1. */
  static S3Client sdk(URI endpoint) {
    return S3Client.builder()
        .endpointOverride(endpoint)
        .region(Region.US_EAST_1)
        .forcePathStyle(true)
        .credentialsProvider(
            StaticCredentialsProvider.create(
                AwsBasicCredentials.create(ProxyProcess.ACCESS_KEY, ProxyProcess.SECRET_KEY)))
        .httpClientBuilder(Apache5HttpClient.builder())
        .build();
  }

  /**
   * Asserts the tag set the proxy answers GetObjectTagging of {@code bucket/key} with (asked by the
   * AWS SDK, so that no client under test interprets the answer): exactly {@code tags}.
   */
  static void assertStoredTags(URI endpoint, String bucket, String key, Map<String, String> tags) {
    try (S3Client s3 = sdk(endpoint)) {
      Map<String, String> stored = new TreeMap<>();
      s3.getObjectTagging(b -> b.bucket(bucket).key(key))
          .tagSet()
          .forEach(tag -> stored.put(tag.key(), tag.value()));
      assertThat(stored).as("tags of %s/%s", bucket, key).isEqualTo(new TreeMap<>(tags));
    }
  }

  /**
   * A clean environment for a client process: the proxy's credentials, us-east-1, empty AWS config
   * and credentials files under {@code dir}, and nothing inherited that could redirect or re-sign
   * requests (a null value removes a variable, as {@link Launcher#exec} does).
   */
  static Map<String, String> cleanEnv(Path dir) {
    try {
      Files.createDirectories(dir);
      Path config = dir.resolve("aws-config");
      Path credentials = dir.resolve("aws-credentials");
      Files.writeString(config, "");
      Files.writeString(credentials, "");
      Map<String, String> env = new HashMap<>();
      INHERITED.forEach(name -> env.put(name, null));
      System.getenv().keySet().stream()
          .filter(name -> name.startsWith("RCLONE_"))
          .forEach(name -> env.put(name, null));
      env.put("AWS_ACCESS_KEY_ID", ProxyProcess.ACCESS_KEY);
      env.put("AWS_SECRET_ACCESS_KEY", ProxyProcess.SECRET_KEY);
      env.put("AWS_DEFAULT_REGION", "us-east-1");
      env.put("AWS_CONFIG_FILE", config.toString());
      env.put("AWS_SHARED_CREDENTIALS_FILE", credentials.toString());
      env.put("HOME", dir.toString());
      return env;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Runs {@code command} and asserts it succeeded, showing what it printed when it did not. */
  static Launcher.Result ok(List<String> command, Map<String, String> env) {
    Launcher.Result result = Launcher.exec(command, env);
    assertThat(result.exitCode())
        .as("%s\nstdout:\n%s\nstderr:\n%s", command, result.stdout(), result.stderr())
        .isZero();
    return result;
  }

  /** Writes {@code size} bytes from {@link SeededBytes} of {@code seed} to {@code file}. */
  static Path seededFile(Path file, long seed, long size) {
    try {
      Files.createDirectories(file.getParent());
      try (OutputStream out = Files.newOutputStream(file)) {
        SeededBytes.stream(seed, size).transferTo(out);
      }
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code size} bytes from {@link SeededBytes} of {@code seed}. */
  static byte[] seededBytes(long seed, int size) {
    return SeededBytes.bytes(seed, size);
  }

  static String md5Hex(InputStream in) throws IOException {
    MessageDigest md5 = digest("MD5");
    byte[] buffer = new byte[1 << 16];
    for (int n; (n = in.read(buffer)) > 0; ) {
      md5.update(buffer, 0, n);
    }
    return HexFormat.of().formatHex(md5.digest());
  }

  static String md5Hex(Path file) {
    try (InputStream in = Files.newInputStream(file)) {
      return md5Hex(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static String md5Hex(byte[] data) {
    return HexFormat.of().formatHex(digest("MD5").digest(data));
  }

  static MessageDigest digest(String algorithm) {
    try {
      return MessageDigest.getInstance(algorithm);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * A presigned GET URL for {@code bucket/key} made by the AWS SDK's SigV4 signer as if it were
   * {@code signedAt}, valid for {@code validFor}. A signing time in the past gives a URL that has
   * already expired, whatever the clocks do while the test runs.
   */
  static URI presignGet(
      URI endpoint, String bucket, String key, String secret, Instant signedAt, Duration validFor) {
    return presign(SdkHttpMethod.GET, endpoint, bucket, key, secret, signedAt, validFor);
  }

  /** A presigned URL for {@code method} on {@code bucket/key}, as {@link #presignGet} makes. */
  static URI presign(
      SdkHttpMethod method,
      URI endpoint,
      String bucket,
      String key,
      String secret,
      Instant signedAt,
      Duration validFor) {
    SdkHttpRequest request =
        SdkHttpRequest.builder()
            .method(method)
            .uri(endpoint.resolve("/" + bucket + "/" + key))
            .build();
    var signed =
        AwsV4HttpSigner.create()
            .sign(
                r ->
                    r.identity(AwsCredentialsIdentity.create(ProxyProcess.ACCESS_KEY, secret))
                        .request(request)
                        .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "s3")
                        .putProperty(AwsV4HttpSigner.REGION_NAME, "us-east-1")
                        .putProperty(
                            AwsV4HttpSigner.AUTH_LOCATION,
                            AwsV4FamilyHttpSigner.AuthLocation.QUERY_STRING)
                        .putProperty(AwsV4HttpSigner.EXPIRATION_DURATION, validFor)
                        .putProperty(AwsV4HttpSigner.PAYLOAD_SIGNING_ENABLED, false)
                        .putProperty(AwsV4HttpSigner.DOUBLE_URL_ENCODE, false)
                        .putProperty(AwsV4HttpSigner.NORMALIZE_PATH, false)
                        .putProperty(
                            HttpSigner.SIGNING_CLOCK, Clock.fixed(signedAt, ZoneOffset.UTC)));
    return signed.request().getUri();
  }
}
