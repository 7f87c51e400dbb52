package io.racs.proxy.s3.xml;

import static io.racs.proxy.s3.xml.SafeXmlParser.malformed;
import static io.racs.proxy.s3.xml.SafeXmlParser.nextChild;

import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;

/** The body of a PutBucketVersioning request ({@code VersioningConfiguration}). Thread-safe. */
public final class VersioningRequest {
  private VersioningRequest() {}

  /**
   * The {@code Status} of a PutBucketVersioning body ({@code Enabled} or {@code Suspended}).
   *
   * @throws S3Exception {@code MalformedXML} for a bad document or a missing or unknown status,
   *     {@code NotImplemented} when it turns {@code MfaDelete} on, which the proxy does not
   *     implement ({@code Disabled} is accepted: it is what the bucket already is)
   */
  public static String parse(byte[] body) {
    String status =
        SafeXmlParser.parse(
            body,
            SafeXmlParser.SMALL_MAX_BODY_BYTES,
            "VersioningConfiguration",
            r -> {
              String s = null;
              while (nextChild(r)) {
                switch (r.getLocalName()) {
                  case "Status" -> s = r.getElementText().strip();
                  case "MfaDelete" -> mfaDelete(r.getElementText().strip());
                  default -> throw malformed();
                }
              }
              return s;
            });
    if (!"Enabled".equals(status) && !"Suspended".equals(status)) {
      throw malformed();
    }
    return status;
  }

  private static void mfaDelete(String mfaDelete) {
    // Disabled asks for what every bucket here is (boto3 and the s3-tests send it beside
    // Enabled); only turning MFA delete on asks for something the proxy does not do.
    if (mfaDelete.equals("Enabled")) {
      throw S3Exception.of(S3ErrorCode.NOT_IMPLEMENTED, "MFA delete is not implemented.");
    }
    if (!mfaDelete.equals("Disabled")) {
      throw malformed();
    }
  }
}
