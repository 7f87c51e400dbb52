package io.racs.proxy.s3.handler;

import io.racs.proxy.s3.bridge.BucketDocument;
import io.racs.proxy.s3.bridge.StoreBridge;
import io.racs.proxy.s3.cors.CorsConfiguration;
import io.racs.proxy.s3.cors.CorsRule;
import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.s3.xml.CorsRequest;
import io.racs.proxy.s3.xml.S3XmlResponses;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The CORS family: Put, Get and DeleteBucketCors, the unsigned preflight ({@code OPTIONS}), and the
 * CORS headers of actual requests that carry an {@code Origin}.
 *
 * <p>The configuration is stored as the document {@link S3XmlResponses#corsConfiguration} renders
 * from the validated rules, so what GetBucketCors returns is what was checked.
 */
final class CorsHandler {
  private static final String VARY_PREFLIGHT =
      "Origin, Access-Control-Request-Headers, Access-Control-Request-Method";

  private final StoreBridge store;

  CorsHandler(StoreBridge store) {
    this.store = store;
  }

  S3Response handle(S3Request request) throws IOException {
    return switch (request.route().operation()) {
      case PUT_BUCKET_CORS -> put(request);
      case GET_BUCKET_CORS -> get(request);
      case DELETE_BUCKET_CORS -> {
        store.deleteBucketDocument(request.bucket(), BucketDocument.CORS);
        yield S3Response.status(204);
      }
      case PREFLIGHT_CORS -> preflight(request);
      default -> throw S3Exception.of(S3ErrorCode.NOT_IMPLEMENTED);
    };
  }

  private S3Response put(S3Request request) throws IOException {
    CorsConfiguration configuration = CorsRequest.parse(ObjectHandler.readXml(request));
    store.putBucketDocument(
        request.bucket(),
        BucketDocument.CORS,
        new String(S3XmlResponses.corsConfiguration(configuration), StandardCharsets.UTF_8));
    return S3Response.status(200);
  }

  private S3Response get(S3Request request) {
    String document =
        store
            .bucketDocument(request.bucket(), BucketDocument.CORS)
            .orElseThrow(
                () ->
                    S3Exception.of(S3ErrorCode.NO_SUCH_CORS_CONFIGURATION)
                        .withDetail("BucketName", request.bucket())
                        .withResource("/" + request.bucket()));
    return S3Response.xml(document.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * Answers a preflight from the bucket's rules. A bucket that does not exist answers as one
   * without a configuration, so an unsigned request learns nothing but the CORS decision.
   */
  private S3Response preflight(S3Request request) {
    String origin = request.headers().get("origin");
    if (origin == null || origin.isBlank()) {
      throw S3Exception.of(
          S3ErrorCode.INVALID_REQUEST, "Insufficient information. Origin request header needed.");
    }
    String method = request.headers().get("access-control-request-method");
    if (method == null || method.isBlank()) {
      throw S3Exception.of(
          S3ErrorCode.INVALID_REQUEST,
          "Invalid Access-Control-Request-Method: " + (method == null ? "null" : method));
    }
    List<String> requestHeaders = requestHeaders(request);
    CorsRule rule =
        configuration(request.bucket())
            .flatMap(c -> c.match(origin, method.strip(), requestHeaders))
            .orElseThrow(() -> S3Exception.of(S3ErrorCode.CORS_RESPONSE));
    S3Response response = S3Response.status(200);
    allowOrigin(response, rule, origin);
    response.header("Access-Control-Allow-Methods", String.join(", ", rule.allowedMethods()));
    if (!requestHeaders.isEmpty()) {
      response.header("Access-Control-Allow-Headers", String.join(", ", requestHeaders));
    }
    if (rule.maxAgeSeconds() != null) {
      response.header("Access-Control-Max-Age", Integer.toString(rule.maxAgeSeconds()));
    }
    exposeHeaders(response, rule);
    response.header("Vary", VARY_PREFLIGHT);
    return response;
  }

  /**
   * Adds the CORS headers of the first rule that lets the request's {@code Origin} use its method
   * to the answer of an actual (signed, served) request. A request without {@code Origin}, or one
   * no rule allows, gets none: the browser then withholds the answer from the page. A failure to
   * read the rules leaves the served answer as it is, without CORS headers, rather than turning a
   * request that was carried out into an error.
   */
  S3Response decorate(S3Request request, S3Response response) {
    String origin = request.headers().get("origin");
    if (origin == null || request.bucket() == null) {
      return response;
    }
    Optional<CorsConfiguration> configuration;
    try {
      configuration = configuration(request.bucket());
    } catch (RuntimeException e) {
      return response;
    }
    configuration
        .flatMap(c -> c.match(origin, request.head().method(), List.of()))
        .ifPresent(
            rule -> {
              allowOrigin(response, rule, origin);
              response.header(
                  "Access-Control-Allow-Methods", String.join(", ", rule.allowedMethods()));
              exposeHeaders(response, rule);
              if (rule.maxAgeSeconds() != null) {
                response.header("Access-Control-Max-Age", Integer.toString(rule.maxAgeSeconds()));
              }
              response.header("Vary", VARY_PREFLIGHT);
            });
    return response;
  }

  private Optional<CorsConfiguration> configuration(String bucket) {
    try {
      return store
          .bucketDocument(bucket, BucketDocument.CORS)
          .map(d -> CorsRequest.parse(d.getBytes(StandardCharsets.UTF_8)));
    } catch (S3Exception e) {
      if (e.code() == S3ErrorCode.NO_SUCH_BUCKET) {
        return Optional.empty();
      }
      throw e;
    }
  }

  /** A rule for any origin answers {@code *}; otherwise the origin itself, with credentials. */
  private static void allowOrigin(S3Response response, CorsRule rule, String origin) {
    if (rule.anyOrigin()) {
      response.header("Access-Control-Allow-Origin", "*");
    } else {
      response.header("Access-Control-Allow-Origin", origin);
      response.header("Access-Control-Allow-Credentials", "true");
    }
  }

  private static void exposeHeaders(S3Response response, CorsRule rule) {
    if (!rule.exposeHeaders().isEmpty()) {
      response.header("Access-Control-Expose-Headers", String.join(", ", rule.exposeHeaders()));
    }
  }

  /** The header names of {@code Access-Control-Request-Headers}, trimmed, without empties. */
  private static List<String> requestHeaders(S3Request request) {
    List<String> names = new ArrayList<>();
    String value = request.headers().get("access-control-request-headers");
    if (value != null) {
      for (String name : value.split(",")) {
        if (!name.isBlank()) {
          names.add(name.strip());
        }
      }
    }
    return names;
  }
}
