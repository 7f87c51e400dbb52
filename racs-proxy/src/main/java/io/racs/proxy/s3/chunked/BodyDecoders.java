package io.racs.proxy.s3.chunked;

import io.racs.proxy.s3.auth.Authentication;
import io.racs.proxy.s3.auth.ContentSha256;
import io.racs.proxy.s3.auth.SigningContext;
import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.s3.http.Headers;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;

/** Chooses the body decoder an authenticated request's headers call for. */
public final class BodyDecoders {
  private BodyDecoders() {}

  /**
   * The decoder for a request body.
   *
   * <p>aws-chunked modes need {@code x-amz-decoded-content-length} ({@code MissingContentLength}
   * otherwise) and take the trailer names from {@code x-amz-trailer}. A hex {@code
   * x-amz-content-sha256} is verified; {@code UNSIGNED-PAYLOAD} passes through. {@code
   * Content-Length}, when present, bounds plain bodies.
   *
   * @throws S3Exception for missing or malformed length headers
   */
  public static BodyDecoder forRequest(
      Headers headers, Authentication auth, PayloadSink sink, ChunkedLimits limits) {
    ContentSha256 payload = auth.contentSha256();
    ContentSha256.Mode mode = payload.mode();
    if (mode.chunked()) {
      String decoded = headers.get("x-amz-decoded-content-length");
      if (decoded == null) {
        throw S3Exception.of(
            S3ErrorCode.MISSING_CONTENT_LENGTH,
            "You must provide the x-amz-decoded-content-length header for aws-chunked bodies.");
      }
      long decodedLength = parseLength("x-amz-decoded-content-length", decoded);
      SigningContext signing = null;
      if (mode.signedChunks()) {
        signing =
            auth.signingContext()
                .orElseThrow(
                    () ->
                        S3Exception.of(
                            S3ErrorCode.INVALID_REQUEST,
                            "Signed aws-chunked bodies require SigV4 header authentication."));
      }
      return AwsChunkedDecoder.create(
          mode, signing, decodedLength, declaredTrailers(headers), sink, limits);
    }
    String contentLength = headers.get("content-length");
    long length = contentLength == null ? -1 : parseLength("Content-Length", contentLength);
    if (mode == ContentSha256.Mode.SHA256) {
      return PlainBodyDecoder.sha256(payload.value(), length, sink);
    }
    return PlainBodyDecoder.unsigned(length, sink);
  }

  /** The lower-case names listed in {@code x-amz-trailer} (comma-separated, repeatable). */
  public static Set<String> declaredTrailers(Headers headers) {
    Set<String> names = new LinkedHashSet<>();
    for (String value : headers.all("x-amz-trailer")) {
      for (String name : value.split(",")) {
        String n = name.strip().toLowerCase(Locale.ROOT);
        if (!n.isEmpty()) {
          names.add(n);
        }
      }
    }
    return names;
  }

  /**
   * The value of a length header ({@code Content-Length}, {@code x-amz-decoded-content-length}): a
   * whole number of at least 0, blanks around it allowed.
   *
   * @throws S3Exception {@code InvalidArgument} naming the header otherwise
   */
  public static long parseLength(String header, String value) {
    try {
      long n = Long.parseLong(value.strip());
      if (n >= 0) {
        return n;
      }
    } catch (NumberFormatException e) {
      // Reported below.
    }
    throw invalidLength(header, value);
  }

  /** The error for a length header whose {@code value} is not a length. */
  public static S3Exception invalidLength(String header, String value) {
    return S3Exception.of(S3ErrorCode.INVALID_ARGUMENT, header + " is not a valid length.")
        .withDetail("ArgumentName", header)
        .withDetail("ArgumentValue", value);
  }
}
