package io.racs.proxy.s3.xml;

import static io.racs.proxy.s3.xml.SafeXmlParser.malformed;
import static io.racs.proxy.s3.xml.SafeXmlParser.nextChild;
import static io.racs.proxy.s3.xml.SafeXmlParser.skip;

import io.racs.proxy.s3.cors.CorsConfiguration;
import io.racs.proxy.s3.cors.CorsRule;
import io.racs.proxy.s3.error.S3Exception;
import java.util.ArrayList;
import java.util.List;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/** The body of a PutBucketCors request ({@code CORSConfiguration}). Thread-safe. */
public final class CorsRequest {
  private CorsRequest() {}

  /**
   * The rules of a PutBucketCors body, validated.
   *
   * @throws S3Exception {@code MalformedXML} (a bad document, no rule, more than 100, a rule
   *     without origin or method, a bad {@code MaxAgeSeconds}), {@code InvalidRequest} as {@link
   *     CorsRule#validate()}
   */
  public static CorsConfiguration parse(byte[] body) {
    List<CorsRule> rules =
        SafeXmlParser.parse(
            body,
            SafeXmlParser.SMALL_MAX_BODY_BYTES,
            "CORSConfiguration",
            r -> {
              List<CorsRule> read = new ArrayList<>();
              while (nextChild(r)) {
                if (!r.getLocalName().equals("CORSRule")) {
                  skip(r);
                  continue;
                }
                if (read.size() == CorsConfiguration.MAX_RULES) {
                  throw malformed();
                }
                read.add(rule(r));
              }
              return read;
            });
    return CorsConfiguration.of(rules);
  }

  private static CorsRule rule(XMLStreamReader r) throws XMLStreamException {
    String id = null;
    Integer maxAge = null;
    List<String> origins = new ArrayList<>();
    List<String> methods = new ArrayList<>();
    List<String> headers = new ArrayList<>();
    List<String> expose = new ArrayList<>();
    while (nextChild(r)) {
      switch (r.getLocalName()) {
        case "ID" -> id = r.getElementText().strip();
        case "AllowedOrigin" -> origins.add(r.getElementText().strip());
        case "AllowedMethod" -> methods.add(r.getElementText().strip());
        case "AllowedHeader" -> headers.add(r.getElementText().strip());
        case "ExposeHeader" -> expose.add(r.getElementText().strip());
        case "MaxAgeSeconds" -> {
          try {
            maxAge = Integer.valueOf(r.getElementText().strip());
          } catch (NumberFormatException e) {
            throw malformed();
          }
        }
        default -> skip(r);
      }
    }
    return new CorsRule(id, origins, methods, headers, expose, maxAge);
  }
}
