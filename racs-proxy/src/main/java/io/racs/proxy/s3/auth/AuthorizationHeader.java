package io.racs.proxy.s3.auth;

import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A parsed SigV4 {@code Authorization} header: {@code AWS4-HMAC-SHA256
 * Credential=AK/20260101/us-east-1/s3/aws4_request, SignedHeaders=host;x-amz-date, Signature=...},
 * with {@code ", "} or a bare {@code ","} between the parts.
 *
 * @param accessKeyId the access key
 * @param scope the credential scope (not yet checked against the request)
 * @param signedHeaders the signed header names, lower-case, in the order given
 * @param signature the hex signature
 */
public record AuthorizationHeader(
    String accessKeyId, CredentialScope scope, List<String> signedHeaders, String signature) {

  /** Copies the list. */
  public AuthorizationHeader {
    signedHeaders = List.copyOf(signedHeaders);
  }

  /** The signed header names joined with {@code ;} as in the canonical request. */
  public String signedHeadersString() {
    return String.join(";", signedHeaders);
  }

  @Override
  public String toString() {
    return "AuthorizationHeader{" + accessKeyId + ", " + scope + ", " + signedHeaders + "}";
  }

  /**
   * Parses the header value of a SigV4 request (its algorithm already recognised).
   *
   * @throws S3Exception {@code AuthorizationHeaderMalformed} when a part is missing, repeated or
   *     malformed
   */
  public static AuthorizationHeader parse(String value) {
    String v = value.strip();
    if (!v.startsWith(SigV4.ALGORITHM + " ")) {
      throw malformed("the authorization header does not start with " + SigV4.ALGORITHM + ".");
    }
    String credential = null;
    String signedHeaders = null;
    String signature = null;
    for (String rawPart : v.substring(SigV4.ALGORITHM.length() + 1).split(",", -1)) {
      String part = rawPart.strip();
      int eq = part.indexOf('=');
      if (eq <= 0) {
        throw malformed("the authorization header has a malformed part.");
      }
      String name = part.substring(0, eq).strip();
      String partValue = part.substring(eq + 1).strip();
      switch (name) {
        case "Credential" -> {
          if (credential != null) {
            throw malformed("the authorization header repeats Credential.");
          }
          credential = partValue;
        }
        case "SignedHeaders" -> {
          if (signedHeaders != null) {
            throw malformed("the authorization header repeats SignedHeaders.");
          }
          signedHeaders = partValue;
        }
        case "Signature" -> {
          if (signature != null) {
            throw malformed("the authorization header repeats Signature.");
          }
          signature = partValue;
        }
        default -> throw malformed("the authorization header has an unknown part.");
      }
    }
    if (credential == null || signedHeaders == null || signature == null) {
      throw malformed("the authorization header requires Credential, SignedHeaders and Signature.");
    }
    Credential c = Credential.parse(credential, S3ErrorCode.AUTHORIZATION_HEADER_MALFORMED);
    return new AuthorizationHeader(
        c.accessKeyId(),
        c.scope(),
        parseSignedHeaders(signedHeaders, S3ErrorCode.AUTHORIZATION_HEADER_MALFORMED),
        signature);
  }

  /** Splits {@code a;b;c}; names are lower-cased, empty names are malformed. */
  static List<String> parseSignedHeaders(String value, S3ErrorCode onError) {
    List<String> names = new ArrayList<>();
    for (String n : value.split(";", -1)) {
      if (n.isEmpty()) {
        throw S3Exception.of(onError, "SignedHeaders is malformed.");
      }
      names.add(n.toLowerCase(Locale.ROOT));
    }
    return names;
  }

  private static S3Exception malformed(String message) {
    return S3Exception.of(S3ErrorCode.AUTHORIZATION_HEADER_MALFORMED, message);
  }

  /** A parsed {@code AK/date/region/service/aws4_request}. */
  record Credential(String accessKeyId, CredentialScope scope) {
    static Credential parse(String value, S3ErrorCode onError) {
      // The access key is everything before the last four parts, so a key containing '/' works.
      String[] parts = value.split("/", -1);
      if (parts.length < 5) {
        throw S3Exception.of(
            onError,
            "Error parsing the Credential parameter; the Credential is mal-formed; expecting"
                + " \"<YOUR-AKID>/YYYYMMDD/REGION/SERVICE/aws4_request\".");
      }
      int n = parts.length;
      String accessKey = String.join("/", java.util.Arrays.copyOf(parts, n - 4));
      String date = parts[n - 4];
      String region = parts[n - 3];
      String service = parts[n - 2];
      String terminator = parts[n - 1];
      if (accessKey.isEmpty() || region.isEmpty() || !isDate(date)) {
        throw S3Exception.of(
            onError,
            "Error parsing the Credential parameter; the Credential is mal-formed; expecting"
                + " \"<YOUR-AKID>/YYYYMMDD/REGION/SERVICE/aws4_request\".");
      }
      if (!CredentialScope.TERMINATOR.equals(terminator)) {
        throw S3Exception.of(
            onError,
            "The credential is mal-formed; expecting \"aws4_request\" but found \""
                + terminator
                + "\".");
      }
      if (!"s3".equals(service)) {
        throw S3Exception.of(
            onError,
            "The credential is mal-formed; incorrect service \""
                + service
                + "\"; expecting \"s3\".");
      }
      return new Credential(accessKey, new CredentialScope(date, region, service));
    }

    private static boolean isDate(String d) {
      if (d.length() != 8) {
        return false;
      }
      for (int i = 0; i < 8; i++) {
        if (d.charAt(i) < '0' || d.charAt(i) > '9') {
          return false;
        }
      }
      return true;
    }
  }
}
