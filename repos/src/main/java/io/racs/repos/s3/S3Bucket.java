package io.racs.repos.s3;

import io.racs.repos.OnFirstCall;
import io.racs.repos.RepositoryException;
import io.racs.repos.RepositoryException.Kind;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The bucket of one {@link S3Repository}: whether it exists ({@link #probe()}), the one message for
 * a missing bucket ({@link #missing}), and, with {@link S3Options#createBucket()}, its creation by
 * the repository's first call.
 *
 * <p>Creation happens once ({@link OnFirstCall}): the first call that finds the bucket present, or
 * creates it, settles the question, so a bucket deleted later reads as missing storage ({@code
 * UNAVAILABLE}) like any other. Thread-safe.
 */
final class S3Bucket {
  private final String repository;
  private final S3Options options;
  private final S3Client client;
  private final OnFirstCall creation;

  S3Bucket(String repository, S3Options options, S3Client client) {
    this.repository = repository;
    this.options = options;
    this.client = client;
    this.creation =
        options.createBucket() ? OnFirstCall.of(this::createIfMissing) : OnFirstCall.none();
  }

  /** Before every call: creates the bucket if asked and not yet settled; cheap afterwards. */
  void ensure() {
    creation.ensure();
  }

  private void createIfMissing() {
    try {
      client.headBucket(b -> b.bucket(options.bucket()));
    } catch (AwsServiceException e) {
      if (e.statusCode() != 404) {
        throw S3Errors.translate(repository, e, "probe", "");
      }
      create();
    } catch (SdkException e) {
      throw S3Errors.translate(repository, e, "probe", "");
    }
  }

  private void create() {
    try {
      client.createBucket(
          b -> {
            b.bucket(options.bucket());
            // AWS wants the region named everywhere but in its first one.
            if (!options.region().equals("us-east-1")) {
              b.createBucketConfiguration(c -> c.locationConstraint(options.region()));
            }
          });
    } catch (AwsServiceException e) {
      String code = e.awsErrorDetails() == null ? "" : e.awsErrorDetails().errorCode();
      if (!"BucketAlreadyOwnedByYou".equals(code)) {
        // Another proxy of the array creating it at the same moment answers this; anything else
        // (BucketAlreadyExists: another account owns the name) is the operator's to fix.
        throw S3Errors.translate(repository, e, "create bucket " + options.bucket(), "");
      }
    } catch (SdkException e) {
      throw S3Errors.translate(repository, e, "create bucket " + options.bucket(), "");
    }
  }

  /** One cheap request: HeadBucket; a missing bucket is {@link #missing}. */
  void probe() {
    ensure();
    try {
      client.headBucket(b -> b.bucket(options.bucket()));
    } catch (AwsServiceException e) {
      if (e.statusCode() == 404) {
        throw missing(e);
      }
      throw S3Errors.translate(repository, e, "probe", "");
    } catch (SdkException e) {
      throw S3Errors.translate(repository, e, "probe", "");
    }
  }

  /** The failure of every call on a missing bucket: {@code UNAVAILABLE}, naming the bucket. */
  RepositoryException missing(Throwable cause) {
    return new RepositoryException(
        Kind.UNAVAILABLE,
        repository
            + ": bucket "
            + options.bucket()
            + " does not exist (deleted, or never created; 'create: true' creates a missing"
            + " bucket at start-up)",
        cause);
  }
}
