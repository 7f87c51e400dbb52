package io.racs.proxy.s3.handler;

import io.racs.proxy.s3.auth.S3Authenticator;
import io.racs.proxy.s3.authz.Access;
import io.racs.proxy.s3.bridge.ObjectVersion;
import io.racs.proxy.s3.bridge.PutOptions;
import io.racs.proxy.s3.bridge.StoreBridge;
import io.racs.proxy.s3.bridge.WriteCondition;
import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.s3.form.MultipartForm;
import io.racs.proxy.s3.form.PostPolicy;
import io.racs.proxy.s3.http.Headers;
import io.racs.proxy.s3.http.PercentCodec;
import io.racs.proxy.s3.route.BucketNames;
import io.racs.proxy.s3.sse.SseRequest;
import io.racs.proxy.s3.tagging.TagSet;
import io.racs.proxy.s3.xml.S3XmlResponses;
import io.racs.proxy.s3.xml.TaggingRequest;
import io.racs.proxy.s3.xml.XmlWriter;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * POST Object: a browser's HTML form upload to {@code POST /bucket}. The form is read as it
 * streams: the fields before the {@code file} field, then the file straight into the store; fields
 * after the file are ignored, as in S3. The request carries no signature header: the form's policy
 * is signed instead (SigV4, or SigV2's {@code AWSAccessKeyId} and {@code signature} fields, which
 * S3 still accepts), and the policy's conditions are checked before a byte of the file is stored. A
 * form with neither policy nor signature is anonymous, and stores only where a bucket policy lets
 * anyone ({@code "Principal": "*"}) {@code s3:PutObject}. Fields whose meaning the proxy would
 * ignore are refused with {@code NotImplemented} first.
 */
final class PostObjectHandler {
  private static final int MAX_FIELD_BYTES = 20 * 1024;
  private static final int MAX_FIELDS = 200;
  private static final long MAX_FILE_BYTES = 5L << 30;
  private static final List<String> REQUIRED =
      List.of(
          "key", "policy", "x-amz-algorithm", "x-amz-credential", "x-amz-date", "x-amz-signature");

  /** The fields of an anonymous form (one that carries none of {@link #SIGNING}). */
  private static final List<String> REQUIRED_ANONYMOUS = List.of("key");

  /** The fields that sign a form, lower case: a form with none of them is anonymous. */
  private static final Set<String> SIGNING =
      Set.of(
          "policy",
          "x-amz-algorithm",
          "x-amz-credential",
          "x-amz-date",
          "x-amz-signature",
          "awsaccesskeyid",
          "signature");

  /** The fields of a SigV2-signed form, as S3 names them when one is missing. */
  private static final List<String> REQUIRED_V2 =
      List.of("key", "policy", "AWSAccessKeyId", "signature");

  /** Fields the proxy honours (besides {@code x-amz-meta-*} and {@code x-ignore-*}). */
  private static final Set<String> HONOURED =
      Set.of(
          "key",
          "policy",
          "bucket",
          "x-amz-algorithm",
          "x-amz-credential",
          "x-amz-date",
          "x-amz-signature",
          "success_action_status",
          "success_action_redirect",
          "redirect",
          "content-type",
          "cache-control",
          "content-disposition",
          "content-encoding",
          "content-language",
          "expires",
          "acl",
          "x-amz-storage-class",
          // SSE-S3 and SSE-C, as the PUT headers of the same names (any other SSE field, such as
          // the KMS key id, is refused)
          "x-amz-server-side-encryption",
          "x-amz-server-side-encryption-customer-algorithm",
          "x-amz-server-side-encryption-customer-key",
          "x-amz-server-side-encryption-customer-key-md5");

  private final StoreBridge store;
  private final ObjectLockHandler locks;
  private final S3Authenticator authenticator;
  private final Clock clock;
  private final BucketEncryptionHandler bucketDefaults;
  private final SsePolicy encryption;

  PostObjectHandler(StoreBridge store, S3Authenticator authenticator, Clock clock) {
    this(store, authenticator, clock, null, SsePolicy.DEFAULT);
  }

  /**
   * A handler that seals a form's file as its SSE fields ask, or else as the proxy's or the
   * bucket's default does (the file's length is known only at its end: it is sealed as it streams).
   */
  PostObjectHandler(
      StoreBridge store,
      S3Authenticator authenticator,
      Clock clock,
      BucketEncryptionHandler bucketDefaults,
      SsePolicy encryption) {
    this.bucketDefaults = bucketDefaults;
    this.encryption = encryption;
    this.store = store;
    this.locks = new ObjectLockHandler(store);
    this.authenticator = authenticator;
    this.clock = clock;
  }

