package io.racs.proxy.s3.route;

/** The S3 operations the proxy serves, each in the handler family that serves it. */
public enum S3Operation {
  LIST_BUCKETS(Family.BUCKET),
  CREATE_BUCKET(Family.BUCKET),
  DELETE_BUCKET(Family.BUCKET),
  HEAD_BUCKET(Family.BUCKET),
  GET_BUCKET_LOCATION(Family.BUCKET),
  GET_BUCKET_ACL(Family.ACL),
  PUT_BUCKET_ACL(Family.ACL),
  GET_OBJECT_ACL(Family.ACL),
  PUT_OBJECT_ACL(Family.ACL),
  PUT_BUCKET_CORS(Family.CORS),
  GET_BUCKET_CORS(Family.CORS),
  DELETE_BUCKET_CORS(Family.CORS),
  /** An unsigned CORS preflight ({@code OPTIONS}): the one request served without SigV4. */
  PREFLIGHT_CORS(Family.CORS),
  PUT_BUCKET_TAGGING(Family.TAGGING),
  GET_BUCKET_TAGGING(Family.TAGGING),
  DELETE_BUCKET_TAGGING(Family.TAGGING),
  PUT_OBJECT_TAGGING(Family.TAGGING),
  GET_OBJECT_TAGGING(Family.TAGGING),
  DELETE_OBJECT_TAGGING(Family.TAGGING),
  PUT_BUCKET_LIFECYCLE(Family.LIFECYCLE),
  GET_BUCKET_LIFECYCLE(Family.LIFECYCLE),
  DELETE_BUCKET_LIFECYCLE(Family.LIFECYCLE),
  PUT_BUCKET_ENCRYPTION(Family.ENCRYPTION),
  GET_BUCKET_ENCRYPTION(Family.ENCRYPTION),
  DELETE_BUCKET_ENCRYPTION(Family.ENCRYPTION),
  PUT_OBJECT_LOCK_CONFIGURATION(Family.OBJECT_LOCK),
  GET_OBJECT_LOCK_CONFIGURATION(Family.OBJECT_LOCK),
  PUT_OBJECT_RETENTION(Family.OBJECT_LOCK),
  GET_OBJECT_RETENTION(Family.OBJECT_LOCK),
  PUT_OBJECT_LEGAL_HOLD(Family.OBJECT_LOCK),
  GET_OBJECT_LEGAL_HOLD(Family.OBJECT_LOCK),
  PUT_BUCKET_VERSIONING(Family.BUCKET),
  GET_BUCKET_VERSIONING(Family.BUCKET),
  LIST_OBJECTS_V1(Family.LISTING),
  LIST_OBJECTS_V2(Family.LISTING),
  LIST_OBJECT_VERSIONS(Family.LISTING),
  LIST_MULTIPART_UPLOADS(Family.LISTING),
  PUT_OBJECT(Family.OBJECT),
  COPY_OBJECT(Family.OBJECT),
  GET_OBJECT(Family.OBJECT),
  HEAD_OBJECT(Family.OBJECT),
  DELETE_OBJECT(Family.OBJECT),
  DELETE_OBJECTS(Family.OBJECT),
  GET_OBJECT_ATTRIBUTES(Family.OBJECT),
  /** A browser's HTML form upload: signed by its policy, not by SigV4. */
  POST_OBJECT(Family.FORM),
  CREATE_MULTIPART_UPLOAD(Family.MULTIPART),
  UPLOAD_PART(Family.MULTIPART),
  UPLOAD_PART_COPY(Family.MULTIPART),
  COMPLETE_MULTIPART_UPLOAD(Family.MULTIPART),
  ABORT_MULTIPART_UPLOAD(Family.MULTIPART),
  LIST_PARTS(Family.MULTIPART);

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
    FORM
  }

  private final Family family;

  S3Operation(Family family) {
    this.family = family;
  }

  /** The family whose handler serves this operation. */
  public Family family() {
    return family;
  }
}
