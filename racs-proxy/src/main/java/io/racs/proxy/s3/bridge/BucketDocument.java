package io.racs.proxy.s3.bridge;

/**
 * The kinds of configuration document a bucket keeps beside its objects, each put, read and removed
 * whole through {@link StoreBridge#putBucketDocument}, {@link StoreBridge#bucketDocument} and
 * {@link StoreBridge#deleteBucketDocument}. The bridge stores a document as the handler validated
 * and rendered it; what it says is the handler's business.
 */
public enum BucketDocument {
  /** The CORS configuration (PutBucketCors). */
  CORS,
  /** The bucket's tag set (PutBucketTagging). */
  TAGGING,
  /** The lifecycle configuration (PutBucketLifecycleConfiguration). */
  LIFECYCLE,
  /** The default encryption configuration (PutBucketEncryption). */
  ENCRYPTION,
  /** The bucket policy (PutBucketPolicy): what requests to the bucket are judged by. */
  POLICY
}
