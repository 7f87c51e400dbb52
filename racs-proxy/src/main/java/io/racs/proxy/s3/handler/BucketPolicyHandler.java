package io.racs.proxy.s3.handler;

import io.racs.proxy.s3.bridge.BucketDocument;
import io.racs.proxy.s3.bridge.StoreBridge;
import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.s3.policy.Policy;
import io.racs.proxy.s3.policy.PolicyException;
import io.racs.proxy.s3.policy.PolicyParser;
import io.racs.proxy.s3.xml.XmlWriter;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * The bucket policy family: Put, Get and DeleteBucketPolicy, and GetBucketPolicyStatus. A policy is
 * parsed and validated in full ({@link PolicyParser#bucketPolicy}: JSON, size, actions, resources
 * in this bucket, condition operators and keys) before anything is stored, and stored as the
 * document given, which GetBucketPolicy returns; it is kept with the bucket's other configuration
 * documents, on a write quorum, so every proxy judges by it.
 */
final class BucketPolicyHandler {
  private final StoreBridge store;

  BucketPolicyHandler(StoreBridge store) {
    this.store = store;
  }

  S3Response handle(S3Request request) throws IOException {
    return switch (request.route().operation()) {
      case PUT_BUCKET_POLICY -> put(request);
      case GET_BUCKET_POLICY ->
          S3Response.status(200)
              .header("Content-Type", "application/json")
              .body(document(request.bucket()));
      case DELETE_BUCKET_POLICY -> {
        store.deleteBucketDocument(request.bucket(), BucketDocument.POLICY);
        yield S3Response.status(204);
      }
      case GET_BUCKET_POLICY_STATUS -> status(request);
      default -> throw S3Exception.of(S3ErrorCode.NOT_IMPLEMENTED);
    };
  }

  private S3Response put(S3Request request) throws IOException {
    byte[] body;
    try {
      body = request.body().readNBytes(PolicyParser.MAX_BYTES + 1);
    } catch (IOException e) {
      if (e.getCause() instanceof S3Exception s3) {
        throw s3;
      }
      throw e;
    }
    if (body.length > PolicyParser.MAX_BYTES) {
      throw malformed("Policies must be no more than " + PolicyParser.MAX_BYTES + " bytes");
    }
    String json;
    try {
      json =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(body))
              .toString();
    } catch (CharacterCodingException e) {
      throw malformed("Policies must be valid JSON (UTF-8)");
    }
    Policy policy;
    try {
      policy = PolicyParser.bucketPolicy(json, request.bucket());
    } catch (PolicyException e) {
      throw malformed(e.getMessage());
    }
    store.putBucketDocument(request.bucket(), BucketDocument.POLICY, policy.json());
    return S3Response.status(204);
  }

  private String document(String bucket) {
    return store
        .bucketDocument(bucket, BucketDocument.POLICY)
        .orElseThrow(
            () ->
                S3Exception.of(S3ErrorCode.NO_SUCH_BUCKET_POLICY)
                    .withDetail("BucketName", bucket)
                    .withResource("/" + bucket));
  }

  /**
   * PolicyStatus: public when some Allow statement names everyone ({@code "*"}) without a
   * condition, as S3 judges it (a condition such as {@code aws:SourceIp} makes it not public).
   */
  private S3Response status(S3Request request) {
    Policy policy = PolicyParser.bucketPolicy(document(request.bucket()), request.bucket());
    boolean open = false;
    for (Policy.Statement s : policy.statements()) {
      open |=
          s.effect() == Policy.Effect.ALLOW
              && s.principals() != null
              && s.principals().contains("*")
              && s.conditions().isEmpty();
    }
    return S3Response.xml(
        XmlWriter.document()
            .root("PolicyStatus")
            .element("IsPublic", Boolean.toString(open))
            .end()
            .toBytes());
  }

  private static S3Exception malformed(String message) {
    return S3Exception.of(S3ErrorCode.MALFORMED_POLICY, message);
  }
}
