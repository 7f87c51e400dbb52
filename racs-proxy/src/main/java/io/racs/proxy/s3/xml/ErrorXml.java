package io.racs.proxy.s3.xml;

import io.racs.proxy.s3.error.S3Exception;
import java.util.Map;

/**
 * The one renderer of S3 error bodies: {@code <Error><Code/><Message/>...details...<Resource/>
 * <RequestId/></Error>}, without namespace, as S3 sends them.
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
    w.element("Message", error.getMessage());
    for (Map.Entry<String, String> d : error.details().entrySet()) {
      w.element(d.getKey(), d.getValue());
    }
    w.optional("Resource", error.resource());
    w.optional("RequestId", requestId);
    return w.toBytes();
  }
}
