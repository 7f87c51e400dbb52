package io.racs.proxy.s3.auth;

/**
 * The SigV4 credential scope {@code date/region/service/aws4_request}.
 *
 * @param date {@code yyyyMMdd}
 * @param region e.g. {@code us-east-1}
 * @param service {@code s3}
 */
public record CredentialScope(String date, String region, String service) {
  /** The terminator of every SigV4 scope. */
  public static final String TERMINATOR = "aws4_request";

  /** {@code date/region/service/aws4_request}. */
  @Override
  public String toString() {
    return date + "/" + region + "/" + service + "/" + TERMINATOR;
  }
}
