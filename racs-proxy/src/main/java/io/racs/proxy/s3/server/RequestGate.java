package io.racs.proxy.s3.server;

import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpRequest;
import io.racs.proxy.s3.auth.Authentication;
import io.racs.proxy.s3.auth.S3Authenticator;
import io.racs.proxy.s3.checksum.ChecksumSpec;
import io.racs.proxy.s3.checksum.ChecksumVerifier;
import io.racs.proxy.s3.chunked.BodyDecoders;
import io.racs.proxy.s3.chunked.ChunkedLimits;
import io.racs.proxy.s3.chunked.PlainBodyDecoder;
import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.s3.http.Headers;
import io.racs.proxy.s3.http.RequestHead;
import io.racs.proxy.s3.route.S3Operation;
import io.racs.proxy.s3.route.S3Route;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The checks a request head passes on the event loop before its handler starts and before any
 * {@code 100 Continue}: its route, its signature, whether the proxy serves at all yet ({@link
 * ServiceGate}), the checksum its body must match and the size limits. Everything that can refuse a
 * request for what its head says is here, so a client told to send its body is never refused for
 * what its head already said. Stateless apart from the settings; called on the event loop only.
 */
final class RequestGate {
  private static final Set<S3Operation> VERIFIED_BODIES =
      EnumSet.of(
          S3Operation.PUT_OBJECT,
          S3Operation.UPLOAD_PART,
          S3Operation.DELETE_OBJECTS,
          S3Operation.PUT_BUCKET_CORS,
          S3Operation.COMPLETE_MULTIPART_UPLOAD,
          S3Operation.CREATE_BUCKET,
          S3Operation.PUT_BUCKET_VERSIONING,
          S3Operation.PUT_BUCKET_POLICY);

  /** The most a single PUT may store, and the most one part may hold: 5 GiB, as in S3. */
  static final long MAX_UPLOAD_BYTES = 5L << 30;

  private static final Set<S3Operation> SIZE_LIMITED =
      EnumSet.of(S3Operation.PUT_OBJECT, S3Operation.UPLOAD_PART);

  /**
   * A head that passed the gate: what its handler is started with.
   *
   * @param auth who signed the request; {@code null} for a form upload (signed inside its body), a
   *     CORS preflight (never signed) and an unsigned request (anonymous: judged by the bucket's
   *     policy)
   * @param length the payload length the head declares, or -1
   */
  record Admitted(
      RequestHead head, S3Route route, Authentication auth, RequestBody body, long length) {}

  private final S3Server.Settings settings;

  RequestGate(S3Server.Settings settings) {
    this.settings = settings;
  }

  /**
   * The route of {@code head}.
   *
   * @throws S3Exception when it has none; for a feature RACS does not implement, only once the
   *     request is found signed (else the signature's error)
   */
  S3Route route(RequestHead head) {
    try {
      return settings.router().route(head);
    } catch (S3Exception e) {
      if (e.code() == S3ErrorCode.NOT_IMPLEMENTED) {
        // Who is asking comes first: an unsigned request for an unsupported feature is a 403.
        settings.authenticator().authenticate(head, null);
      }
      throw e;
    }
  }

