package io.racs.proxy.s3.error;

/**
 * The S3 error codes the proxy answers with, each with the HTTP status and the default message
 * Amazon S3 uses for it. The enum constant's name is the {@code <Code>} of the error XML.
 */
public enum S3ErrorCode {
  ACCESS_DENIED("AccessDenied", 403, "Access Denied"),
  AUTHORIZATION_HEADER_MALFORMED(
      "AuthorizationHeaderMalformed", 400, "The authorization header you provided is invalid."),
  AUTHORIZATION_QUERY_PARAMETERS_ERROR(
      "AuthorizationQueryParametersError",
      400,
      "The authorization query parameters you provided are invalid."),
  BAD_REQUEST("BadRequest", 400, "Bad Request"),
  BAD_DIGEST(
      "BadDigest",
      400,
      "The Content-MD5 or checksum value that you specified did not match what the server"
          + " received."),
  BUCKET_ALREADY_EXISTS(
      "BucketAlreadyExists",
      409,
      "The requested bucket name is not available. The bucket namespace is shared by all users of"
          + " the system. Please select a different name and try again."),
  BUCKET_ALREADY_OWNED_BY_YOU(
      "BucketAlreadyOwnedByYou",
      409,
      "Your previous request to create the named bucket succeeded and you already own it."),
  BUCKET_NOT_EMPTY("BucketNotEmpty", 409, "The bucket you tried to delete is not empty."),
  CORS_RESPONSE(
      "CORSResponse",
      403,
      "This CORS request is not allowed. This is usually because the evalution of Origin, request"
          + " method / Access-Control-Request-Method or Access-Control-Request-Headers are not"
          + " whitelisted by the resource's CORS spec."),
  ENTITY_TOO_SMALL(
      "EntityTooSmall",
      400,
      "Your proposed upload is smaller than the minimum allowed object size."),
  ENTITY_TOO_LARGE(
      "EntityTooLarge", 400, "Your proposed upload exceeds the maximum allowed object size."),
  INCOMPLETE_BODY(
      "IncompleteBody",
      400,
      "You did not provide the number of bytes specified by the Content-Length HTTP header."),
  INTERNAL_ERROR("InternalError", 500, "We encountered an internal error. Please try again."),
  INVALID_ACCESS_KEY_ID(
      "InvalidAccessKeyId",
      403,
      "The AWS Access Key Id you provided does not exist in our records."),
  INVALID_ARGUMENT("InvalidArgument", 400, "Invalid Argument"),
  INVALID_BUCKET_NAME("InvalidBucketName", 400, "The specified bucket is not valid."),
  INVALID_BUCKET_STATE(
      "InvalidBucketState", 409, "The request is not valid with the current state of the bucket."),
  INVALID_RETENTION_PERIOD(
      "InvalidRetentionPeriod", 400, "The retention period must be a positive integer."),
  INVALID_DIGEST("InvalidDigest", 400, "The Content-MD5 you specified is not valid."),
  SERVER_SIDE_ENCRYPTION_CONFIGURATION_NOT_FOUND(
      "ServerSideEncryptionConfigurationNotFoundError",
      404,
      "The server side encryption configuration was not found"),
  INVALID_ENCRYPTION_ALGORITHM(
      "InvalidEncryptionAlgorithmError", 400, "The encryption request you specified is not valid."),
  INVALID_LOCATION_CONSTRAINT(
      "InvalidLocationConstraint", 400, "The specified location constraint is not valid."),
  INVALID_OBJECT_STATE(
      "InvalidObjectState", 403, "The operation is not valid for the current state of the object."),
  INVALID_PART(
      "InvalidPart",
      400,
      "One or more of the specified parts could not be found. The part may not have been uploaded,"
          + " or the specified entity tag may not match the part's entity tag."),
  INVALID_PART_ORDER(
      "InvalidPartOrder",
      400,
      "The list of parts was not in ascending order. Parts must be ordered by part number."),
  INVALID_POLICY_DOCUMENT(
      "InvalidPolicyDocument",
      400,
      "The content of the form does not meet the conditions specified in the policy document."),
  INVALID_RANGE("InvalidRange", 416, "The requested range is not satisfiable"),
  INVALID_REQUEST("InvalidRequest", 400, "Invalid Request"),
  INVALID_TAG("InvalidTag", 400, "The tag provided was not a valid tag."),
  INVALID_URI("InvalidURI", 400, "Couldn't parse the specified URI."),
  KEY_TOO_LONG_ERROR("KeyTooLongError", 400, "Your key is too long."),
  MALFORMED_POLICY("MalformedPolicy", 400, "Policies must be valid JSON."),
  MALFORMED_POST_REQUEST(
      "MalformedPOSTRequest",
      400,
      "The body of your POST request is not well-formed multipart/form-data."),
  MALFORMED_XML(
      "MalformedXML",
      400,
      "The XML you provided was not well-formed or did not validate against our published schema."),
  MAX_MESSAGE_LENGTH_EXCEEDED("MaxMessageLengthExceeded", 400, "Your request was too big."),
  METHOD_NOT_ALLOWED(
      "MethodNotAllowed", 405, "The specified method is not allowed against this resource."),
  MISSING_CONTENT_LENGTH(
      "MissingContentLength", 411, "You must provide the Content-Length HTTP header."),
  MISSING_REQUEST_BODY_ERROR("MissingRequestBodyError", 400, "Request Body is empty."),
  MISSING_SECURITY_HEADER(
      "MissingSecurityHeader", 400, "Your request was missing a required header."),
  NO_SUCH_BUCKET("NoSuchBucket", 404, "The specified bucket does not exist."),
  NO_SUCH_BUCKET_POLICY("NoSuchBucketPolicy", 404, "The bucket policy does not exist"),
  NO_SUCH_CORS_CONFIGURATION(
      "NoSuchCORSConfiguration", 404, "The CORS configuration does not exist"),
  NO_SUCH_LIFECYCLE_CONFIGURATION(
      "NoSuchLifecycleConfiguration", 404, "The lifecycle configuration does not exist"),
  NO_SUCH_KEY("NoSuchKey", 404, "The specified key does not exist."),
  NO_SUCH_OBJECT_LOCK_CONFIGURATION(
      "NoSuchObjectLockConfiguration",
      404,
      "The specified object does not have a ObjectLock configuration"),
  OBJECT_LOCK_CONFIGURATION_NOT_FOUND(
      "ObjectLockConfigurationNotFoundError",
      404,
      "Object Lock configuration does not exist for this bucket"),
  NO_SUCH_VERSION("NoSuchVersion", 404, "The specified version does not exist."),
  NO_SUCH_TAG_SET("NoSuchTagSet", 404, "The TagSet does not exist"),
  NO_SUCH_UPLOAD(
      "NoSuchUpload",
      404,
      "The specified multipart upload does not exist. The upload ID might not be valid, or the"
          + " multipart upload might have been aborted or completed."),
  NOT_IMPLEMENTED(
      "NotImplemented",
      501,
      "A header you provided implies functionality that is not implemented."),
  /** Not an error for the client: a 304 answer to a conditional GET or HEAD, sent without body. */
  NOT_MODIFIED("NotModified", 304, "Not Modified"),
  PRECONDITION_FAILED(
      "PreconditionFailed", 412, "At least one of the pre-conditions you specified did not hold"),
  REQUEST_TIME_TOO_SKEWED(
      "RequestTimeTooSkewed",
      403,
      "The difference between the request time and the server's time is too large."),
  REQUEST_TIMEOUT(
      "RequestTimeout",
      400,
      "Your socket connection to the server was not read from or written to within the timeout"
          + " period."),
  SERVICE_UNAVAILABLE("ServiceUnavailable", 503, "Please reduce your request rate."),
  SIGNATURE_DOES_NOT_MATCH(
      "SignatureDoesNotMatch",
      403,
      "The request signature we calculated does not match the signature you provided. Check your"
          + " key and signing method."),
  SLOW_DOWN("SlowDown", 503, "Please reduce your request rate."),
  X_AMZ_CONTENT_SHA256_MISMATCH(
      "XAmzContentSHA256Mismatch",
      400,
      "The provided 'x-amz-content-sha256' header does not match what was computed."),
  /**
   * A write the array cannot store because too many of its repositories are out of space. Amazon S3
   * has no such error; this is MinIO's (507 Insufficient Storage), for three reasons: the AWS SDKs,
   * boto3, the AWS CLI and rclone retry 500, 502, 503 and 504 but not 507, so they report a full
   * array at once instead of sending the body again for seconds against disks that will not empty
   * themselves (a 503 would also have them slow down, which is not the cure); MinIO's own clients
   * (mc, minio-go) know the code by name; and any other client shows the status and this message,
   * which say what is wrong.
   */
  X_MINIO_STORAGE_FULL(
      "XMinioStorageFull",
      507,
      "The array is out of space: too many of its repositories are full to store this. Free"
          + " space or add capacity, then retry.");

  private final String code;
  private final int httpStatus;
  private final String defaultMessage;

  S3ErrorCode(String code, int httpStatus, String defaultMessage) {
    this.code = code;
    this.httpStatus = httpStatus;
    this.defaultMessage = defaultMessage;
  }

  /** The {@code <Code>} element, e.g. {@code NoSuchKey}. */
  public String code() {
    return code;
  }

  /** The HTTP status of the answer, e.g. 404. */
  public int httpStatus() {
    return httpStatus;
  }

  /** The {@code <Message>} S3 sends when nothing more specific is known. */
  public String defaultMessage() {
    return defaultMessage;
  }

  /** Whether the answer carries an error XML body: every code but {@code NotModified}. */
  public boolean hasBody() {
    return httpStatus != 304;
  }
}
