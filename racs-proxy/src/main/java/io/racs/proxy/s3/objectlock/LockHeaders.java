package io.racs.proxy.s3.objectlock;

import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Optional;

/**
 * The object lock of a write as its headers ask ({@code x-amz-object-lock-mode}, {@code
 * x-amz-object-lock-retain-until-date}, {@code x-amz-object-lock-legal-hold}), and the lock headers
 * of HEAD and GET.
 */
public final class LockHeaders {
  public static final String MODE = "x-amz-object-lock-mode";
  public static final String RETAIN_UNTIL = "x-amz-object-lock-retain-until-date";
  public static final String LEGAL_HOLD = "x-amz-object-lock-legal-hold";
  public static final String BYPASS = "x-amz-bypass-governance-retention";

  /**
   * What a write's headers ask.
   *
   * @param mode the retention's mode, null for none
   * @param retainUntil its end, null for none
   * @param legalHold the legal hold, null when the header is absent
   */
  public record Requested(String mode, Instant retainUntil, Boolean legalHold) {
    /** True when no lock header was sent. */
    public boolean none() {
      return mode == null && legalHold == null;
    }
  }

  private LockHeaders() {}

  /** True for {@code GOVERNANCE} and {@code COMPLIANCE} (case matters, as in S3). */
  public static boolean validMode(String mode) {
    return "GOVERNANCE".equals(mode) || "COMPLIANCE".equals(mode);
  }

  /**
   * Parses a write's lock headers, given as {@code header(name)}.
   *
   * @throws S3Exception {@code InvalidArgument} when only one of mode and date is given, for an
   *     unknown mode or legal-hold status, a date that does not parse, or one not in the future
   */
  public static Requested parse(
      java.util.function.Function<String, Optional<String>> header, Instant now) {
    Optional<String> mode = header.apply(MODE).map(String::strip);
    Optional<String> until = header.apply(RETAIN_UNTIL).map(String::strip);
    Optional<String> hold = header.apply(LEGAL_HOLD).map(String::strip);
    if (mode.isPresent() != until.isPresent()) {
      throw invalid(
          "x-amz-object-lock-retain-until-date and x-amz-object-lock-mode must both be supplied");
    }
    Instant retainUntil = null;
    if (mode.isPresent()) {
      if (!validMode(mode.get())) {
        throw invalid("Unknown wormMode directive.");
      }
      retainUntil = date(until.get(), S3ErrorCode.INVALID_ARGUMENT);
      if (!retainUntil.isAfter(now)) {
        throw invalid("The retain until date must be in the future!");
      }
    }
    Boolean legalHold = null;
    if (hold.isPresent()) {
      if (!hold.get().equals("ON") && !hold.get().equals("OFF")) {
        throw invalid("Legal Hold must be either of 'ON' or 'OFF'");
      }
      legalHold = hold.get().equals("ON");
    }
    return new Requested(mode.orElse(null), retainUntil, legalHold);
  }

  /** Parses an ISO 8601 date; {@code error} when it does not parse. */
  static Instant date(String text, S3ErrorCode error) {
    try {
      return Instant.parse(text);
    } catch (DateTimeParseException e) {
      try {
        return OffsetDateTime.parse(text).toInstant();
      } catch (DateTimeParseException again) {
        throw error == S3ErrorCode.MALFORMED_XML
            ? io.racs.proxy.s3.xml.SafeXmlParser.malformed()
            : S3Exception.of(error, "The retain until date is not a valid ISO 8601 date.");
      }
    }
  }

  /** A date as S3 writes it in headers and documents: ISO 8601, in milliseconds, UTC. */
  public static String format(Instant date) {
    return DateTimeFormatter.ISO_INSTANT.format(date.truncatedTo(ChronoUnit.MILLIS));
  }

  private static S3Exception invalid(String message) {
    return S3Exception.of(S3ErrorCode.INVALID_ARGUMENT, message);
  }
}