  S3Response handle(S3Request request) throws IOException {
    if (authenticator == null) {
      throw S3Exception.of(
          S3ErrorCode.NOT_IMPLEMENTED, "POST uploads of HTML forms are not implemented.");
    }
    MultipartForm form = MultipartForm.of(request.body(), request.headers().get("content-type"));
    Map<String, String> fields = new LinkedHashMap<>();
    MultipartForm.Part file = null;
    for (MultipartForm.Part part = form.next(); part != null; part = form.next()) {
      String name = part.name().toLowerCase(Locale.ROOT);
      if (name.equals("file")) {
        file = part;
        break;
      }
      if (fields.size() == MAX_FIELDS || fields.containsKey(name)) {
        throw S3Exception.of(
            S3ErrorCode.INVALID_ARGUMENT, "The form repeats the field " + part.name() + ".");
      }
      fields.put(name, form.text(MAX_FIELD_BYTES));
    }
    // A form with no policy and no field of a signature is anonymous, as on S3: judged as
    // anonymous for s3:PutObject (a bucket policy must grant it to "*"). A form signed the SigV2
    // way names its access key in AWSAccessKeyId; one signed with SigV4 names the algorithm instead
    // (and is asked for its fields when it names neither).
    boolean anonymous = SIGNING.stream().noneMatch(fields::containsKey);
    boolean v2 = fields.containsKey("awsaccesskeyid") && !fields.containsKey("x-amz-algorithm");
    for (String required : anonymous ? REQUIRED_ANONYMOUS : v2 ? REQUIRED_V2 : REQUIRED) {
      if (!fields.containsKey(required.toLowerCase(Locale.ROOT))) {
        throw S3Exception.of(
                S3ErrorCode.INVALID_ARGUMENT,
                "Bucket POST must contain a field named '" + required + "'.")
            .withDetail("ArgumentName", required);
      }
    }
    String signer;
    if (anonymous) {
      signer = null;
    } else if (v2) {
      signer =
          authenticator.verifyPostPolicyV2(
              fields.get("awsaccesskeyid"), fields.get("policy"), fields.get("signature"));
    } else {
      signer =
          authenticator.verifyPostPolicy(
              fields.get("x-amz-algorithm"),
              fields.get("x-amz-credential"),
              fields.get("x-amz-date"),
              fields.get("policy"),
              fields.get("x-amz-signature"));
    }
    refuseIgnored(fields);
    if (file == null) {
      throw S3Exception.of(
              S3ErrorCode.INVALID_ARGUMENT, "POST requires exactly one file upload per request.")
          .withDetail("ArgumentName", "file");
    }
    PostPolicy policy = anonymous ? null : PostPolicy.parse(fields.get("policy"));
    fields.put("bucket", request.bucket());
    // The policy's conditions hold for the key the object gets, as on S3: with ${filename} already
    // replaced by the name of the file the browser sent.
    String key =
        fields.get("key").replace("${filename}", file.fileName() == null ? "" : file.fileName());
    fields.put("key", key);
    if (policy != null) {
      policy.check(clock.instant(), fields);
    }
    if (key.isEmpty()) {
      throw S3Exception.of(
              S3ErrorCode.INVALID_ARGUMENT, "User key must have a length greater than 0.")
          .withDetail("ArgumentName", "key");
    }
    BucketNames.validateKey(key);
    // The form's signer (or anonymous) is who uploads: judged for s3:PutObject of this key before
    // anything is stored.
    Access uploader =
        anonymous ? request.access().anonymousForm() : request.access().formSignedBy(signer);
    request.identified(uploader);
    uploader.putting(key);
    int status = successStatus(fields.get("success_action_status"));
    String redirect = fields.getOrDefault("success_action_redirect", fields.get("redirect"));

    Headers.Builder headers = Headers.builder();
    fields.forEach(
        (name, value) -> {
          if (name.startsWith("x-amz-meta-")
              || Responses.CONTENT_HEADERS.stream().anyMatch(h -> h.equalsIgnoreCase(name))
              || name.equals("content-type")) {
            headers.add(name, value);
          }
        });
    Headers h = headers.build();
    String tagging = fields.get("tagging");
    TagSet tags =
        tagging == null
            ? TagSet.empty()
            : TagSet.of(
                TaggingRequest.parse(tagging.getBytes(StandardCharsets.UTF_8)),
                TagSet.MAX_OBJECT_TAGS);
    Headers.Builder sseFields = Headers.builder();
    fields.forEach(
        (name, value) -> {
          if (name.startsWith("x-amz-server-side-encryption")) {
            sseFields.add(name, value);
          }
        });
    SseRequest sse = encryption.forWrite(request, sseFields.build(), bucketDefaults);
    PutOptions options =
        new PutOptions(
                h.get("content-type"),
                Responses.userMetadata(h),
                Map::of,
                Responses.contentHeaders(h),
                tags.asMap())
            .withSse(sse)
            // In a bucket with object lock, the bucket's default retention (a form carries none).
            .withLock(locks.forWrite(request));
    ObjectVersion meta =
        store.put(
            request.bucket(),
            key,
            new SizeRange(
                form.stream(),
                policy == null ? 0 : policy.minLengthBytes(),
                policy == null
                    ? MAX_FILE_BYTES
                    : Math.min(policy.maxLengthBytes(), MAX_FILE_BYTES)),
            -1,
            options,
            WriteCondition.NONE);
    drain(form);

    String etag = S3XmlResponses.quoteEtag(meta.etag());
    String location = "/" + request.bucket() + "/" + PercentCodec.uriEncodePath(key);
    if (redirect != null && !redirect.isBlank()) {
      String target =
          redirect
              + (redirect.contains("?") ? "&" : "?")
              + "bucket="
              + PercentCodec.uriEncodeComponent(request.bucket())
              + "&key="
              + PercentCodec.uriEncodeComponent(key)
              + "&etag="
              + PercentCodec.uriEncodeComponent(etag);
      S3Response redirected =
          S3Response.status(303).header("Location", target).header("ETag", etag);
      SsePolicy.headers(redirected, meta.encryption(), sse.customerKey());
      Responses.writtenVersionIdHeader(redirected, meta);
      return redirected;
    }
    S3Response response =
        S3Response.status(status).header("ETag", etag).header("Location", location);
    SsePolicy.headers(response, meta.encryption(), sse.customerKey());
    // A versioned bucket's POST answers the version id, as S3 does (none for a null version).
    Responses.writtenVersionIdHeader(response, meta);
    if (status == 201) {
      response
          .header("Content-Type", "application/xml")
          .body(
              XmlWriter.document()
                  .root("PostResponse")
                  .element("Location", location)
                  .element("Bucket", request.bucket())
                  .element("Key", key)
                  .element("ETag", etag)
                  .toBytes());
    }
    return response;
  }

