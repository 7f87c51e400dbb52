package io.racs.proxy.s3.handler;

import io.racs.proxy.s3.auth.Authentication;
import io.racs.proxy.s3.authz.Access;
import io.racs.proxy.s3.checksum.ComputedChecksums;
import io.racs.proxy.s3.http.Headers;
import io.racs.proxy.s3.http.QueryParams;
import io.racs.proxy.s3.http.RequestHead;
import io.racs.proxy.s3.route.S3Route;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * One authenticated S3 request as a handler sees it: where it goes, who sent it, and its body as a
 * stream of payload bytes (aws-chunked framing, signatures and checksums already handled).
 */
public final class S3Request {
  private final boolean secure;
  private final String id;
  private final RequestHead head;
  private final S3Route route;
  private final Authentication auth;
  private final Payload body;
  private final long contentLength;
  private final String sourceIp;
  private final Access access;
  private final Consumer<String> users;

  /** The body as the connection provides it. */
  public interface Payload {
    /** The payload bytes; a refused body fails as {@link S3Request#body()} says. */
    InputStream stream();

    /** Checksums computed over the payload; null until it was read to its end. */
    ComputedChecksums checksums();

    /** Trailer headers; empty until the payload was read to its end. */
    Map<String, String> trailers();
  }

  /** A request; {@code contentLength} is -1 when the payload length is not known in advance. */
  public S3Request(
      String id,
      RequestHead head,
      S3Route route,
      Authentication auth,
      Payload body,
      long contentLength) {
    this(id, head, route, auth, body, contentLength, false);
  }

  /** A request, {@code secure} when it came over TLS. */
  public S3Request(
      String id,
      RequestHead head,
      S3Route route,
      Authentication auth,
      Payload body,
      long contentLength,
      boolean secure) {
    this(id, head, route, auth, body, contentLength, secure, null, null, user -> {});
  }

  /**
   * A request from {@code sourceIp} (the client's address, or null), with the {@code access} the
   * decision point found (null until it ran).
   */
  public S3Request(
      String id,
      RequestHead head,
      S3Route route,
      Authentication auth,
      Payload body,
      long contentLength,
      boolean secure,
      String sourceIp,
      Access access) {
    this(id, head, route, auth, body, contentLength, secure, sourceIp, access, user -> {});
  }

  private S3Request(
      String id,
      RequestHead head,
      S3Route route,
      Authentication auth,
      Payload body,
      long contentLength,
      boolean secure,
      String sourceIp,
      Access access,
      Consumer<String> users) {
    this.users = users;
    this.sourceIp = sourceIp;
    this.access = access;
    this.secure = secure;
    this.id = id;
    this.head = head;
    this.route = route;
    this.auth = auth;
    this.body = body;
    this.contentLength = contentLength;
  }

  /** True when the request came over TLS. */
  public boolean secure() {
    return secure;
  }

  /** The client's address (no port), or null when unknown. */
  public String sourceIp() {
    return sourceIp;
  }

  /**
   * Who the request is from and what they may do ({@link Access}); null before the decision point
   * ran. Every request a handler serves was checked.
   */
  public Access access() {
    return access;
  }

  /** This request with {@code access}. */
  public S3Request withAccess(Access access) {
    return withAccess(access, users);
  }

  /**
   * This request with {@code access}, telling {@code users} who the request is from once a handler
   * learns it ({@link #identified}).
   */
  public S3Request withAccess(Access access, Consumer<String> users) {
    return new S3Request(
        id, head, route, auth, body, contentLength, secure, sourceIp, access, users);
  }

  /**
   * Names who the request turned out to be from, for the access log: a form upload's signer, known
   * only once its fields are read. Named before it is judged, so that a denial is logged under it.
   */
  public void identified(Access who) {
    users.accept(who.user());
  }

  /** The request id (also in {@code x-amz-request-id}). */
  public String id() {
    return id;
  }

  public RequestHead head() {
    return head;
  }

  public Headers headers() {
    return head.headers();
  }

  public QueryParams query() {
    return head.query();
  }

  public S3Route route() {
    return route;
  }

  public String bucket() {
    return route.bucket();
  }

  public String key() {
    return route.key();
  }

  /** Who signed the request; null when it is unsigned (anonymous, a form, a preflight). */
  public Authentication auth() {
    return auth;
  }

  /**
   * The payload: exactly what the client sent as the object, with framing removed. A read fails
   * with an {@link IOException}; when the S3 layer refused the body (its signature, checksum or
   * size is wrong, its framing broke, or the client went away), the exception's cause is the {@code
   * S3Exception} to answer with, which is how the store bridge tells a refused body from a failed
   * store.
   */
  public InputStream body() {
    return body.stream();
  }

  /**
   * The payload length when known in advance: {@code x-amz-decoded-content-length} for aws-chunked
   * bodies, else {@code Content-Length}; -1 when neither is given.
   */
  public long contentLength() {
    return contentLength;
  }

  /** Reads a small body (XML) completely, refusing more than {@code maxBytes}. */
  public byte[] readSmallBody(int maxBytes) throws IOException {
    byte[] bytes = body.stream().readNBytes(maxBytes + 1);
    if (bytes.length > maxBytes) {
      throw new IOException("body larger than " + maxBytes + " bytes");
    }
    return bytes;
  }

  /** The body's checksums, once it was read to the end. */
  public Optional<ComputedChecksums> checksums() {
    return Optional.ofNullable(body.checksums());
  }

  /** Trailer headers, once the body was read to the end. */
  public Map<String, String> trailers() {
    return body.trailers();
  }
}
