package io.racs.proxy.s3.xml;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Writes a small XML document the way S3 writes its responses: UTF-8, declaration first, text
 * escaped with {@code &amp; &lt; &gt; &quot; &apos;}, and control characters as numeric character
 * references. Tab, line feed and carriage return become {@code &#x9; &#xA; &#xD;} so parsers keep
 * them; the other C0 controls (and U+FFFE, U+FFFF) are written as references too, as S3 does,
 * although XML 1.0 forbids them: clients that cannot parse them ask for {@code encoding-type=url}.
 * Not thread-safe.
 */
public final class XmlWriter {
  /** The namespace of every S3 response document. */
  public static final String S3_NAMESPACE = "http://s3.amazonaws.com/doc/2006-03-01/";

  private final StringBuilder out = new StringBuilder(512);
  private final Deque<String> open = new ArrayDeque<>();

  private XmlWriter() {
    out.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>");
  }

  /** A new document. */
  public static XmlWriter document() {
    return new XmlWriter();
  }

  /** Opens the root element in the S3 namespace. */
  public XmlWriter root(String name) {
    out.append('<').append(name).append(" xmlns=\"").append(S3_NAMESPACE).append("\">");
    open.push(name);
    return this;
  }

  /** Opens an element. */
  public XmlWriter start(String name) {
    out.append('<').append(name).append('>');
    open.push(name);
    return this;
  }

  /**
   * Opens an element with attributes, given as name and value pairs (values escaped), such as the
   * {@code xmlns:xsi} and {@code xsi:type} of an ACL's {@code Grantee}.
   */
  public XmlWriter start(String name, String... attributes) {
    out.append('<').append(name);
    for (int i = 0; i + 1 < attributes.length; i += 2) {
      out.append(' ').append(attributes[i]).append("=\"");
      escape(attributes[i + 1], out);
      out.append('"');
    }
    out.append('>');
    open.push(name);
    return this;
  }

  /** Closes the innermost open element. */
  public XmlWriter end() {
    out.append("</").append(open.pop()).append('>');
    return this;
  }

  /** Writes {@code <name>text</name>}, or {@code <name></name>} for empty text. */
  public XmlWriter element(String name, String text) {
    out.append('<').append(name).append('>');
    escape(text, out);
    out.append("</").append(name).append('>');
    return this;
  }

  /** Writes the element only when {@code text} is not {@code null}. */
  public XmlWriter optional(String name, String text) {
    return text == null ? this : element(name, text);
  }

  /** Writes escaped text inside the innermost open element. */
  public XmlWriter text(String text) {
    escape(text, out);
    return this;
  }

  /** Writes a number element. */
  public XmlWriter element(String name, long value) {
    return element(name, Long.toString(value));
  }

  /** Writes a boolean element ({@code true}/{@code false}). */
  public XmlWriter element(String name, boolean value) {
    return element(name, Boolean.toString(value));
  }

  /** Closes every open element and returns the UTF-8 bytes. */
  public byte[] toBytes() {
    while (!open.isEmpty()) {
      end();
    }
    return out.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** Escapes {@code text} for element content or a double-quoted attribute. */
  public static String escape(String text) {
    StringBuilder b = new StringBuilder(text.length() + 16);
    escape(text, b);
    return b.toString();
  }

  /**
   * {@code text} with every character XML 1.0 forbids replaced by U+FFFD (the replacement
   * character): NUL and the other C0 controls except tab, line feed and carriage return, U+FFFE,
   * U+FFFF, and unpaired surrogates. For text that must reach every client as parseable XML even
   * where it cannot stay exact, such as a key echoed in an error body: {@link #escape} keeps such
   * characters as references for listings, where S3 clients ask for {@code encoding-type=url}
   * instead, but an error body has no such option and a client that cannot parse it cannot report
   * the error.
   */
  public static String legalXml10(String text) {
    StringBuilder b = null;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isHighSurrogate(c)
          && i + 1 < text.length()
          && Character.isLowSurrogate(text.charAt(i + 1))) {
        if (b != null) {
          b.append(c).append(text.charAt(i + 1));
        }
        i++;
        continue;
      }
      boolean legal =
          (c >= 0x20 || c == '\t' || c == '\n' || c == '\r')
              && !Character.isSurrogate(c)
              && c != 0xFFFE
              && c != 0xFFFF;
      if (!legal && b == null) {
        b = new StringBuilder(text.length()).append(text, 0, i);
      }
      if (b != null) {
        b.append(legal ? c : '\uFFFD');
      }
    }
    return b == null ? text : b.toString();
  }

  private static void escape(String text, StringBuilder b) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '&' -> b.append("&amp;");
        case '<' -> b.append("&lt;");
        case '>' -> b.append("&gt;");
        case '"' -> b.append("&quot;");
        case '\'' -> b.append("&apos;");
        default -> {
          if (c < 0x20 || c == 0x7F || c == 0xFFFE || c == 0xFFFF) {
            b.append("&#x")
                .append(Integer.toHexString(c).toUpperCase(java.util.Locale.ROOT))
                .append(';');
          } else if (Character.isSurrogate(c)) {
            if (Character.isHighSurrogate(c)
                && i + 1 < text.length()
                && Character.isLowSurrogate(text.charAt(i + 1))) {
              b.append(c).append(text.charAt(++i));
            } else {
              b.append('\uFFFD');
            }
          } else {
            b.append(c);
          }
        }
      }
    }
  }
}
