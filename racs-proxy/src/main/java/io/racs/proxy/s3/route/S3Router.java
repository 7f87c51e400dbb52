package io.racs.proxy.s3.route;

import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.s3.form.MultipartForm;
import io.racs.proxy.s3.http.Headers;
import io.racs.proxy.s3.http.PercentCodec;
import io.racs.proxy.s3.http.QueryParams;
import io.racs.proxy.s3.http.RequestHead;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Classifies a request into an {@link S3Route}: path style always, virtual-host style when a base
 * domain is configured and the {@code Host} is {@code <bucket>.<baseDomain>}. The key is the rest
 * of the raw path, percent-decoded exactly once ({@code +} stays a plus, {@code //} and {@code ..}
 * stay as they are).
 *
 * <p>Thread-safe and pure. Errors: {@code InvalidURI} (malformed escapes, non-UTF-8), {@code
 * InvalidBucketName}, {@code KeyTooLongError}, {@code InvalidArgument} (half of {@code
 * partNumber}/{@code uploadId}, a {@code partNumber} outside 1 to 10,000, a bad {@code list-type}),
 * {@code MethodNotAllowed} (a method the resource does not have), {@code NotImplemented}
 * (sub-resources such as {@code ?website}, an {@code ?acl}, {@code ?tagging} or {@code ?attributes}
 * request with a method that has no such operation, headers whose meaning the proxy would ignore,
 * such as {@code x-amz-tagging} on an operation that does not store tags, and methods S3 does not
 * know). An {@code OPTIONS} request on a bucket or object is a CORS preflight, classified before
 * any other check since it is never signed.
 */
public final class S3Router {
  /** Sub-resources of S3 that the proxy does not implement. */
  private static final Set<String> UNSUPPORTED_SUB_RESOURCES =
      Set.of(
          "accelerate",
          "analytics",
          "intelligent-tiering",
          "inventory",
          "logging",
          "metadataTable",
          "metrics",
          "notification",
          "ownershipControls",
          "publicAccessBlock",
          "renameObject",
          "replication",
          "requestPayment",
          "restore",
          "select",
          "session",
          "torrent",
          "website");

  /** The highest part number of a multipart upload, as in S3. */
  public static final int MAX_PART_NUMBER = 10_000;

  /**
   * Request headers whose meaning the proxy does not implement, by lower-case name. A request that
   * carries one is refused before anything is read or stored: storing the object and dropping the
   * header would answer as if it had been honoured.
   */
  private static final Set<String> UNSUPPORTED_HEADERS =
      Set.of(
          // SSE-KMS (an encryption context, S3 Bucket Keys): there is no KMS. A KMS key id is
          // SseRequest's to refuse: S3 answers 400 when it comes without aws:kms or on a read.
          "x-amz-server-side-encryption-context",
          "x-amz-server-side-encryption-bucket-key-enabled",
          // MFA delete (a versioning setting and its deletes) is not implemented.
          "x-amz-mfa",
          // Conditions S3 evaluates for directory buckets only.
          "x-amz-if-match-last-modified-time",
          "x-amz-if-match-size");

  /** Prefixes of unsupported request headers: ACL grants. */
  private static final List<String> UNSUPPORTED_HEADER_PREFIXES = List.of("x-amz-grant-");

  /**
   * The writes that store the object lock of {@code x-amz-object-lock-*}; on any other operation
   * those headers are refused, since they would be ignored.
   */
  private static final Set<S3Operation> LOCKED_WRITES =
      Set.of(S3Operation.PUT_OBJECT, S3Operation.COPY_OBJECT, S3Operation.CREATE_MULTIPART_UPLOAD);

  /**
   * Prefixes of the server-side encryption headers (SSE-S3, SSE-C, and SSE-C of a copy source).
   * Only the operations in {@link #SSE_OPERATIONS} honour them (the handlers parse them with {@code
   * SseRequest}); on any other they are refused here. Encryption above all must never be accepted
   * and ignored: an object asked to be encrypted would be stored in plain text.
   */
  private static final List<String> SSE_HEADER_PREFIXES =
      List.of("x-amz-server-side-encryption", "x-amz-copy-source-server-side-encryption-");

  /** The operations that honour server-side encryption headers. */
  private static final Set<S3Operation> SSE_OPERATIONS =
      Set.of(
          S3Operation.PUT_OBJECT,
          S3Operation.COPY_OBJECT,
          S3Operation.GET_OBJECT,
          S3Operation.HEAD_OBJECT,
          S3Operation.GET_OBJECT_ATTRIBUTES,
          S3Operation.CREATE_MULTIPART_UPLOAD,
          S3Operation.UPLOAD_PART,
          S3Operation.UPLOAD_PART_COPY,
          S3Operation.COMPLETE_MULTIPART_UPLOAD);

  /**
   * The canned ACLs that grant nothing the single owner of everything in the array does not already
   * have: {@code private}, and the two that give the bucket owner (that same owner) rights on an
   * object. Every other one would grant access to others: RACS judges access by policies only
   * (issue #40), and an ACL that became a policy statement behind the caller's back (one per object
   * for {@code public-read} on a PUT) would fill the bucket policy and be removed by the next
   * PutBucketPolicy, so they stay NotImplemented and the message points at bucket policies.
   */
  private static final Set<String> NO_OP_CANNED_ACLS =
      Set.of("private", "bucket-owner-read", "bucket-owner-full-control");

  /**
   * The writes that store the tags of {@code x-amz-tagging}; on any other operation the header is
   * refused, since it would be ignored.
   */
  private static final Set<S3Operation> TAGGED_WRITES =
      Set.of(S3Operation.PUT_OBJECT, S3Operation.COPY_OBJECT, S3Operation.CREATE_MULTIPART_UPLOAD);

  private final String baseDomain;

  private S3Router(String baseDomain) {
    this.baseDomain = baseDomain;
  }

  /** A router for path-style requests only. */
  public static S3Router pathStyle() {
    return new S3Router(null);
  }

  /**
   * A router that also accepts virtual-host style under {@code baseDomain} (e.g. {@code
   * s3.example.com}: {@code bucket.s3.example.com}).
   */
  public static S3Router withBaseDomain(String baseDomain) {
    String d = baseDomain.strip().toLowerCase(Locale.ROOT);
    if (d.isEmpty() || d.startsWith(".")) {
      throw new IllegalArgumentException(
          "baseDomain: " + baseDomain + " (expected: a host name such as s3.example.com)");
    }
    return new S3Router(d);
  }

  /** The bucket the {@code Host} header names in virtual-host style, if any. */
  public Optional<String> virtualHostBucket(String host) {
    if (baseDomain == null || host == null) {
      return Optional.empty();
    }
    String h = host.strip().toLowerCase(Locale.ROOT);
    if (h.startsWith("[")) {
      return Optional.empty();
    }
    int colon = h.lastIndexOf(':');
    if (colon >= 0) {
      h = h.substring(0, colon);
    }
    if (h.endsWith(".")) {
      h = h.substring(0, h.length() - 1);
    }
    String suffix = "." + baseDomain;
    if (h.length() > suffix.length() && h.endsWith(suffix)) {
      return Optional.of(h.substring(0, h.length() - suffix.length()));
    }
    return Optional.empty();
  }

  /**
   * Classifies {@code head}.
   *
   * @throws S3Exception as listed in the class comment
   */
  public S3Route route(RequestHead head) {
    Optional<String> hostBucket = virtualHostBucket(head.headers().get("host"));
    String path;
    try {
      path = PercentCodec.decode(head.rawPath(), false);
    } catch (IllegalArgumentException e) {
      throw S3Exception.of(S3ErrorCode.INVALID_URI, null, e);
    }
    String bucket;
    String key;
    if (hostBucket.isPresent()) {
      bucket = hostBucket.get();
      key = path.length() > 1 ? path.substring(1) : null;
    } else {
      String rest = path.substring(1);
      int slash = rest.indexOf('/');
      bucket = slash < 0 ? rest : rest.substring(0, slash);
      key = slash < 0 || slash == rest.length() - 1 ? null : rest.substring(slash + 1);
      if (bucket.isEmpty()) {
        bucket = null;
        if (!rest.isEmpty()) {
          // "//key": an empty bucket name.
          throw S3Exception.of(S3ErrorCode.INVALID_BUCKET_NAME).withDetail("BucketName", "");
        }
      }
    }
    if (bucket != null) {
      BucketNames.validate(bucket);
    }
    if (key != null) {
      BucketNames.validateKey(key);
    }
    QueryParams query = head.query();
    S3Operation op = classify(head, query, bucket, key);
    refuseEncryptionHeaders(head.headers(), op);
    if (head.headers().contains("x-amz-tagging")
        && op != S3Operation.PREFLIGHT_CORS
        && !TAGGED_WRITES.contains(op)) {
      throw S3Exception.of(
          S3ErrorCode.NOT_IMPLEMENTED,
          "The x-amz-tagging header is not implemented for " + op + ".");
    }
    refuseLockHeaders(head.headers(), op);
    return new S3Route(op, bucket, key, hostBucket.isPresent());
  }

  private static S3Operation classify(
      RequestHead head, QueryParams query, String bucket, String key) {
    String method = head.method();
    if (method.equals("OPTIONS")) {
      // A browser's CORS preflight: unsigned, so nothing but the CORS decision may depend on it.
      if (bucket == null) {
        throw S3Exception.of(S3ErrorCode.METHOD_NOT_ALLOWED);
      }
      return S3Operation.PREFLIGHT_CORS;
    }
    if (!Set.of("GET", "HEAD", "PUT", "POST", "DELETE").contains(method)) {
      throw S3Exception.of(
          S3ErrorCode.NOT_IMPLEMENTED, "The " + method + " method is not implemented.");
    }
    for (QueryParams.Param p : query.asList()) {
      if (UNSUPPORTED_SUB_RESOURCES.contains(p.name())) {
        throw S3Exception.of(
            S3ErrorCode.NOT_IMPLEMENTED, "The ?" + p.name() + " sub-resource is not implemented.");
      }
    }
    refuseUnsupportedHeaders(head.headers());
    if (bucket == null) {
      if (method.equals("GET")) {
        return S3Operation.LIST_BUCKETS;
      }
      throw S3Exception.of(S3ErrorCode.METHOD_NOT_ALLOWED);
    }
    if (query.contains("cors")) {
      if (key != null) {
        throw S3Exception.of(
            S3ErrorCode.NOT_IMPLEMENTED, "The ?cors sub-resource is a bucket's, not an object's.");
      }
      return switch (method) {
        case "PUT" -> S3Operation.PUT_BUCKET_CORS;
        case "GET" -> S3Operation.GET_BUCKET_CORS;
        case "DELETE" -> S3Operation.DELETE_BUCKET_CORS;
        default -> throw S3Exception.of(S3ErrorCode.METHOD_NOT_ALLOWED);
      };
    }
    if (query.contains("policy") || query.contains("policyStatus")) {
      return classifyPolicy(method, query.contains("policyStatus"), key);
    }
    if (query.contains("tagging")) {
      return classifyTagging(method, key);
    }
    if (query.contains("object-lock")
        || query.contains("retention")
        || query.contains("legal-hold")) {
      return classifyObjectLock(method, query, key);
    }
    if (query.contains("encryption")) {
      if (key != null) {
        throw S3Exception.of(
            S3ErrorCode.NOT_IMPLEMENTED,
            "The ?encryption sub-resource is a bucket's, not an object's.");
      }
      return switch (method) {
        case "PUT" -> S3Operation.PUT_BUCKET_ENCRYPTION;
        case "GET" -> S3Operation.GET_BUCKET_ENCRYPTION;
        case "DELETE" -> S3Operation.DELETE_BUCKET_ENCRYPTION;
        default -> throw notImplemented(method, "encryption");
      };
    }
    if (query.contains("lifecycle")) {
      if (key != null) {
        throw S3Exception.of(
            S3ErrorCode.NOT_IMPLEMENTED,
            "The ?lifecycle sub-resource is a bucket's, not an object's.");
      }
      return switch (method) {
        case "PUT" -> S3Operation.PUT_BUCKET_LIFECYCLE;
        case "GET" -> S3Operation.GET_BUCKET_LIFECYCLE;
        case "DELETE" -> S3Operation.DELETE_BUCKET_LIFECYCLE;
        default -> throw notImplemented(method, "lifecycle");
      };
    }
    return classifyRest(head, query, bucket, key);
  }

  private static S3Operation classifyRest(
      RequestHead head, QueryParams query, String bucket, String key) {
    String method = head.method();
    if (key == null
        && method.equals("POST")
        && !query.contains("delete")
        && MultipartForm.isForm(head.headers().get("content-type"))) {
      return S3Operation.POST_OBJECT;
    }
    if (query.contains("versioning")) {
      return classifyVersioning(method, key);
    }
    if (key == null) {
      return classifyBucket(method, query);
    }
    return classifyObject(method, query, head);
  }

  /**
   * Refuses a request carrying a header whose meaning the proxy does not implement: one of {@link
   * #UNSUPPORTED_HEADERS} or {@link #UNSUPPORTED_HEADER_PREFIXES}, a canned ACL other than {@link
   * #NO_OP_CANNED_ACLS}, or an {@code x-amz-bucket-object-lock-enabled} other than true or false
   * (object lock headers on the wrong operation: {@link #refuseLockHeaders}). This is the one place
   * such headers are refused, for every operation, before any handler reads or stores anything (the
   * connection still authenticates a refused request first, so an unsigned one is a 403).
   */
  private static void refuseUnsupportedHeaders(Headers headers) {
    for (Map.Entry<String, List<String>> header : headers.asMap().entrySet()) {
      String name = header.getKey();
      String value = String.join(",", header.getValue()).strip().toLowerCase(Locale.ROOT);
      boolean refused =
          UNSUPPORTED_HEADERS.contains(name)
              || UNSUPPORTED_HEADER_PREFIXES.stream().anyMatch(name::startsWith)
              || (name.equals("x-amz-acl") && !NO_OP_CANNED_ACLS.contains(value))
              || (name.equals("x-amz-bucket-object-lock-enabled")
                  && !value.equals("false")
                  && !value.equals("true"));
      if (refused) {
        throw S3Exception.of(
            S3ErrorCode.NOT_IMPLEMENTED,
            "The "
                + name
                + " header is not implemented"
                + (name.equals("x-amz-acl")
                    ? " for the canned ACL "
                        + value
                        + ": RACS keeps no ACLs; grant access with a"
                        + " bucket policy (Principal \"*\" for public reads) instead."
                    : "."));
      }
    }
  }

  /**
   * Refuses {@code x-amz-object-lock-*} on an operation that does not store a lock, and {@code
   * x-amz-bucket-object-lock-enabled: true} on anything but CreateBucket.
   */
  private static void refuseLockHeaders(Headers headers, S3Operation op) {
    if (op == S3Operation.PREFLIGHT_CORS) {
      return;
    }
    for (String name : headers.asMap().keySet()) {
      boolean refused =
          (name.startsWith("x-amz-object-lock-") && !LOCKED_WRITES.contains(op))
              || (name.equals("x-amz-bucket-object-lock-enabled")
                  && op != S3Operation.CREATE_BUCKET
                  && headers.get(name).strip().equalsIgnoreCase("true"));
      if (refused) {
        throw S3Exception.of(
            S3ErrorCode.NOT_IMPLEMENTED,
            "The " + name + " header is not implemented for " + op + ".");
      }
    }
  }

  /** Refuses server-side encryption headers on an operation that would not honour them. */
  private static void refuseEncryptionHeaders(Headers headers, S3Operation op) {
    if (SSE_OPERATIONS.contains(op)) {
      return;
    }
    for (String name : headers.asMap().keySet()) {
      if (SSE_HEADER_PREFIXES.stream().anyMatch(name::startsWith)) {
        throw S3Exception.of(
            S3ErrorCode.NOT_IMPLEMENTED,
            "The " + name + " header is not implemented for " + op + ".");
      }
    }
  }

  /**
   * {@code ?tagging}: Put, Get and DeleteBucketTagging on a bucket, Put, Get and
   * DeleteObjectTagging on an object; another method is refused.
   */
  private static S3Operation classifyTagging(String method, String key) {
    return switch (method) {
      case "PUT" -> key == null ? S3Operation.PUT_BUCKET_TAGGING : S3Operation.PUT_OBJECT_TAGGING;
      case "GET" -> key == null ? S3Operation.GET_BUCKET_TAGGING : S3Operation.GET_OBJECT_TAGGING;
      case "DELETE" ->
          key == null ? S3Operation.DELETE_BUCKET_TAGGING : S3Operation.DELETE_OBJECT_TAGGING;
      default -> throw notImplemented(method, "tagging");
    };
  }

  /**
   * {@code ?policy}: Put, Get and DeleteBucketPolicy; {@code ?policyStatus}: GetBucketPolicyStatus;
   * on an object, or with another method, refused.
   */
  private static S3Operation classifyPolicy(String method, boolean status, String key) {
    String sub = status ? "policyStatus" : "policy";
    if (key != null) {
      throw S3Exception.of(
          S3ErrorCode.NOT_IMPLEMENTED,
          "The ?" + sub + " sub-resource is a bucket's, not an object's.");
    }
    if (status && method.equals("GET")) {
      return S3Operation.GET_BUCKET_POLICY_STATUS;
    }
    return switch (status ? "" : method) {
      case "PUT" -> S3Operation.PUT_BUCKET_POLICY;
      case "GET" -> S3Operation.GET_BUCKET_POLICY;
      case "DELETE" -> S3Operation.DELETE_BUCKET_POLICY;
      default -> throw notImplemented(method, sub);
    };
  }

  /**
   * {@code ?object-lock} on a bucket (Put and GetObjectLockConfiguration), {@code ?retention} and
   * {@code ?legal-hold} on an object (Put and Get of each); anything else is refused.
   */
  private static S3Operation classifyObjectLock(String method, QueryParams query, String key) {
    String sub =
        query.contains("object-lock")
            ? "object-lock"
            : query.contains("retention") ? "retention" : "legal-hold";
    boolean onBucket = sub.equals("object-lock");
    if (onBucket != (key == null)) {
      throw S3Exception.of(
          S3ErrorCode.NOT_IMPLEMENTED,
          "The ?" + sub + " sub-resource is " + (onBucket ? "a bucket's" : "an object's") + ".");
    }
    boolean put = method.equals("PUT");
    if (!put && !method.equals("GET")) {
      throw notImplemented(method, sub);
    }
    return switch (sub) {
      case "object-lock" ->
          put
              ? S3Operation.PUT_OBJECT_LOCK_CONFIGURATION
              : S3Operation.GET_OBJECT_LOCK_CONFIGURATION;
      case "retention" -> put ? S3Operation.PUT_OBJECT_RETENTION : S3Operation.GET_OBJECT_RETENTION;
      default -> put ? S3Operation.PUT_OBJECT_LEGAL_HOLD : S3Operation.GET_OBJECT_LEGAL_HOLD;
    };
  }

  /** {@code ?versioning}: Put and GetBucketVersioning; on an object, or another method, refused. */
  private static S3Operation classifyVersioning(String method, String key) {
    if (key == null && method.equals("PUT")) {
      return S3Operation.PUT_BUCKET_VERSIONING;
    }
    if (key == null && method.equals("GET")) {
      return S3Operation.GET_BUCKET_VERSIONING;
    }
    throw S3Exception.of(
        S3ErrorCode.NOT_IMPLEMENTED,
        "The ?versioning sub-resource is not implemented for "
            + method
            + (key == null ? " on a bucket." : " on an object."));
  }

  private static S3Operation classifyBucket(String method, QueryParams query) {
    if (query.contains("acl")) {
      return switch (method) {
        case "GET" -> S3Operation.GET_BUCKET_ACL;
        case "PUT" -> S3Operation.PUT_BUCKET_ACL;
        default -> throw notImplemented(method, "acl");
      };
    }
    if (query.contains("attributes")) {
      throw notImplemented(method, "attributes");
    }
    return switch (method) {
      case "PUT" -> S3Operation.CREATE_BUCKET;
      case "DELETE" -> S3Operation.DELETE_BUCKET;
      case "HEAD" -> S3Operation.HEAD_BUCKET;
      case "POST" -> {
        if (query.contains("delete")) {
          yield S3Operation.DELETE_OBJECTS;
        }
        throw S3Exception.of(
            S3ErrorCode.NOT_IMPLEMENTED, "POST uploads of HTML forms are not implemented.");
      }
      default -> {
        if (query.contains("location")) {
          yield S3Operation.GET_BUCKET_LOCATION;
        }
        if (query.contains("versions")) {
          yield S3Operation.LIST_OBJECT_VERSIONS;
        }
        if (query.contains("uploads")) {
          yield S3Operation.LIST_MULTIPART_UPLOADS;
        }
        String listType = query.get("list-type");
        if (listType == null) {
          yield S3Operation.LIST_OBJECTS_V1;
        }
        if (listType.equals("2")) {
          yield S3Operation.LIST_OBJECTS_V2;
        }
        throw S3Exception.of(S3ErrorCode.INVALID_ARGUMENT, "Invalid List Type specified")
            .withDetail("ArgumentName", "list-type")
            .withDetail("ArgumentValue", listType);
      }
    };
  }

  /** A sub-resource that has no operation for this method (e.g. {@code DELETE ?acl}). */
  private static S3Exception notImplemented(String method, String subResource) {
    return S3Exception.of(
        S3ErrorCode.NOT_IMPLEMENTED,
        "The " + method + " method on the ?" + subResource + " sub-resource is not implemented.");
  }

  /**
   * A {@code partNumber} (of UploadPart, UploadPartCopy, or a GET or HEAD of one part) must be a
   * decimal integer from 1 to 10,000. Checked here, with the request's head, so that a bad one is
   * refused before {@code 100 Continue} and before any body byte is read or stored.
   */
  private static void checkPartNumber(String value) {
    boolean digits = !value.isEmpty() && value.length() <= 9;
    for (int i = 0; digits && i < value.length(); i++) {
      digits = value.charAt(i) >= '0' && value.charAt(i) <= '9';
    }
    int n = digits ? Integer.parseInt(value) : 0;
    if (n < 1 || n > MAX_PART_NUMBER) {
      throw S3Exception.of(
              S3ErrorCode.INVALID_ARGUMENT,
              "Part number must be an integer between 1 and " + MAX_PART_NUMBER + ", inclusive")
          .withDetail("ArgumentName", "partNumber")
          .withDetail("ArgumentValue", value);
    }
  }

  private static S3Operation classifyObject(String method, QueryParams query, RequestHead head) {
    boolean uploadId = query.contains("uploadId");
    boolean partNumber = query.contains("partNumber");
    boolean copy = head.headers().contains("x-amz-copy-source");
    if (partNumber) {
      checkPartNumber(query.get("partNumber"));
    }
    if (query.contains("acl")) {
      return switch (method) {
        case "GET" -> S3Operation.GET_OBJECT_ACL;
        case "PUT" -> S3Operation.PUT_OBJECT_ACL;
        default -> throw notImplemented(method, "acl");
      };
    }
    if (query.contains("attributes")) {
      if (method.equals("GET")) {
        return S3Operation.GET_OBJECT_ATTRIBUTES;
      }
      throw notImplemented(method, "attributes");
    }
    return switch (method) {
      case "PUT" -> {
        if (uploadId != partNumber) {
          throw S3Exception.of(
                  S3ErrorCode.INVALID_ARGUMENT,
                  "An upload part needs both partNumber and uploadId.")
              .withDetail("ArgumentName", uploadId ? "partNumber" : "uploadId");
        }
        if (uploadId) {
          yield copy ? S3Operation.UPLOAD_PART_COPY : S3Operation.UPLOAD_PART;
        }
        yield copy ? S3Operation.COPY_OBJECT : S3Operation.PUT_OBJECT;
      }
      case "GET" -> uploadId ? S3Operation.LIST_PARTS : S3Operation.GET_OBJECT;
      case "HEAD" -> S3Operation.HEAD_OBJECT;
      case "DELETE" -> uploadId ? S3Operation.ABORT_MULTIPART_UPLOAD : S3Operation.DELETE_OBJECT;
      default -> {
        if (query.contains("uploads")) {
          yield S3Operation.CREATE_MULTIPART_UPLOAD;
        }
        if (uploadId) {
          yield S3Operation.COMPLETE_MULTIPART_UPLOAD;
        }
        throw S3Exception.of(S3ErrorCode.METHOD_NOT_ALLOWED);
      }
    };
  }
}
