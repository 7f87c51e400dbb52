package io.racs.proxy.s3.route;

/**
 * The S3 operations the proxy serves, each in the handler family that serves it, each naming once
 * the policy action it needs and what that action is judged on (issue #40: one decision point,
 * {@code s3.authz}).
 */
public enum S3Operation {
  LIST_BUCKETS(Family.BUCKET, "s3:ListAllMyBuckets", null, Resource.SERVICE),
  CREATE_BUCKET(Family.BUCKET, "s3:CreateBucket", null, Resource.BUCKET),
  DELETE_BUCKET(Family.BUCKET, "s3:DeleteBucket", null, Resource.BUCKET),
  HEAD_BUCKET(Family.BUCKET, "s3:ListBucket", null, Resource.BUCKET),
  GET_BUCKET_LOCATION(Family.BUCKET, "s3:GetBucketLocation", null, Resource.BUCKET),
  GET_BUCKET_ACL(Family.ACL, "s3:GetBucketAcl", null, Resource.BUCKET),
  PUT_BUCKET_ACL(Family.ACL, "s3:PutBucketAcl", null, Resource.BUCKET),
  GET_OBJECT_ACL(Family.ACL, "s3:GetObjectAcl", "s3:GetObjectVersionAcl", Resource.OBJECT),
  PUT_OBJECT_ACL(Family.ACL, "s3:PutObjectAcl", "s3:PutObjectVersionAcl", Resource.OBJECT),
  PUT_BUCKET_CORS(Family.CORS, "s3:PutBucketCORS", null, Resource.BUCKET),
  GET_BUCKET_CORS(Family.CORS, "s3:GetBucketCORS", null, Resource.BUCKET),
  DELETE_BUCKET_CORS(Family.CORS, "s3:PutBucketCORS", null, Resource.BUCKET),
  /** An unsigned CORS preflight ({@code OPTIONS}): the one request served without SigV4. */
  PREFLIGHT_CORS(Family.CORS, null, null, Resource.NONE),
  PUT_BUCKET_TAGGING(Family.TAGGING, "s3:PutBucketTagging", null, Resource.BUCKET),
  GET_BUCKET_TAGGING(Family.TAGGING, "s3:GetBucketTagging", null, Resource.BUCKET),
  DELETE_BUCKET_TAGGING(Family.TAGGING, "s3:PutBucketTagging", null, Resource.BUCKET),
  PUT_OBJECT_TAGGING(
      Family.TAGGING, "s3:PutObjectTagging", "s3:PutObjectVersionTagging", Resource.OBJECT),
  GET_OBJECT_TAGGING(
      Family.TAGGING, "s3:GetObjectTagging", "s3:GetObjectVersionTagging", Resource.OBJECT),
  DELETE_OBJECT_TAGGING(
      Family.TAGGING, "s3:DeleteObjectTagging", "s3:DeleteObjectVersionTagging", Resource.OBJECT),
  PUT_BUCKET_LIFECYCLE(Family.LIFECYCLE, "s3:PutLifecycleConfiguration", null, Resource.BUCKET),
  GET_BUCKET_LIFECYCLE(Family.LIFECYCLE, "s3:GetLifecycleConfiguration", null, Resource.BUCKET),
  DELETE_BUCKET_LIFECYCLE(Family.LIFECYCLE, "s3:PutLifecycleConfiguration", null, Resource.BUCKET),
  PUT_BUCKET_ENCRYPTION(Family.ENCRYPTION, "s3:PutEncryptionConfiguration", null, Resource.BUCKET),
  GET_BUCKET_ENCRYPTION(Family.ENCRYPTION, "s3:GetEncryptionConfiguration", null, Resource.BUCKET),
  DELETE_BUCKET_ENCRYPTION(
      Family.ENCRYPTION, "s3:PutEncryptionConfiguration", null, Resource.BUCKET),
  PUT_OBJECT_LOCK_CONFIGURATION(
      Family.OBJECT_LOCK, "s3:PutBucketObjectLockConfiguration", null, Resource.BUCKET),
  GET_OBJECT_LOCK_CONFIGURATION(
      Family.OBJECT_LOCK, "s3:GetBucketObjectLockConfiguration", null, Resource.BUCKET),
  PUT_OBJECT_RETENTION(Family.OBJECT_LOCK, "s3:PutObjectRetention", null, Resource.OBJECT),
  GET_OBJECT_RETENTION(Family.OBJECT_LOCK, "s3:GetObjectRetention", null, Resource.OBJECT),
  PUT_OBJECT_LEGAL_HOLD(Family.OBJECT_LOCK, "s3:PutObjectLegalHold", null, Resource.OBJECT),
  GET_OBJECT_LEGAL_HOLD(Family.OBJECT_LOCK, "s3:GetObjectLegalHold", null, Resource.OBJECT),
  PUT_BUCKET_VERSIONING(Family.BUCKET, "s3:PutBucketVersioning", null, Resource.BUCKET),
  GET_BUCKET_VERSIONING(Family.BUCKET, "s3:GetBucketVersioning", null, Resource.BUCKET),
  LIST_OBJECTS_V1(Family.LISTING, "s3:ListBucket", null, Resource.BUCKET),
  LIST_OBJECTS_V2(Family.LISTING, "s3:ListBucket", null, Resource.BUCKET),
  LIST_OBJECT_VERSIONS(Family.LISTING, "s3:ListBucketVersions", null, Resource.BUCKET),
  LIST_MULTIPART_UPLOADS(Family.LISTING, "s3:ListBucketMultipartUploads", null, Resource.BUCKET),
  PUT_OBJECT(Family.OBJECT, "s3:PutObject", null, Resource.OBJECT),
  COPY_OBJECT(Family.OBJECT, "s3:PutObject", null, Resource.OBJECT),
  GET_OBJECT(Family.OBJECT, "s3:GetObject", "s3:GetObjectVersion", Resource.OBJECT),
  HEAD_OBJECT(Family.OBJECT, "s3:GetObject", "s3:GetObjectVersion", Resource.OBJECT),
  DELETE_OBJECT(Family.OBJECT, "s3:DeleteObject", "s3:DeleteObjectVersion", Resource.OBJECT),
  DELETE_OBJECTS(Family.OBJECT, "s3:DeleteObject", "s3:DeleteObjectVersion", Resource.KEYS),
  GET_OBJECT_ATTRIBUTES(
      Family.OBJECT, "s3:GetObjectAttributes", "s3:GetObjectVersionAttributes", Resource.OBJECT),
  /** A browser's HTML form upload: signed by its policy, not by SigV4. */
  POST_OBJECT(Family.FORM, "s3:PutObject", null, Resource.FORM),
  CREATE_MULTIPART_UPLOAD(Family.MULTIPART, "s3:PutObject", null, Resource.OBJECT),
  UPLOAD_PART(Family.MULTIPART, "s3:PutObject", null, Resource.OBJECT),
  UPLOAD_PART_COPY(Family.MULTIPART, "s3:PutObject", null, Resource.OBJECT),
  COMPLETE_MULTIPART_UPLOAD(Family.MULTIPART, "s3:PutObject", null, Resource.OBJECT),
  ABORT_MULTIPART_UPLOAD(Family.MULTIPART, "s3:AbortMultipartUpload", null, Resource.OBJECT),
  LIST_PARTS(Family.MULTIPART, "s3:ListMultipartUploadParts", null, Resource.OBJECT),
  PUT_BUCKET_POLICY(Family.POLICY, "s3:PutBucketPolicy", null, Resource.BUCKET),
  GET_BUCKET_POLICY(Family.POLICY, "s3:GetBucketPolicy", null, Resource.BUCKET),
  DELETE_BUCKET_POLICY(Family.POLICY, "s3:DeleteBucketPolicy", null, Resource.BUCKET),
  GET_BUCKET_POLICY_STATUS(Family.POLICY, "s3:GetBucketPolicyStatus", null, Resource.BUCKET);

