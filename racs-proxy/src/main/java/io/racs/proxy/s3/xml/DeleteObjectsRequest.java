package io.racs.proxy.s3.xml;

import static io.racs.proxy.s3.xml.SafeXmlParser.malformed;
import static io.racs.proxy.s3.xml.SafeXmlParser.nextChild;
import static io.racs.proxy.s3.xml.SafeXmlParser.skip;

import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.s3.xml.XmlModel.DeleteRequest;
import io.racs.proxy.s3.xml.XmlModel.ObjectIdentifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/** The body of a DeleteObjects request ({@code Delete}): the keys to delete. Thread-safe. */
public final class DeleteObjectsRequest {
  /** The most keys of one DeleteObjects request. */
  public static final int MAX_DELETE_OBJECTS = 1_000;

  private DeleteObjectsRequest() {}

  /**
   * A DeleteObjects body: {@code Quiet} and 1 to 1,000 {@code Object}s, each with a {@code Key}
   * (kept exactly, whitespace included), an optional {@code VersionId} and optional conditions
   * ({@code ETag}; {@code LastModifiedTime} and {@code Size} are noted as unsupported).
   *
   * @throws S3Exception {@code MalformedXML} for no objects, too many, an object without key, or a
   *     bad document
   */
  public static DeleteRequest parse(byte[] body, int maxBodyBytes) {
    List<ObjectIdentifier> objects = new ArrayList<>();
    boolean quiet =
        SafeXmlParser.parse(
            body,
            maxBodyBytes,
            "Delete",
            r -> {
              boolean q = false;
              while (nextChild(r)) {
                String name = r.getLocalName();
                if (name.equals("Quiet")) {
                  q = quiet(r.getElementText());
                } else if (name.equals("Object")) {
                  if (objects.size() == MAX_DELETE_OBJECTS) {
                    throw malformed();
                  }
                  objects.add(object(r));
                } else {
                  skip(r);
                }
              }
              return q;
            });
    if (objects.isEmpty()) {
      throw malformed();
    }
    return new DeleteRequest(quiet, objects);
  }

  /** {@link #parse(byte[], int)} with the default cap. */
  public static DeleteRequest parse(byte[] body) {
    return parse(body, SafeXmlParser.DEFAULT_MAX_BODY_BYTES);
  }

  private static boolean quiet(String text) {
    String q = text.strip().toLowerCase(Locale.ROOT);
    if (!q.equals("true") && !q.equals("false")) {
      throw malformed();
    }
    return q.equals("true");
  }

  private static ObjectIdentifier object(XMLStreamReader r) throws XMLStreamException {
    String key = null;
    String versionId = null;
    String etag = null;
    String unsupported = null;
    while (nextChild(r)) {
      switch (r.getLocalName()) {
        case "Key" -> key = r.getElementText();
        case "VersionId" -> versionId = r.getElementText().strip();
        case "ETag" -> etag = r.getElementText().strip();
        case "LastModifiedTime", "Size" -> {
          unsupported = r.getLocalName();
          skip(r);
        }
        default -> skip(r);
      }
    }
    if (key == null) {
      throw malformed();
    }
    return new ObjectIdentifier(
        key, versionId == null || versionId.isEmpty() ? null : versionId, etag, unsupported);
  }
}
