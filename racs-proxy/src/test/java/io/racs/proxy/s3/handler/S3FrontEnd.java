package io.racs.proxy.s3.handler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.racs.proxy.config.EncryptionConfig;
import io.racs.proxy.crypto.Keyring;
import io.racs.proxy.crypto.MasterKey;
import io.racs.proxy.runtime.RacsServer;
import io.racs.proxy.runtime.ServerConfig;
import io.racs.proxy.s3.server.AccessLog;
import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.MemoryArray;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.assertj.core.api.ThrowableAssert;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignRequest;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * A running proxy for tests of the S3 front end, as a JUnit extension: a 4x2 array on memory
 * repositories behind the real Netty server on a random 127.0.0.1 port, started before the class's
 * tests with one empty bucket and stopped after them; an AWS SDK v2 client for it; and {@link
 * #send} for requests the SDK would not send or whose raw answer (every header value) a test must
 * see.
 *
 * <p>Register it in a static field: {@code @RegisterExtension static final S3FrontEnd proxy =
 * S3FrontEnd.withBucket("name");}. Its {@code beforeAll} runs before the class's own
 * {@code @BeforeAll} methods, which may therefore store what the tests read.
 */
final class S3FrontEnd implements BeforeAllCallback, AfterAllCallback {
  private static final String ACCESS = "test-access";
  private static final String SECRET = "test-secret-key";
  private static final Pattern CODE = Pattern.compile("<Code>([^<]*)</Code>");

  private final String bucket;
  private java.time.Duration lifecycleInterval = ServerConfig.DEFAULT_LIFECYCLE_INTERVAL;
  private Keyring keys;
  private RacsServer server;
  private URI endpoint;
  private S3Client s3;
  private HttpClient http;

  private S3FrontEnd(String bucket) {
    this.bucket = bucket;
  }

  /**
   * This proxy with the lifecycle scan turned off ({@code lifecycleInterval: 0s}), so that it
   * refuses lifecycle rules. (As shipped the scan runs every hour: never during a test.)
   */
  S3FrontEnd lifecycleOff() {
    lifecycleInterval = java.time.Duration.ZERO;
    return this;
  }

  /**
   * This proxy with a master key (SSE-S3) and SSE-C keys accepted over its plain HTTP on loopback,
   * nothing encrypted unless a request or the bucket asks.
   */
  S3FrontEnd encrypting() {
    keys = Keyring.of(MasterKey.generate());
    return this;
  }

  /** A proxy that starts with an empty array holding one empty bucket, {@code bucket}. */
  static S3FrontEnd withBucket(String bucket) {
    return new S3FrontEnd(bucket);
  }

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    ErasureStore store = keys == null ? MemoryArray.open("4x2") : MemoryArray.open("4x2", keys);
    server =
        RacsServer.start(
            store,
            ServerConfig.defaults()
                .with("127.0.0.1:0", Map.of(ACCESS, SECRET))
                .withAdmin(null)
                .withLifecycleInterval(lifecycleInterval),
            keys == null ? EncryptionConfig.NONE : new EncryptionConfig(keys, false, true),
            AccessLog.off());
    endpoint = URI.create("http://127.0.0.1:" + server.port());
    s3 =
        S3Client.builder()
            .endpointOverride(endpoint)
            .region(Region.US_EAST_1)
            .forcePathStyle(true)
            .credentialsProvider(
                StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS, SECRET)))
            .build();
    http = HttpClient.newHttpClient();
    s3.createBucket(b -> b.bucket(bucket));
  }

  @Override
  public void afterAll(ExtensionContext context) {
    s3.close();
    http.close();
    server.close();
  }

  /** The S3 error {@code call} fails with; fails the test when it succeeds. */
  static S3Exception error(ThrowableAssert.ThrowingCallable call) {
    S3Exception e = catchThrowableOfType(S3Exception.class, call);
    assertThat(e).as("an S3 error").isNotNull();
    return e;
  }

  /** The SDK client (path style, us-east-1). */
  S3Client s3() {
    return s3;
  }

  /** Stores {@code text} under {@code key} in the bucket; returns its ETag. */
  String put(String key, String text) {
    return s3.putObject(b -> b.bucket(bucket).key(key), RequestBody.fromString(text)).eTag();
  }

  /** The text stored under {@code key} in the bucket. */
  String get(String key) {
    return s3.getObjectAsBytes(b -> b.bucket(bucket).key(key)).asUtf8String();
  }

  /** An answer as it came off the wire. */
  record Raw(int status, HttpHeaders headers, byte[] body) {
    String text() {
      return new String(body, StandardCharsets.UTF_8);
    }

    /** Every value of a header, in order. */
    List<String> all(String name) {
      return headers.allValues(name);
    }

    /** The {@code <Code>} of an error body, or {@code null}. */
    String code() {
      Matcher m = CODE.matcher(text());
      return m.find() ? m.group(1) : null;
    }
  }

  /**
   * Sends one request signed with SigV4 (payload signed) by the SDK's own signer.
   *
   * @param path {@code /bucket/key}, of unreserved characters only
   * @param query the query ({@code a=1&b}) or empty, names and values unencoded (the signer encodes
   *     them) and free of {@code &} and {@code =}
   */
  Raw send(String method, String path, String query, Map<String, String> headers, byte[] body)
      throws IOException, InterruptedException {
    SdkHttpRequest.Builder request =
        SdkHttpRequest.builder()
            .method(SdkHttpMethod.fromValue(method))
            .protocol("http")
            .host(endpoint.getHost())
            .port(endpoint.getPort())
            .encodedPath(path);
    if (!query.isEmpty()) {
      for (String pair : query.split("&")) {
        int eq = pair.indexOf('=');
        request.appendRawQueryParameter(
            eq < 0 ? pair : pair.substring(0, eq), eq < 0 ? null : pair.substring(eq + 1));
      }
    }
    headers.forEach(request::appendHeader);
    byte[] payload = body == null ? new byte[0] : body;
    SignedRequest signed =
        AwsV4HttpSigner.create()
            .sign(
                SignRequest.builder(AwsCredentialsIdentity.create(ACCESS, SECRET))
                    .request(request.build())
                    .payload(ContentStreamProvider.fromByteArray(payload))
                    .putProperty(AwsV4HttpSigner.REGION_NAME, "us-east-1")
                    .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "s3")
                    .putProperty(AwsV4HttpSigner.DOUBLE_URL_ENCODE, false)
                    .putProperty(AwsV4HttpSigner.NORMALIZE_PATH, false)
                    .putProperty(AwsV4HttpSigner.PAYLOAD_SIGNING_ENABLED, true)
                    .putProperty(AwsV4HttpSigner.SIGNING_CLOCK, Clock.systemUTC())
                    .build());
    SdkHttpRequest r = signed.request();
    HttpRequest.Builder out =
        HttpRequest.newBuilder(r.getUri())
            .method(
                method,
                payload.length == 0
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofByteArray(payload));
    r.forEachHeader(
        (name, values) -> {
          if (!name.equalsIgnoreCase("host") && !name.equalsIgnoreCase("content-length")) {
            values.forEach(v -> out.header(name, v));
          }
        });
    HttpResponse<byte[]> response = http.send(out.build(), HttpResponse.BodyHandlers.ofByteArray());
    return new Raw(response.statusCode(), response.headers(), response.body());
  }

  /**
   * Sends one request without any signature, as a browser sends a CORS preflight or a form POST.
   *
   * @param path {@code /bucket/key}, of unreserved characters only
   */
  Raw sendUnsigned(String method, String path, Map<String, String> headers, byte[] body)
      throws IOException, InterruptedException {
    HttpRequest.Builder out =
        HttpRequest.newBuilder(endpoint.resolve(path))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofByteArray(body));
    headers.forEach(out::header);
    HttpResponse<byte[]> response = http.send(out.build(), HttpResponse.BodyHandlers.ofByteArray());
    return new Raw(response.statusCode(), response.headers(), response.body());
  }

  /** The endpoint, {@code http://127.0.0.1:<port>}. */
  URI endpoint() {
    return endpoint;
  }
}
