package io.racs.proxy.s3.objectlock;

import static io.racs.proxy.s3.xml.SafeXmlParser.malformed;
import static io.racs.proxy.s3.xml.SafeXmlParser.nextChild;

import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.xml.SafeXmlParser;
import io.racs.proxy.s3.xml.XmlWriter;
import java.time.Instant;

/** The {@code Retention} and {@code LegalHold} documents of one version. */
public final class LockDocuments {
  /**
   * A version's retention as PutObjectRetention sends it; both null removes it.
   *
   * @param mode {@code GOVERNANCE} or {@code COMPLIANCE}
   * @param retainUntil its end
   */
  public record Retention(String mode, Instant retainUntil) {}

  private LockDocuments() {}

  /**
   * Parses a PutObjectRetention body.
   *
   * @throws io.racs.proxy.s3.error.S3Exception {@code MalformedXML} for a bad document, an unknown
   *     mode, a date that does not parse, or only one of mode and date
   */
  public static Retention parseRetention(byte[] body) {
    Retention parsed =
        SafeXmlParser.parse(
            body,
            SafeXmlParser.SMALL_MAX_BODY_BYTES,
            "Retention",
            r -> {
              String mode = null;
              String until = null;
              while (nextChild(r)) {
                switch (r.getLocalName()) {
                  case "Mode" -> mode = r.getElementText().strip();
                  case "RetainUntilDate" -> until = r.getElementText().strip();
                  default -> throw malformed();
                }
              }
              if ((mode == null) != (until == null)
                  || (mode != null && !LockHeaders.validMode(mode))) {
                throw malformed();
              }
              return new Retention(
                  mode, until == null ? null : LockHeaders.date(until, S3ErrorCode.MALFORMED_XML));
            });
    return parsed;
  }

  /**
   * Parses a PutObjectLegalHold body: true for {@code ON}.
   *
   * @throws io.racs.proxy.s3.error.S3Exception {@code MalformedXML} for a bad document or a status
   *     other than {@code ON} and {@code OFF}
   */
  public static boolean parseLegalHold(byte[] body) {
    String status =
        SafeXmlParser.parse(
            body,
            SafeXmlParser.SMALL_MAX_BODY_BYTES,
            "LegalHold",
            r -> {
              String s = null;
              while (nextChild(r)) {
                if (!r.getLocalName().equals("Status")) {
                  throw malformed();
                }
                s = r.getElementText().strip();
              }
              return s;
            });
    if (!"ON".equals(status) && !"OFF".equals(status)) {
      throw malformed();
    }
    return status.equals("ON");
  }

  /** The GetObjectRetention answer. */
  public static byte[] retentionXml(String mode, Instant retainUntil) {
    return XmlWriter.document()
        .root("Retention")
        .element("Mode", mode)
        .element("RetainUntilDate", LockHeaders.format(retainUntil))
        .end()
        .toBytes();
  }

  /** The GetObjectLegalHold answer. */
  public static byte[] legalHoldXml(boolean on) {
    return XmlWriter.document()
        .root("LegalHold")
        .element("Status", on ? "ON" : "OFF")
        .end()
        .toBytes();
  }
}
