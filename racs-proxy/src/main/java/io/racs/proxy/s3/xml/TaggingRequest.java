package io.racs.proxy.s3.xml;

import static io.racs.proxy.s3.xml.SafeXmlParser.malformed;
import static io.racs.proxy.s3.xml.SafeXmlParser.nextChild;
import static io.racs.proxy.s3.xml.SafeXmlParser.skip;

import io.racs.proxy.s3.error.S3Exception;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * The body of PutObjectTagging and PutBucketTagging, and a form's {@code tagging} field ({@code
 * Tagging}). Thread-safe.
 */
public final class TaggingRequest {
  private TaggingRequest() {}

  /**
   * The tags of a {@code Tagging} document as key and value pairs in document order, not yet
   * validated (see {@code TagSet}). Keys and values are kept exactly, whitespace included.
   *
   * @throws S3Exception {@code MalformedXML} for a bad document, one without {@code TagSet}, or a
   *     {@code Tag} without {@code Key} or {@code Value}
   */
  public static List<Map.Entry<String, String>> parse(byte[] body) {
    List<Map.Entry<String, String>> tags = new ArrayList<>();
    boolean tagSet =
        SafeXmlParser.parse(
            body,
            SafeXmlParser.SMALL_MAX_BODY_BYTES,
            "Tagging",
            r -> {
              boolean seen = false;
              while (nextChild(r)) {
                if (!r.getLocalName().equals("TagSet") || seen) {
                  skip(r);
                  continue;
                }
                seen = true;
                tagSet(r, tags);
              }
              return seen;
            });
    if (!tagSet) {
      throw malformed();
    }
    return tags;
  }

  private static void tagSet(XMLStreamReader r, List<Map.Entry<String, String>> tags)
      throws XMLStreamException {
    while (nextChild(r)) {
      if (!r.getLocalName().equals("Tag")) {
        skip(r);
        continue;
      }
      String key = null;
      String value = null;
      while (nextChild(r)) {
        switch (r.getLocalName()) {
          case "Key" -> key = r.getElementText();
          case "Value" -> value = r.getElementText();
          default -> skip(r);
        }
      }
      if (key == null || value == null || tags.size() > 1000) {
        throw malformed();
      }
      tags.add(Map.entry(key, value));
    }
  }
}
