package io.racs.proxy.s3.error;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The one exception of the S3 layer: an {@link S3ErrorCode}, the message for the client, the
 * resource it concerns, and extra elements of the error XML (for example {@code ActualObjectSize}
 * for {@code InvalidRange}, {@code Region} for {@code AuthorizationHeaderMalformed}).
 *
 * <p>It is control flow as much as failure ({@code NoSuchKey} is common), so it records no stack
 * trace unless a cause is attached. Messages never contain secrets or signatures: they are sent to
 * the client and may be logged.
 */
public final class S3Exception extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final S3ErrorCode code;
  private final String resource;
  private final transient Map<String, String> details;
  private final transient Map<String, String> headers;

  private S3Exception(
      S3ErrorCode code,
      String message,
      String resource,
      Map<String, String> details,
      Throwable cause) {
    this(code, message, resource, details, Map.of(), cause);
  }

  private S3Exception(
      S3ErrorCode code,
      String message,
      String resource,
      Map<String, String> details,
      Map<String, String> headers,
      Throwable cause) {
    super(message, cause, false, cause != null);
    this.code = Objects.requireNonNull(code, "code");
    this.resource = resource;
    this.details = Collections.unmodifiableMap(new LinkedHashMap<>(details));
    this.headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
  }

  /** An error with the code's default message. */
  public static S3Exception of(S3ErrorCode code) {
    return new S3Exception(code, code.defaultMessage(), null, Map.of(), null);
  }

  /** An error with a specific message; {@code null} means the code's default message. */
  public static S3Exception of(S3ErrorCode code, String message) {
    return new S3Exception(
        code, message == null ? code.defaultMessage() : message, null, Map.of(), null);
  }

  /** An error caused by {@code cause} (kept for the server log, never sent to the client). */
  public static S3Exception of(S3ErrorCode code, String message, Throwable cause) {
    return new S3Exception(
        code, message == null ? code.defaultMessage() : message, null, Map.of(), cause);
  }

  /** This error about {@code resource} (the request path, e.g. {@code /bucket/key}). */
  public S3Exception withResource(String resource) {
    return new S3Exception(code, getMessage(), resource, details, headers, getCause());
  }

  /**
   * This error answered with one more response header (S3 sends {@code x-amz-delete-marker} and
   * {@code x-amz-version-id} with some errors).
   */
  public S3Exception withHeader(String name, String value) {
    Map<String, String> more = new LinkedHashMap<>(headers);
    more.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(value, "value"));
    return new S3Exception(code, getMessage(), resource, details, more, getCause());
  }

  /** Response headers the error is answered with, in insertion order. */
  public Map<String, String> headers() {
    return headers;
  }

  /** This error with one more element in the error XML, after the standard ones. */
  public S3Exception withDetail(String element, String value) {
    Map<String, String> more = new LinkedHashMap<>(details);
    more.put(Objects.requireNonNull(element, "element"), Objects.requireNonNull(value, "value"));
    return new S3Exception(code, getMessage(), resource, more, headers, getCause());
  }

  /** The error code. */
  public S3ErrorCode code() {
    return code;
  }

  /** The HTTP status of the answer. */
  public int httpStatus() {
    return code.httpStatus();
  }

  /** The resource the error concerns, or {@code null} when not set. */
  public String resource() {
    return resource;
  }

  /** Extra XML elements, in insertion order. */
  public Map<String, String> details() {
    return details;
  }

  @Override
  public String toString() {
    return "S3Exception{" + code.code() + ": " + getMessage() + "}";
  }
}
