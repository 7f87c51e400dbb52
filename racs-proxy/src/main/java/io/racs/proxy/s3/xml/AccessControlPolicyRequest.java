package io.racs.proxy.s3.xml;

import static io.racs.proxy.s3.xml.SafeXmlParser.malformed;
import static io.racs.proxy.s3.xml.SafeXmlParser.nextChild;
import static io.racs.proxy.s3.xml.SafeXmlParser.skip;

import io.racs.proxy.s3.error.S3Exception;
import java.util.ArrayList;
import java.util.List;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/** The body of PutBucketAcl and PutObjectAcl ({@code AccessControlPolicy}). Thread-safe. */
public final class AccessControlPolicyRequest {
  private static final String XSI = "http://www.w3.org/2001/XMLSchema-instance";

  private AccessControlPolicyRequest() {}

  /**
   * An AccessControlPolicy body: the owner's ID and each grant's grantee and permission, as sent;
   * whether they can be honoured is the handler's call.
   *
   * @throws S3Exception {@code MalformedXML} for a bad document, no {@code AccessControlList}, or a
   *     grant without grantee or permission
   */
  public static XmlModel.AccessControlPolicy parse(byte[] body) {
    String[] ownerId = {null};
    List<XmlModel.Grant> grants =
        SafeXmlParser.parse(
            body,
            SafeXmlParser.DEFAULT_MAX_BODY_BYTES,
            "AccessControlPolicy",
            r -> {
              List<XmlModel.Grant> read = null;
              while (nextChild(r)) {
                String name = r.getLocalName();
                if (name.equals("Owner")) {
                  String id = ownerId(r);
                  ownerId[0] = id == null ? ownerId[0] : id;
                } else if (name.equals("AccessControlList")) {
                  read = new ArrayList<>();
                  while (nextChild(r)) {
                    if (!r.getLocalName().equals("Grant")) {
                      skip(r);
                      continue;
                    }
                    read.add(grant(r));
                  }
                } else {
                  skip(r);
                }
              }
              return read;
            });
    if (grants == null) {
      throw malformed();
    }
    return new XmlModel.AccessControlPolicy(ownerId[0], grants);
  }

  private static String ownerId(XMLStreamReader r) throws XMLStreamException {
    String id = null;
    while (nextChild(r)) {
      if (r.getLocalName().equals("ID")) {
        id = r.getElementText().strip();
      } else {
        skip(r);
      }
    }
    return id;
  }

  private static XmlModel.Grant grant(XMLStreamReader r) throws XMLStreamException {
    String type = null;
    String id = null;
    String uri = null;
    String email = null;
    String permission = null;
    boolean grantee = false;
    while (nextChild(r)) {
      String name = r.getLocalName();
      if (name.equals("Grantee")) {
        grantee = true;
        type = r.getAttributeValue(XSI, "type");
        while (nextChild(r)) {
          switch (r.getLocalName()) {
            case "ID" -> id = r.getElementText().strip();
            case "URI" -> uri = r.getElementText().strip();
            case "EmailAddress" -> email = r.getElementText().strip();
            default -> skip(r);
          }
        }
      } else if (name.equals("Permission")) {
        permission = r.getElementText().strip();
      } else {
        skip(r);
      }
    }
    if (!grantee || permission == null) {
      throw malformed();
    }
    return new XmlModel.Grant(type, id, uri, email, permission);
  }
}
