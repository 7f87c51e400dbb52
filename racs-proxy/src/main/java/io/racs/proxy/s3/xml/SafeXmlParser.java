package io.racs.proxy.s3.xml;

import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import java.io.ByteArrayInputStream;
import javax.xml.XMLConstants;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * The one secure way the S3 request documents are read: no DTDs, no external entities (so no XXE
 * and no entity expansion), a cap on the body size, any namespace or none on the elements (clients
 * differ on {@code xmlns="http://s3.amazonaws.com/doc/2006-03-01/"}). Malformed documents are
 * {@code MalformedXML}; bodies over the cap are {@code MaxMessageLengthExceeded}. Each request body
 * has its own class that walks its elements with {@link #nextChild} and {@link #skip} inside {@link
 * #parse}. Thread-safe.
 */
public final class SafeXmlParser {
  /** The largest request document accepted by default: 8 MiB (a 1,000-key delete fits). */
  public static final int DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024;

  /** The cap of the small configuration documents (tagging, CORS, versioning...): 64 KiB. */
  public static final int SMALL_MAX_BODY_BYTES = 64 * 1024;

  private static final XMLInputFactory FACTORY = secureFactory();

  private SafeXmlParser() {}

  /**
   * Reads the children of a document's root element.
   *
   * @param <T> what the body's reader collects
   */
  @FunctionalInterface
  public interface RootReader<T> {
    /**
     * Reads from just after the root's start tag up to and including its end tag.
     *
     * @throws XMLStreamException for a bad document (answered {@code MalformedXML})
     */
    T read(XMLStreamReader r) throws XMLStreamException;
  }

  /**
   * Parses {@code body}, whose root element must be named {@code root}, with {@code reader}; after
   * the root only comments and whitespace may follow.
   *
   * @throws S3Exception {@code MaxMessageLengthExceeded} over {@code maxBodyBytes}, {@code
   *     MalformedXML} for a blank body or a bad document, or whatever {@code reader} throws
   */
  public static <T> T parse(byte[] body, int maxBodyBytes, String root, RootReader<T> reader) {
    XMLStreamReader r = open(body, maxBodyBytes, root);
    try {
      T read = reader.read(r);
      finish(r);
      return read;
    } catch (XMLStreamException e) {
      throw S3Exception.of(S3ErrorCode.MALFORMED_XML, null, e);
    } catch (RuntimeException e) {
      throw unchecked(e);
    }
  }

  private static XMLInputFactory secureFactory() {
    XMLInputFactory f = XMLInputFactory.newFactory();
    f.setProperty(XMLInputFactory.SUPPORT_DTD, false);
    f.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
    f.setProperty(XMLInputFactory.IS_NAMESPACE_AWARE, true);
    f.setProperty(XMLInputFactory.IS_COALESCING, true);
    trySet(f, XMLConstants.ACCESS_EXTERNAL_DTD, "");
    trySet(f, XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
    return f;
  }

  private static void trySet(XMLInputFactory f, String property, Object value) {
    try {
      f.setProperty(property, value);
    } catch (IllegalArgumentException e) {
      // Not every StAX implementation knows the JAXP 1.5 properties; the flags above suffice.
    }
  }

  private static XMLStreamReader open(byte[] body, int maxBodyBytes, String root) {
    if (body.length > maxBodyBytes) {
      throw S3Exception.of(S3ErrorCode.MAX_MESSAGE_LENGTH_EXCEEDED);
    }
    if (isBlank(body)) {
      throw malformed();
    }
    try {
      XMLStreamReader r = FACTORY.createXMLStreamReader(new ByteArrayInputStream(body));
      while (r.hasNext()) {
        int e = r.next();
        if (e == XMLStreamConstants.DTD || e == XMLStreamConstants.ENTITY_REFERENCE) {
          throw malformed();
        }
        if (e == XMLStreamConstants.START_ELEMENT) {
          if (!r.getLocalName().equals(root)) {
            throw malformed();
          }
          return r;
        }
      }
      throw malformed();
    } catch (XMLStreamException e) {
      throw S3Exception.of(S3ErrorCode.MALFORMED_XML, null, e);
    } catch (RuntimeException e) {
      throw unchecked(e);
    }
  }

  /**
   * Advances to the next child element of the current element; false at its end tag. Text between
   * elements must be whitespace.
   */
  public static boolean nextChild(XMLStreamReader r) throws XMLStreamException {
    while (r.hasNext()) {
      int e = r.next();
      switch (e) {
        case XMLStreamConstants.START_ELEMENT -> {
          return true;
        }
        case XMLStreamConstants.END_ELEMENT -> {
          return false;
        }
        case XMLStreamConstants.CHARACTERS, XMLStreamConstants.CDATA -> {
          if (!r.isWhiteSpace() && !r.getText().isBlank()) {
            throw malformed();
          }
        }
        case XMLStreamConstants.DTD, XMLStreamConstants.ENTITY_REFERENCE -> throw malformed();
        default -> {
          // Comments, processing instructions, whitespace.
        }
      }
    }
    throw malformed();
  }

  /** Skips the current element and everything in it. */
  public static void skip(XMLStreamReader r) throws XMLStreamException {
    int depth = 1;
    while (depth > 0) {
      int e = r.next();
      if (e == XMLStreamConstants.START_ELEMENT) {
        depth++;
      } else if (e == XMLStreamConstants.END_ELEMENT) {
        depth--;
      } else if (e == XMLStreamConstants.ENTITY_REFERENCE || e == XMLStreamConstants.DTD) {
        throw malformed();
      }
    }
  }

  /** After the root's end tag: only comments and whitespace may follow. */
  private static void finish(XMLStreamReader r) throws XMLStreamException {
    while (r.hasNext()) {
      int e = r.next();
      if (e == XMLStreamConstants.START_ELEMENT || e == XMLStreamConstants.DTD) {
        throw malformed();
      }
    }
    r.close();
  }

  /** True for a body of nothing but spaces, tabs and line ends. */
  public static boolean isBlank(byte[] body) {
    for (byte b : body) {
      if (b != ' ' && b != '\n' && b != '\r' && b != '\t') {
        return false;
      }
    }
    return true;
  }

  /**
   * An unchecked failure inside a parse: our own S3 errors pass; anything else comes from the StAX
   * parser, which throws more than {@link XMLStreamException} on some malformed input (the JDK's
   * reports a skipped DTD with a bad character as a {@code MissingResourceException}), and is
   * {@code MalformedXML} too.
   */
  private static S3Exception unchecked(RuntimeException e) {
    return e instanceof S3Exception s3 ? s3 : S3Exception.of(S3ErrorCode.MALFORMED_XML, null, e);
  }

  /** The {@code MalformedXML} error, for a document that breaks its body's rules. */
  public static S3Exception malformed() {
    return S3Exception.of(S3ErrorCode.MALFORMED_XML);
  }
}
