package io.racs.proxy.s3.auth;

/**
 * What a SigV4-authenticated request leaves behind for verifying its aws-chunked body: the signing
 * key, the request's {@code x-amz-date}, its scope, and the request signature that seeds the chain
 * of chunk signatures. Holds key material: never log it ({@link #toString()} omits it).
 *
 * @param signingKey the derived SigV4 signing key (do not modify)
 * @param amzDate the request time as {@code yyyyMMdd'T'HHmmss'Z'}
 * @param scope the credential scope
 * @param seedSignature the request's own signature, hex
 */
public record SigningContext(
    byte[] signingKey, String amzDate, CredentialScope scope, String seedSignature) {
  @Override
  public String toString() {
    return "SigningContext{" + amzDate + ", " + scope + "}";
  }

  @Override
  public boolean equals(Object o) {
    return this == o;
  }

  @Override
  public int hashCode() {
    return System.identityHashCode(this);
  }
}
