package io.racs.proxy.s3.handler;

import io.racs.proxy.s3.bridge.BucketDocument;
import io.racs.proxy.s3.bridge.StoreBridge;
import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.s3.xml.BucketEncryptionRequest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The bucket default encryption family: Put, Get and DeleteBucketEncryption, and the default itself
 * as writes apply it. A bucket whose default is SSE-S3 seals every PUT, CopyObject, multipart
 * upload and form upload that asks for no encryption of its own, and answers so in {@code
 * x-amz-server-side-encryption}, as S3 does.
 *
 * <p>SSE-KMS (and S3 Bucket Keys, which only it has) is refused with NotImplemented, and so is
 * SSE-S3 when the proxy has no master key: a default the proxy could not honour is never stored.
 *
 * <p>The default is read through the store's short cache ({@link
 * StoreBridge#bucketEncryptionRecently}): at once after it was changed through this proxy, at once
 * after a change through another proxy when the proxies are coordinated, and otherwise within a
 * second.
 */
final class BucketEncryptionHandler {
  private static final String NS = "http://s3.amazonaws.com/doc/2006-03-01/";

  private final StoreBridge store;
  private final boolean masterKey;

  /**
   * @param masterKey whether the proxy holds a master key (SSE-S3 can be honoured)
   */
  BucketEncryptionHandler(StoreBridge store, boolean masterKey) {
    this.store = store;
    this.masterKey = masterKey;
  }

  S3Response handle(S3Request request) throws IOException {
    return switch (request.route().operation()) {
      case PUT_BUCKET_ENCRYPTION -> put(request);
      case GET_BUCKET_ENCRYPTION ->
          S3Response.xml(
              store
                  .bucketDocument(request.bucket(), BucketDocument.ENCRYPTION)
                  .orElseThrow(
                      () ->
                          S3Exception.of(
                              S3ErrorCode.SERVER_SIDE_ENCRYPTION_CONFIGURATION_NOT_FOUND))
                  .getBytes(StandardCharsets.UTF_8));
      case DELETE_BUCKET_ENCRYPTION -> {
        store.deleteBucketDocument(request.bucket(), BucketDocument.ENCRYPTION);
        yield S3Response.status(204);
      }
      default -> throw S3Exception.of(S3ErrorCode.NOT_IMPLEMENTED);
    };
  }

  private S3Response put(S3Request request) throws IOException {
    BucketEncryptionRequest asked = BucketEncryptionRequest.parse(ObjectHandler.readXml(request));
    if (asked.algorithm().startsWith("aws:kms") || asked.kmsKey()) {
      throw S3Exception.of(
          S3ErrorCode.NOT_IMPLEMENTED,
          "SSE-KMS needs a key management service, and none is configured.");
    }
    if (!asked.algorithm().equals("AES256")) {
      throw S3Exception.of(S3ErrorCode.MALFORMED_XML);
    }
    if (asked.bucketKey()) {
      throw S3Exception.of(
          S3ErrorCode.NOT_IMPLEMENTED, "S3 Bucket Keys are SSE-KMS's, which is not implemented.");
    }
    if (!masterKey) {
      throw S3Exception.of(
          S3ErrorCode.NOT_IMPLEMENTED,
          "Server side encryption specified but no master key is configured.");
    }
    String document =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<ServerSideEncryptionConfiguration xmlns=\""
            + NS
            + "\"><Rule><ApplyServerSideEncryptionByDefault><SSEAlgorithm>AES256</SSEAlgorithm>"
            + "</ApplyServerSideEncryptionByDefault><BucketKeyEnabled>false</BucketKeyEnabled>"
            + "</Rule></ServerSideEncryptionConfiguration>";
    store.putBucketDocument(request.bucket(), BucketDocument.ENCRYPTION, document);
    return S3Response.status(200);
  }

  /** True when the bucket's default encryption is SSE-S3 (see the class comment on caching). */
  boolean sseS3ByDefault(String bucket) {
    return store.bucketEncryptionRecently(bucket).isPresent();
  }
}
