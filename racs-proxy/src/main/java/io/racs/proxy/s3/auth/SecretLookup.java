package io.racs.proxy.s3.auth;

import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;

/**
 * Looks up the secret of an access key for every signature version, refusing an unknown key the way
 * S3 does. Thread-safe as the credential store is.
 */
final class SecretLookup {
  private final CredentialStore credentials;

  SecretLookup(CredentialStore credentials) {
    this.credentials = credentials;
  }

  /**
   * The secret of {@code accessKey}.
   *
   * @throws S3Exception {@code InvalidAccessKeyId} when the store does not know it
   */
  String secretOf(String accessKey) {
    return credentials
        .secretKey(accessKey)
        .orElseThrow(
            () ->
                S3Exception.of(S3ErrorCode.INVALID_ACCESS_KEY_ID)
                    .withDetail("AWSAccessKeyId", accessKey));
  }
}
