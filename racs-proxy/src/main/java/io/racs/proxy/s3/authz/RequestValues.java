package io.racs.proxy.s3.authz;

import io.racs.proxy.s3.auth.AuthType;
import io.racs.proxy.s3.auth.Authentication;
import io.racs.proxy.s3.policy.Principal;
import io.racs.proxy.s3.route.S3Operation;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * The condition keys one request carries ({@code Conditions.KEYS}, by canonical name), each
 * computed when a condition asks for it: most decisions ask for none, so a request pays only for
 * what its policies' conditions name. Every decision of the request sees the same values (the time
 * is taken once), and what one decision judges apart (a DeleteObjects key's version, a form's
 * uploader) is these values with that one change. Immutable; thread-safe.
 */
final class RequestValues implements Function<String, List<String>> {
  private static final Set<S3Operation> LISTINGS =
      Set.of(
          S3Operation.LIST_OBJECTS_V1,
          S3Operation.LIST_OBJECTS_V2,
          S3Operation.LIST_OBJECT_VERSIONS,
          S3Operation.LIST_MULTIPART_UPLOADS);

  private final Authorizer.Request request;
  private final Principal principal;
  private final S3Operation op;
  private final Instant now;
  // A DeleteObjects key's version, judged in place of the query's; null: the query's.
  private final String versionId;
  // A form upload, judged for its uploader (principal; null: anonymous) once its fields are read.
  private final boolean form;

  RequestValues(Authorizer.Request request, Principal principal, S3Operation op, Instant now) {
    this(request, principal, op, now, null, false);
  }

  private RequestValues(
      Authorizer.Request request,
      Principal principal,
      S3Operation op,
      Instant now,
      String versionId,
      boolean form) {
    this.request = request;
    this.principal = principal;
    this.op = op;
    this.now = now;
    this.versionId = versionId;
    this.form = form;
  }

  /** These values for one key of DeleteObjects naming {@code versionId}. */
  RequestValues withVersionId(String versionId) {
    return new RequestValues(request, principal, op, now, versionId, form);
  }

  /**
   * These values for a form upload by {@code uploader} (null: anonymous): {@code s3:authType}
   * {@code POST}, and the principal's type and name are the uploader's.
   */
  RequestValues uploadedBy(Principal uploader) {
    return new RequestValues(request, uploader, op, now, versionId, true);
  }

  @Override
  public List<String> apply(String key) {
    Authentication auth = request.auth();
    return switch (key) {
      case "aws:currenttime" -> List.of(now.toString());
      case "aws:epochtime" -> List.of(Long.toString(now.getEpochSecond()));
      case "aws:securetransport" -> List.of(Boolean.toString(request.secure()));
      case "aws:sourceip" -> one(request.sourceIp());
      case "aws:useragent" -> header("user-agent");
      case "aws:referer" -> header("referer");
      case "s3:x-amz-server-side-encryption" -> header("x-amz-server-side-encryption");
      case "s3:versionid" -> versionId != null ? List.of(versionId) : query("versionId");
      case "s3:prefix" -> LISTINGS.contains(op) ? query("prefix") : null;
      case "s3:delimiter" -> LISTINGS.contains(op) ? query("delimiter") : null;
      case "s3:max-keys" ->
          LISTINGS.contains(op)
              ? query(op == S3Operation.LIST_MULTIPART_UPLOADS ? "max-uploads" : "max-keys")
              : null;
      case "aws:principaltype" ->
          List.of(principal == null ? "Anonymous" : principal.administrator() ? "Account" : "User");
      case "aws:username" ->
          principal == null || principal.administrator() ? null : List.of(principal.user());
      case "s3:authtype" ->
          form
              ? List.of("POST")
              : auth == null
                  ? null
                  : List.of(
                      auth.type() == AuthType.V4_PRESIGNED || auth.type() == AuthType.V2_PRESIGNED
                          ? "REST-QUERY-STRING"
                          : "REST-HEADER");
      case "s3:signatureversion" ->
          auth == null
              ? null
              : List.of(
                  auth.type() == AuthType.V4_HEADER || auth.type() == AuthType.V4_PRESIGNED
                      ? "AWS4-HMAC-SHA256"
                      : "AWS");
      default -> null;
    };
  }

  private List<String> header(String name) {
    return one(request.head().headers().get(name));
  }

  private List<String> query(String name) {
    return one(request.head().query().get(name));
  }

  private static List<String> one(String value) {
    return value == null ? null : List.of(value);
  }
}
