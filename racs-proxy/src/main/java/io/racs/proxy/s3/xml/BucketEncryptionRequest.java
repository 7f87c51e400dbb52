package io.racs.proxy.s3.xml;

import static io.racs.proxy.s3.xml.SafeXmlParser.malformed;
import static io.racs.proxy.s3.xml.SafeXmlParser.nextChild;
import static io.racs.proxy.s3.xml.SafeXmlParser.skip;

import io.racs.proxy.s3.error.S3Exception;

/**
 * What a PutBucketEncryption body ({@code ServerSideEncryptionConfiguration}) asks for: the {@code
 * SSEAlgorithm} of its one rule's {@code ApplyServerSideEncryptionByDefault}, and whether it names
 * a KMS key or asks for S3 Bucket Keys (which only SSE-KMS has).
 *
 * @param algorithm the {@code SSEAlgorithm}, as sent
 * @param kmsKey true when the rule names a {@code KMSMasterKeyID}
 * @param bucketKey true when the rule sets {@code BucketKeyEnabled}
 */
public record BucketEncryptionRequest(String algorithm, boolean kmsKey, boolean bucketKey) {
  /**
   * Parses a PutBucketEncryption body.
   *
   * @throws S3Exception MalformedXML for a body that is not one rule with an algorithm
   */
  public static BucketEncryptionRequest parse(byte[] body) {
    return SafeXmlParser.parse(
        body,
        SafeXmlParser.SMALL_MAX_BODY_BYTES,
        "ServerSideEncryptionConfiguration",
        r -> {
          String algorithm = null;
          boolean kmsKey = false;
          boolean bucketKey = false;
          int rules = 0;
          while (nextChild(r)) {
            if (!r.getLocalName().equals("Rule")) {
              skip(r);
              continue;
            }
            rules++;
            while (nextChild(r)) {
              switch (r.getLocalName()) {
                case "ApplyServerSideEncryptionByDefault" -> {
                  while (nextChild(r)) {
                    switch (r.getLocalName()) {
                      case "SSEAlgorithm" -> algorithm = r.getElementText().strip();
                      case "KMSMasterKeyID" -> {
                        kmsKey = true;
                        skip(r);
                      }
                      default -> skip(r);
                    }
                  }
                }
                case "BucketKeyEnabled" -> bucketKey = r.getElementText().strip().equals("true");
                default -> skip(r);
              }
            }
          }
          if (rules != 1 || algorithm == null || algorithm.isEmpty()) {
            throw malformed();
          }
          return new BucketEncryptionRequest(algorithm, kmsKey, bucketKey);
        });
  }
}
