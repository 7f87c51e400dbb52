package io.racs.proxy.s3.xml;

import io.racs.proxy.s3.error.S3Exception;
import java.util.Map;

/**
 * The one renderer of S3 error bodies: {@code <Error><Code/><Message/>...details...<Resource/>
 * <RequestId/></Error>}, without namespace, as S3 sends them. Every body is XML 1.0 that any parser
 * accepts: the message, details and resource may echo what the client sent (a key with NUL in it),
 * so characters XML 1.0 forbids are replaced ({@link XmlWriter#legalXml10}).
 */
public final class ErrorXml {
  private ErrorXml() {}

  /**
   * The error body for {@code error} and the request's id.
   *
   * @return UTF-8 XML, or an empty array for codes that have no body ({@code NotModified})
   */
  public static byte[] render(S3Exception error, String requestId) {
    if (!error.code().hasBody()) {
      return new byte[0];
    }
    XmlWriter w = XmlWriter.document().start("Error");
    w.element("Code", error.code().code());
    w.element("Message", XmlWriter.legalXml10(error.getMessage()));
    for (Map.Entry<String, String> d : error.details().entrySet()) {
      w.element(d.getKey(), XmlWriter.legalXml10(d.getValue()));
    }
    w.optional(
        "Resource", error.resource() == null ? null : XmlWriter.legalXml10(error.resource()));
    w.optional("RequestId", requestId);
    return w.toBytes();
  }
}
