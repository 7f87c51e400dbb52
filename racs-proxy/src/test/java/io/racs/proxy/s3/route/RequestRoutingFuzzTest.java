package io.racs.proxy.s3.route;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.s3.http.Headers;
import io.racs.proxy.s3.http.PercentCodec;
import io.racs.proxy.s3.http.QueryParams;
import io.racs.proxy.s3.http.RequestHead;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzzes what turns a request line and its {@code Host} into an S3 operation: the request target's
 * split into path and query ({@link RequestHead#of}), the query decoder ({@link QueryParams}) and
 * the router, path style and virtual-host style. Whatever the bytes, the only failure is the S3
 * error the router documents; a route it returns names a valid bucket and a key S3 allows, and
 * routing the re-encoded key again gives the same bucket and key (the key is decoded exactly once).
 *
 * <p>In regression mode ({@code ./mvnw test}) this replays the committed corpus under {@code
 * RequestRoutingFuzzTestInputs}; {@code scripts/fuzz.sh} fuzzes it.
 */
class RequestRoutingFuzzTest {
  private static final S3Router PATH = S3Router.pathStyle();
  private static final S3Router VHOST = S3Router.withBaseDomain("s3.example.com");
  private static final String[] METHODS = {
    "GET", "HEAD", "PUT", "POST", "DELETE", "OPTIONS", "PATCH", "get"
  };

  /** What the router documents it throws (its class comment). */
  private static final Set<S3ErrorCode> ROUTER_ERRORS =
      Set.of(
          S3ErrorCode.INVALID_URI,
          S3ErrorCode.INVALID_BUCKET_NAME,
          S3ErrorCode.KEY_TOO_LONG_ERROR,
          S3ErrorCode.INVALID_ARGUMENT,
          S3ErrorCode.METHOD_NOT_ALLOWED,
          S3ErrorCode.NOT_IMPLEMENTED);

  @FuzzTest
  @Timeout(value = 10, unit = TimeUnit.SECONDS)
  void route(FuzzedDataProvider data) {
    String method =
        data.consumeBoolean() ? data.pickValue(METHODS) : data.consumeAsciiString(8) + "X";
    String host =
        switch (data.consumeInt(0, 3)) {
          case 0 -> "127.0.0.1:9000";
          case 1 -> data.consumeString(70) + ".s3.example.com";
          case 2 -> data.consumeString(80);
          default -> null;
        };
    Headers.Builder headers = Headers.builder();
    if (host != null) {
      headers.add("Host", host);
    }
    if (data.consumeBoolean()) {
      headers.add("x-amz-copy-source", data.consumeString(40));
    }
    String target = data.consumeRemainingAsString();

    RequestHead head;
    try {
      head = RequestHead.of(method, target, headers.build());
    } catch (IllegalArgumentException e) {
      // The one documented refusal: a target that is neither origin-form nor absolute-form.
      assertThat(e).hasMessageContaining("rawPath");
      return;
    }
    assertThat(head.rawPath()).startsWith("/");
    assertThat(head.rawPath() + (head.rawQuery().isEmpty() ? "" : "?" + head.rawQuery()))
        .doesNotContain("#");

    try {
      QueryParams query = head.query();
      for (QueryParams.Param p : query.asList()) {
        assertThat(query.contains(p.name())).isTrue();
      }
    } catch (S3Exception e) {
      assertThat(e.code()).isEqualTo(S3ErrorCode.INVALID_URI);
    }

    routeAndCheck(PATH, head);
    routeAndCheck(VHOST, head);
  }

  private static void routeAndCheck(S3Router router, RequestHead head) {
    S3Route route;
    try {
      route = router.route(head);
    } catch (S3Exception e) {
      assertThat(e.code()).as(e.toString()).isIn(ROUTER_ERRORS);
      return;
    }
    assertThat(route.operation()).isNotNull();
    if (route.bucket() == null) {
      assertThat(route.operation()).isEqualTo(S3Operation.LIST_BUCKETS);
      assertThat(route.key()).isNull();
      return;
    }
    assertThat(BucketNames.isValid(route.bucket())).as(route.bucket()).isTrue();
    if (route.key() == null) {
      assertThat(route.operation().family())
          .isIn(
              S3Operation.Family.BUCKET,
              S3Operation.Family.LISTING,
              S3Operation.Family.OBJECT,
              S3Operation.Family.ACL,
              S3Operation.Family.CORS,
              S3Operation.Family.TAGGING,
              S3Operation.Family.LIFECYCLE,
              S3Operation.Family.ENCRYPTION,
              S3Operation.Family.OBJECT_LOCK,
              S3Operation.Family.FORM,
              S3Operation.Family.POLICY);
      return;
    }
    assertThat(route.key()).isNotEmpty();
    assertThat(route.key().getBytes(StandardCharsets.UTF_8).length)
        .isLessThanOrEqualTo(BucketNames.MAX_KEY_BYTES);
    if (route.operation() != S3Operation.PREFLIGHT_CORS) {
      assertThat(route.operation().family())
          .isIn(
              S3Operation.Family.OBJECT,
              S3Operation.Family.MULTIPART,
              S3Operation.Family.ACL,
              S3Operation.Family.TAGGING,
              S3Operation.Family.OBJECT_LOCK);
    }
    if (!StandardCharsets.UTF_8.newEncoder().canEncode(route.key())) {
      // A lone surrogate can only come from a Java string, never from Netty, which reads the
      // request line as single bytes; it has no UTF-8 form to round-trip.
      return;
    }

    // The key was decoded once: its SigV4 encoding routes back to the same bucket and key.
    String path =
        route.virtualHost()
            ? "/" + PercentCodec.uriEncodePath(route.key())
            : "/" + route.bucket() + "/" + PercentCodec.uriEncodePath(route.key());
    S3Route again =
        router.route(new RequestHead(head.method(), path, head.rawQuery(), head.headers()));
    assertThat(again.bucket()).isEqualTo(route.bucket());
    assertThat(again.key()).isEqualTo(route.key());
    assertThat(again.operation()).isEqualTo(route.operation());
  }
}