  /** The handler families operations are dispatched to. */
  public enum Family {
    BUCKET,
    LISTING,
    OBJECT,
    MULTIPART,
    ACL,
    CORS,
    TAGGING,
    LIFECYCLE,
    ENCRYPTION,
    OBJECT_LOCK,
    FORM,
    POLICY
  }

  /**
   * What an operation's action is judged on (the resource of its policy decision).
   *
   * <ul>
   *   <li>{@code SERVICE}: the account ({@code arn:aws:s3:::*}), as ListBuckets.
   *   <li>{@code BUCKET}: {@code arn:aws:s3:::bucket}.
   *   <li>{@code OBJECT}: {@code arn:aws:s3:::bucket/key}.
   *   <li>{@code KEYS}: each key its body names ({@code arn:aws:s3:::bucket/key}, DeleteObjects).
   *   <li>{@code FORM}: the key its form names, by the form's signer (a browser POST upload).
   *   <li>{@code NONE}: nothing; the request is never signed (the CORS preflight).
   * </ul>
   */
  public enum Resource {
    SERVICE,
    BUCKET,
    OBJECT,
    KEYS,
    FORM,
    NONE
  }

  private final Family family;
  private final String action;
  private final String versionAction;
  private final Resource resource;

  S3Operation(Family family, String action, String versionAction, Resource resource) {
    this.family = family;
    this.action = action;
    this.versionAction = versionAction;
    this.resource = resource;
  }

  /**
   * The {@code s3:} action a policy must allow for this operation, in AWS's spelling ({@code
   * PolicyActions}); null for the CORS preflight, which no policy judges. CopyObject and
   * UploadPartCopy also need {@code s3:GetObject} on their source.
   */
  public String action() {
    return action;
  }

  /**
   * The action when the request names a {@code versionId} ({@code s3:GetObjectVersion} for a GET),
   * or {@link #action()} when the operation has no such variant.
   */
  public String versionAction() {
    return versionAction == null ? action : versionAction;
  }

  /** What the action is judged on. */
  public Resource resource() {
    return resource;
  }

  /** The family whose handler serves this operation. */
  public Family family() {
    return family;
  }
}
