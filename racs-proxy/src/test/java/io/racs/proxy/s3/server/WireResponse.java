package io.racs.proxy.s3.server;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;

/**
 * One HTTP response read from raw bytes: status, headers (names lower-case) and the body its {@code
 * Content-Length} announces (none for 1xx).
 */
record WireResponse(int status, Map<String, String> headers, byte[] body) {
  /**
   * Reads the next response, or returns null when the stream ends before its first byte (the server
   * closed the connection).
   */
  static WireResponse read(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int matched = 0;
    while (matched < 4) {
      int b = in.read();
      if (b < 0) {
        if (head.size() == 0) {
          return null;
        }
        throw new IOException("connection closed in a response head: " + head);
      }
      head.write(b);
      matched = (b == "\r\n\r\n".charAt(matched)) ? matched + 1 : (b == '\r' ? 1 : 0);
    }
    String[] lines = head.toString(StandardCharsets.ISO_8859_1).split("\r\n");
    int status = Integer.parseInt(lines[0].split(" ")[1]);
    Map<String, String> headers = new LinkedHashMap<>();
    for (int i = 1; i < lines.length; i++) {
      int colon = lines[i].indexOf(':');
      headers.put(
          lines[i].substring(0, colon).toLowerCase(Locale.ROOT),
          lines[i].substring(colon + 1).strip());
    }
    byte[] body = new byte[0];
    if (status >= 200 && headers.containsKey("content-length")) {
      int length = Integer.parseInt(headers.get("content-length"));
      body = in.readNBytes(length);
      if (body.length < length) {
        throw new IOException("connection closed in a response body: " + body.length);
      }
    }
    return new WireResponse(status, headers, body);
  }

  String text() {
    return new String(body, StandardCharsets.UTF_8);
  }

  /** The body parsed by the JDK's XML parser, which refuses anything that is not XML 1.0. */
  Document xml() {
    try {
      DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
      factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      return factory.newDocumentBuilder().parse(new ByteArrayInputStream(body));
    } catch (Exception e) {
      throw new AssertionError("not well-formed XML: " + text(), e);
    }
  }

  /** The text of the first element named {@code name} in the XML body. */
  String xmlText(String name) {
    return xml().getElementsByTagName(name).item(0).getTextContent();
  }

  /** The S3 error code of an error body. */
  String errorCode() {
    return xmlText("Code");
  }

  @Override
  public String toString() {
    return status + " " + headers + " " + text();
  }
}
