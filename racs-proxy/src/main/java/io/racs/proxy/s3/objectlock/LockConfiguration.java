package io.racs.proxy.s3.objectlock;

import static io.racs.proxy.s3.xml.SafeXmlParser.malformed;
import static io.racs.proxy.s3.xml.SafeXmlParser.nextChild;

import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.s3.xml.SafeXmlParser;
import io.racs.proxy.s3.xml.XmlWriter;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * A bucket's object lock configuration ({@code ObjectLockConfiguration}): object lock enabled, and
 * optionally a default retention in days or years. Immutable.
 *
 * @param mode the default retention's mode; null without a default retention
 * @param days the default retention in days (0 when given in years)
 * @param years the default retention in years (0 when given in days)
 */
public record LockConfiguration(String mode, int days, int years) {
  /** Enabled, no default retention. */
  public static final LockConfiguration ENABLED = new LockConfiguration(null, 0, 0);

  private static final int MAX_DAYS = 36_500;
  private static final int MAX_YEARS = 100;

  /**
   * Parses a PutObjectLockConfiguration body.
   *
   * @throws S3Exception {@code MalformedXML} for a bad document, an {@code ObjectLockEnabled} other
   *     than {@code Enabled}, a mode other than {@code GOVERNANCE} or {@code COMPLIANCE}, or a
   *     default retention with both or neither of {@code Days} and {@code Years}; {@code
   *     InvalidRetentionPeriod} for a period that is not positive or over 100 years
   */
  public static LockConfiguration parse(byte[] body) {
    LockConfiguration parsed =
        SafeXmlParser.parse(
            body, SafeXmlParser.SMALL_MAX_BODY_BYTES, "ObjectLockConfiguration", r -> read(r));
    return parsed;
  }

  private static LockConfiguration read(XMLStreamReader r) throws XMLStreamException {
    String enabled = null;
    LockConfiguration rule = ENABLED;
    while (nextChild(r)) {
      switch (r.getLocalName()) {
        case "ObjectLockEnabled" -> enabled = r.getElementText().strip();
        case "Rule" -> rule = readRule(r);
        default -> throw malformed();
      }
    }
    if (!"Enabled".equals(enabled)) {
      throw malformed();
    }
    return rule;
  }

  private static LockConfiguration readRule(XMLStreamReader r) throws XMLStreamException {
    LockConfiguration rule = null;
    while (nextChild(r)) {
      if (!r.getLocalName().equals("DefaultRetention") || rule != null) {
        throw malformed();
      }
      String mode = null;
      Long days = null;
      Long years = null;
      while (nextChild(r)) {
        switch (r.getLocalName()) {
          case "Mode" -> mode = r.getElementText().strip();
          case "Days" -> days = number(r.getElementText());
          case "Years" -> years = number(r.getElementText());
          default -> throw malformed();
        }
      }
      if (!LockHeaders.validMode(mode) || (days == null) == (years == null)) {
        throw malformed();
      }
      long period = days != null ? days : years;
      if (period <= 0 || period > (days != null ? MAX_DAYS : MAX_YEARS)) {
        throw S3Exception.of(S3ErrorCode.INVALID_RETENTION_PERIOD);
      }
      rule =
          days != null
              ? new LockConfiguration(mode, (int) period, 0)
              : new LockConfiguration(mode, 0, (int) period);
    }
    if (rule == null) {
      throw malformed();
    }
    return rule;
  }

  private static long number(String text) {
    try {
      return Long.parseLong(text.strip());
    } catch (NumberFormatException e) {
      throw malformed();
    }
  }

  /** The document stored and answered by GetObjectLockConfiguration. */
  public byte[] toXml() {
    XmlWriter w = XmlWriter.document().root("ObjectLockConfiguration");
    w.element("ObjectLockEnabled", "Enabled");
    if (mode != null) {
      w.start("Rule").start("DefaultRetention").element("Mode", mode);
      if (days > 0) {
        w.element("Days", days);
      } else {
        w.element("Years", years);
      }
      w.end().end();
    }
    return w.end().toBytes();
  }

  /** {@link #toXml} as text, the form the store keeps. */
  public String toDocument() {
    return new String(toXml(), StandardCharsets.UTF_8);
  }

  /** The end of the default retention of a version written at {@code start}; null without one. */
  public Instant retainUntil(Instant start) {
    if (mode == null) {
      return null;
    }
    return days > 0
        ? start.plusSeconds(86_400L * days)
        : start.atOffset(ZoneOffset.UTC).plusYears(years).toInstant();
  }
}