  /**
   * Authenticates a routed head and opens the body its handler reads.
   *
   * @param bodyExpected whether body bytes may follow the head
   * @param readMore asks the socket for more body bytes, from any thread
   * @throws S3Exception the refusal to answer at once, before any body is read
   */
  Admitted admit(RequestHead head, S3Route route, boolean bodyExpected, Runnable readMore) {
    Authentication auth;
    ChecksumVerifier verifier = null;
    if (route.operation() == S3Operation.POST_OBJECT) {
      // A form upload is signed inside its body (the policy); the handler checks it before
      // storing anything.
      auth = null;
    } else if (route.operation() == S3Operation.PREFLIGHT_CORS) {
      // Browsers never sign a preflight; its answer is the CORS decision and nothing else.
      if (bodyExpected) {
        throw S3Exception.of(S3ErrorCode.INVALID_REQUEST, "A CORS preflight has no body.");
      }
      auth = null;
    } else if (S3Authenticator.unsigned(head) && !streaming(head.headers())) {
      // Anonymous: the decision point serves it only where a bucket policy allows everyone. (An
      // aws-chunked body needs a signature to be decoded; unsigned, it is refused as before.)
      auth = null;
    } else {
      auth =
          settings.authenticator().authenticate(head, route.virtualHost() ? route.bucket() : null);
    }
    // Before the body and any 100 Continue: a proxy whose array is not open yet serves nothing.
    settings.service().requireOpen();
    if (VERIFIED_BODIES.contains(route.operation())) {
      // A completion's x-amz-checksum-* headers are the object's, not its XML body's.
      verifier =
          ChecksumVerifier.create(
              route.operation() == S3Operation.COMPLETE_MULTIPART_UPLOAD
                  ? ChecksumSpec.forCompletion(head.headers())
                  : ChecksumSpec.fromHeaders(head.headers()));
    }
    long length = contentLength(head.headers());
    long maxBytes = Long.MAX_VALUE;
    if (SIZE_LIMITED.contains(route.operation())) {
      maxBytes = MAX_UPLOAD_BYTES;
      if (length > MAX_UPLOAD_BYTES) {
        throw entityTooLarge(length);
      }
    }
    Authentication authenticated = auth;
    RequestBody body =
        new RequestBody(
            sink ->
                authenticated == null
                    // A preflight (refused with a body), a form upload (signed inside), or an
                    // anonymous request.
                    ? PlainBodyDecoder.unsigned(length(head.headers()), sink)
                    : BodyDecoders.forRequest(
                        head.headers(), authenticated, sink, ChunkedLimits.DEFAULT),
            verifier,
            readMore,
            maxBytes);
    return new Admitted(head, route, auth, body, length);
  }

  private static boolean streaming(Headers headers) {
    String sha = headers.get("x-amz-content-sha256");
    String encoding = headers.get("content-encoding");
    return (sha != null && sha.startsWith("STREAMING-"))
        || (encoding != null
            && encoding.toLowerCase(java.util.Locale.ROOT).contains("aws-chunked"));
  }

  /** The {@code Content-Length} of a request without SigV4, or -1. */
  private static long length(Headers headers) {
    String length = headers.get("content-length");
    return length == null ? -1 : BodyDecoders.parseLength("Content-Length", length);
  }

  /**
   * The payload length the head declares: {@code x-amz-decoded-content-length} when present (the
   * payload of an aws-chunked body), else {@code Content-Length} unless the body is aws-chunked; -1
   * when neither says.
   */
  private static long contentLength(Headers headers) {
    String decoded = headers.get("x-amz-decoded-content-length");
    if (decoded != null) {
      return BodyDecoders.parseLength("x-amz-decoded-content-length", decoded);
    }
    String sha = headers.get("x-amz-content-sha256");
    if (sha != null && sha.startsWith("STREAMING-")) {
      return -1;
    }
    String length = headers.get("content-length");
    return length == null ? -1 : BodyDecoders.parseLength("Content-Length", length);
  }

  static S3Exception entityTooLarge(long proposedBytes) {
    return S3Exception.of(S3ErrorCode.ENTITY_TOO_LARGE)
        .withDetail("ProposedSize", Long.toString(proposedBytes))
        .withDetail("MaxSizeAllowed", Long.toString(MAX_UPLOAD_BYTES));
  }

  /**
   * The error for a head the HTTP decoder refused. An unusable {@code Content-Length} (not a
   * number, negative, beyond 2^63, or several different values) is named, since it is the client's
   * most likely mistake; anything else is a malformed request.
   */
  static S3Exception malformedHead(HttpRequest request) {
    Throwable cause = request.decoderResult().cause();
    if (cause instanceof TooLongFrameException) {
      return S3Exception.of(S3ErrorCode.INVALID_REQUEST, "Request header or line too long");
    }
    List<String> lengths = request.headers().getAll(HttpHeaderNames.CONTENT_LENGTH);
    if (!lengths.isEmpty()) {
      String joined = String.join(", ", lengths);
      try {
        long first = -1;
        for (String value : lengths) {
          for (String part : value.split(",", -1)) {
            long n = BodyDecoders.parseLength("Content-Length", part);
            if (first >= 0 && n != first) {
              throw BodyDecoders.invalidLength("Content-Length", joined);
            }
            first = n;
          }
        }
      } catch (S3Exception e) {
        return BodyDecoders.invalidLength("Content-Length", joined);
      }
    }
    return S3Exception.of(S3ErrorCode.INVALID_REQUEST, "Malformed HTTP request");
  }
}
