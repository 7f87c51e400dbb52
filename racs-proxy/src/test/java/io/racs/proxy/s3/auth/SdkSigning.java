package io.racs.proxy.s3.auth;

import io.racs.proxy.s3.http.Headers;
import io.racs.proxy.s3.http.RequestHead;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignRequest;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;

/**
 * Signs requests with the real AWS SDK for Java v2 signer ({@link AwsV4HttpSigner}) configured as
 * the SDK's S3 client configures it (no double encoding, no path normalisation), and turns the
 * result into the {@link RequestHead} the proxy would see on the wire.
 */
public final class SdkSigning {
  /** The signed request head and the body as it would be sent. */
  public record Signed(RequestHead head, byte[] body) {}

  private SdkSigning() {}

  /**
   * Signs a request.
   *
   * @param method HTTP method
   * @param encodedPath the path as the SDK would send it (already URI-encoded)
   * @param rawQuery already-encoded query parameters, in order
   * @param headers extra headers
   * @param body the payload, or {@code null}
   * @param properties extra signer properties (auth location, chunk encoding, ...)
   */
  public static Signed sign(
      String accessKey,
      String secretKey,
      Instant now,
      String method,
      String encodedPath,
      List<Map.Entry<String, String>> rawQuery,
      Map<String, String> headers,
      byte[] body,
      Consumer<SignRequest.Builder<AwsCredentialsIdentity>> properties) {
    SdkHttpRequest.Builder rb =
        SdkHttpRequest.builder()
            .method(SdkHttpMethod.fromValue(method))
            .protocol("https")
            .host("127.0.0.1")
            .port(9000)
            .encodedPath(encodedPath);
    for (Map.Entry<String, String> q : rawQuery) {
      rb.appendRawQueryParameter(q.getKey(), q.getValue());
    }
    headers.forEach(rb::appendHeader);
    SignRequest.Builder<AwsCredentialsIdentity> sb =
        SignRequest.builder(AwsCredentialsIdentity.create(accessKey, secretKey))
            .request(rb.build())
            .putProperty(AwsV4HttpSigner.REGION_NAME, "us-east-1")
            .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "s3")
            .putProperty(AwsV4HttpSigner.DOUBLE_URL_ENCODE, false)
            .putProperty(AwsV4HttpSigner.NORMALIZE_PATH, false)
            .putProperty(AwsV4HttpSigner.SIGNING_CLOCK, Clock.fixed(now, ZoneOffset.UTC));
    if (body != null) {
      sb.payload(ContentStreamProvider.fromByteArray(body));
    }
    properties.accept(sb);
    SignedRequest signed = AwsV4HttpSigner.create().sign(sb.build());
    SdkHttpRequest r = signed.request();
    Headers.Builder hb = Headers.builder();
    r.forEachHeader((name, values) -> values.forEach(v -> hb.add(name, v)));
    if (!r.firstMatchingHeader("Host").isPresent()) {
      hb.add("Host", "127.0.0.1:9000");
    }
    String target = r.encodedPath() + r.encodedQueryParameters().map(q -> "?" + q).orElse("");
    byte[] sentBody = signed.payload().map(SdkSigning::readAll).orElse(null);
    return new Signed(RequestHead.of(r.method().name(), target, hb.build()), sentBody);
  }

  private static byte[] readAll(ContentStreamProvider p) {
    try (InputStream in = p.newStream()) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      in.transferTo(out);
      return out.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