  /**
   * Refuses form fields that ask for what the proxy does not do, like the headers the router
   * refuses: encryption, object lock, ACLs that grant access, another storage class, and any other
   * {@code x-amz-*} field.
   */
  private static void refuseIgnored(Map<String, String> fields) {
    for (Map.Entry<String, String> field : fields.entrySet()) {
      String name = field.getKey();
      String value = field.getValue().strip();
      boolean refused =
          (name.equals("acl")
                  && !Set.of("private", "bucket-owner-read", "bucket-owner-full-control")
                      .contains(value.toLowerCase(Locale.ROOT)))
              || (name.equals("x-amz-storage-class") && !value.equals("STANDARD"))
              || (!HONOURED.contains(name)
                  && !name.startsWith("x-amz-meta-")
                  && !name.startsWith("x-ignore-")
                  && name.startsWith("x-amz-"));
      if (refused) {
        throw S3Exception.of(
            S3ErrorCode.NOT_IMPLEMENTED, "The form field " + name + " is not implemented.");
      }
    }
  }

  private static int successStatus(String value) {
    if (value == null) {
      return 204;
    }
    return switch (value.strip()) {
      case "200" -> 200;
      case "201" -> 201;
      default -> 204; // S3 answers 204 for any other value
    };
  }

  /** Reads (and drops) what follows the file, so the connection can serve its next request. */
  private static void drain(MultipartForm form) throws IOException {
    try {
      for (MultipartForm.Part p = form.next(); p != null; p = form.next()) {
        form.text(MAX_FIELD_BYTES);
      }
    } catch (S3Exception e) {
      // The object is stored; a malformed tail does not undo it (S3 ignores what follows the file).
    }
  }

  /** Enforces the policy's content-length-range on the file as it streams. */
  private static final class SizeRange extends FilterInputStream {
    private final long min;
    private final long max;
    private long seen;

    SizeRange(InputStream in, long min, long max) {
      super(in);
      this.min = min;
      this.max = max;
    }

    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      int n = read(one, 0, 1);
      return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      int n = super.read(b, off, len);
      if (n < 0) {
        if (seen < min) {
          throw refusal(S3ErrorCode.ENTITY_TOO_SMALL, "MinSizeAllowed", min);
        }
        return n;
      }
      seen += n;
      if (seen > max) {
        throw refusal(S3ErrorCode.ENTITY_TOO_LARGE, "MaxSizeAllowed", max);
      }
      return n;
    }

    private IOException refusal(S3ErrorCode code, String limitName, long limit) {
      S3Exception e =
          S3Exception.of(code)
              .withDetail("ProposedSize", Long.toString(seen))
              .withDetail(limitName, Long.toString(limit));
      return new IOException(e.getMessage(), e);
    }
  }
}
