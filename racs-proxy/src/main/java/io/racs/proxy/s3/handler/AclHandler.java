package io.racs.proxy.s3.handler;

import io.racs.proxy.s3.bridge.StoreBridge;
import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.s3.xml.AccessControlPolicyRequest;
import io.racs.proxy.s3.xml.S3XmlResponses;
import io.racs.proxy.s3.xml.XmlModel;
import java.io.IOException;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The ACL family: GetBucketAcl, PutBucketAcl, GetObjectAcl, PutObjectAcl, answered truthfully for
 * the array's single-tenant model. Everything in the array belongs to one owner (the one
 * ListBuckets reports), every access key acts as that owner, and nobody else has any access: so the
 * ACL of every bucket and object is "the owner has FULL_CONTROL", which is what the GETs answer. A
 * PUT that sets exactly that ACL ({@code x-amz-acl: private}, or a body granting only the owner
 * FULL_CONTROL) changes nothing and is answered 200, as it would be on S3; any other ACL would
 * grant access the proxy does not enforce, and is refused with NotImplemented before anything else
 * happens. Grant headers ({@code x-amz-grant-*}) are refused by the router already.
 */
final class AclHandler {
  /**
   * The canned ACLs that leave an object exactly as {@code private} does: the bucket owner they
   * name is the array's one owner. For a bucket only {@code private} is such an ACL.
   */
  private static final Set<String> OWNER_ONLY_OBJECT_ACLS =
      Set.of("private", "bucket-owner-read", "bucket-owner-full-control");

  private final StoreBridge store;

  AclHandler(StoreBridge store) {
    this.store = store;
  }

  S3Response handle(S3Request request) throws IOException {
    return switch (request.route().operation()) {
      case GET_BUCKET_ACL -> {
        requireBucket(request);
        yield S3Response.xml(S3XmlResponses.ownerOnlyAcl(Responses.OWNER));
      }
      case PUT_BUCKET_ACL -> {
        checkPut(request, Set.of("private"));
        requireBucket(request);
        yield S3Response.status(200);
      }
      case GET_OBJECT_ACL -> {
        requireObject(request);
        yield S3Response.xml(S3XmlResponses.ownerOnlyAcl(Responses.OWNER));
      }
      case PUT_OBJECT_ACL -> {
        checkPut(request, OWNER_ONLY_OBJECT_ACLS);
        requireObject(request);
        yield S3Response.status(200);
      }
      default -> throw S3Exception.of(S3ErrorCode.NOT_IMPLEMENTED);
    };
  }

  private void requireBucket(S3Request request) {
    if (!store.bucketExists(request.bucket())) {
      throw S3Exception.of(S3ErrorCode.NO_SUCH_BUCKET).withResource("/" + request.bucket());
    }
  }

  /** The object (its {@code null} version, the only one there is) must exist. */
  private void requireObject(S3Request request) {
    Optional<String> version = request.query().first("versionId");
    if (version.isPresent() && !version.get().equals(Responses.NULL_VERSION)) {
      requireBucket(request);
      Responses.requireNullVersion(request.key(), version.get());
    }
    store.head(request.bucket(), request.key());
  }

  /**
   * Checks that a PutBucketAcl or PutObjectAcl sets the owner-only ACL, by a canned ACL in {@code
   * allowed} or by a body that grants FULL_CONTROL to the owner and nothing to anyone else.
   */
  private static void checkPut(S3Request request, Set<String> allowed) throws IOException {
    Optional<String> canned =
        request.headers().first("x-amz-acl").map(v -> v.strip().toLowerCase(Locale.ROOT));
    byte[] body = ObjectHandler.readXml(request);
    boolean hasBody = !new String(body, java.nio.charset.StandardCharsets.UTF_8).isBlank();
    if (canned.isPresent()) {
      if (hasBody) {
        throw S3Exception.of(
            S3ErrorCode.INVALID_REQUEST,
            "An ACL is given either as a canned ACL header or as a body, not both.");
      }
      if (!allowed.contains(canned.get())) {
        throw S3Exception.of(
            S3ErrorCode.NOT_IMPLEMENTED,
            "The canned ACL " + canned.get() + " is not implemented: only the owner has access.");
      }
      return;
    }
    if (!hasBody) {
      throw S3Exception.of(S3ErrorCode.MISSING_REQUEST_BODY_ERROR);
    }
    XmlModel.AccessControlPolicy policy = AccessControlPolicyRequest.parse(body);
    String owner = Responses.OWNER.id();
    if (policy.ownerId() != null && !policy.ownerId().equals(owner)) {
      throw S3Exception.of(
          S3ErrorCode.NOT_IMPLEMENTED,
          "Changing the owner of a bucket or object is not implemented.");
    }
    boolean ownerOnly =
        !policy.grants().isEmpty()
            && policy.grants().stream()
                .allMatch(
                    g ->
                        owner.equals(g.id())
                            && g.uri() == null
                            && g.email() == null
                            && (g.granteeType() == null || g.granteeType().equals("CanonicalUser"))
                            && g.permission().equals("FULL_CONTROL"));
    if (!ownerOnly) {
      throw S3Exception.of(
          S3ErrorCode.NOT_IMPLEMENTED,
          "Only an ACL granting FULL_CONTROL to the owner alone is implemented.");
    }
  }
}
