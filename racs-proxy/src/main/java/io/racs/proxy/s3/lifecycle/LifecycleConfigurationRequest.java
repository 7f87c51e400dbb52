package io.racs.proxy.s3.lifecycle;

import static io.racs.proxy.s3.xml.SafeXmlParser.malformed;
import static io.racs.proxy.s3.xml.SafeXmlParser.nextChild;
import static io.racs.proxy.s3.xml.SafeXmlParser.skip;

import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.s3.xml.SafeXmlParser;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * The body of a PutBucketLifecycleConfiguration request ({@code LifecycleConfiguration}), read with
 * the {@link SafeXmlParser}; also how a stored configuration is read back. Thread-safe.
 */
public final class LifecycleConfigurationRequest {
  /** Elements of a lifecycle rule that name actions the proxy does not carry out. */
  private static final Set<String> UNSUPPORTED_LIFECYCLE_ACTIONS =
      Set.of("Transition", "NoncurrentVersionTransition", "Transitions");

  private LifecycleConfigurationRequest() {}

  /**
   * The rules of a PutBucketLifecycleConfiguration body ({@code LifecycleConfiguration}),
   * validated: each with an optional {@code ID}, a {@code Status}, a {@code Filter} ({@code
   * Prefix}, {@code Tag}, {@code ObjectSizeGreaterThan}, {@code ObjectSizeLessThan}, or several of
   * them inside {@code And}) or the older rule-level {@code Prefix}, and the actions {@code
   * Expiration} ({@code Days}, {@code Date} or {@code ExpiredObjectDeleteMarker}), {@code
   * NoncurrentVersionExpiration} ({@code NoncurrentDays}, {@code NewerNoncurrentVersions}) and
   * {@code AbortIncompleteMultipartUpload}.
   *
   * <p>Every rule is checked before anything is refused as not implemented: a configuration with a
   * transition is {@code NotImplemented} only once all of it, the transition's own date and days
   * included, passed the checks S3 makes, so a malformed one gets S3's 400 first.
   *
   * @throws S3Exception {@code MalformedXML} (a bad document, unknown elements, a rule without
   *     status or filter, both a filter and a prefix, a filter of several conditions outside {@code
   *     And}), {@code InvalidArgument} (a date that is not ISO 8601), as {@link LifecycleRule} and
   *     {@link LifecycleConfiguration} otherwise, and then {@code NotImplemented} (transitions)
   */
  public static LifecycleConfiguration parse(byte[] body) {
    List<String> unsupported = new ArrayList<>();
    List<LifecycleRule> rules =
        SafeXmlParser.parse(
            body,
            SafeXmlParser.DEFAULT_MAX_BODY_BYTES,
            "LifecycleConfiguration",
            r -> {
              List<LifecycleRule> read = new ArrayList<>();
              while (nextChild(r)) {
                if (!r.getLocalName().equals("Rule")) {
                  throw malformed();
                }
                if (read.size() == LifecycleConfiguration.MAX_RULES) {
                  throw malformed();
                }
                read.add(lifecycleRule(r, unsupported));
              }
              return read;
            });
    LifecycleConfiguration configuration = new LifecycleConfiguration(rules);
    if (!unsupported.isEmpty()) {
      throw S3Exception.of(
          S3ErrorCode.NOT_IMPLEMENTED,
          "The lifecycle action " + unsupported.get(0) + " is not implemented.");
    }
    return configuration;
  }

  private static LifecycleRule lifecycleRule(XMLStreamReader r, List<String> unsupported)
      throws XMLStreamException {
    boolean unsupportedInRule = false;
    String id = null;
    String status = null;
    String legacyPrefix = null;
    LifecycleRule.Filter filter = null;
    Integer days = null;
    Instant date = null;
    Boolean expiredMarker = null;
    Integer abortDays = null;
    Integer noncurrentDays = null;
    Integer newerNoncurrent = null;
    boolean noncurrentGiven = false;
    while (nextChild(r)) {
      String name = r.getLocalName();
      if (UNSUPPORTED_LIFECYCLE_ACTIONS.contains(name)) {
        // Not carried out, but checked as S3 checks it; refused once everything else was.
        while (nextChild(r)) {
          switch (r.getLocalName()) {
            case "Date" -> midnightDate(r.getElementText());
            case "Days", "NoncurrentDays" -> positiveOrZeroInt(r.getElementText());
            default -> skip(r);
          }
        }
        unsupported.add(name);
        unsupportedInRule = true;
        continue;
      }
      switch (name) {
        case "ID" -> id = r.getElementText();
        case "Status" -> status = r.getElementText().strip();
        case "Prefix" -> legacyPrefix = r.getElementText();
        case "Filter" -> filter = lifecycleFilter(r);
        case "Expiration" -> {
          while (nextChild(r)) {
            switch (r.getLocalName()) {
              case "Days" -> days = positiveOrZeroInt(r.getElementText());
              case "Date" -> date = midnightDate(r.getElementText());
              case "ExpiredObjectDeleteMarker" -> {
                String v = r.getElementText().strip();
                if (!v.equals("true") && !v.equals("false")) {
                  throw malformed();
                }
                expiredMarker = Boolean.valueOf(v);
              }
              default -> throw malformed();
            }
          }
        }
        case "NoncurrentVersionExpiration" -> {
          if (noncurrentGiven) {
            throw malformed();
          }
          noncurrentGiven = true;
          while (nextChild(r)) {
            switch (r.getLocalName()) {
              case "NoncurrentDays" -> noncurrentDays = positiveOrZeroInt(r.getElementText());
              case "NewerNoncurrentVersions" ->
                  newerNoncurrent = positiveOrZeroInt(r.getElementText());
              default -> throw malformed();
            }
          }
          if (noncurrentDays == null) {
            throw malformed();
          }
        }
        case "AbortIncompleteMultipartUpload" -> {
          while (nextChild(r)) {
            if (!r.getLocalName().equals("DaysAfterInitiation")) {
              throw malformed();
            }
            abortDays = positiveOrZeroInt(r.getElementText());
          }
        }
        default -> throw malformed();
      }
    }
    if (status == null
        || !(status.equals("Enabled") || status.equals("Disabled"))
        || (filter != null && legacyPrefix != null)
        || (filter == null && legacyPrefix == null)) {
      throw malformed();
    }
    if (filter == null) {
      filter = new LifecycleRule.Filter(legacyPrefix, Map.of(), null, null, true);
    }
    if (unsupportedInRule
        && days == null
        && date == null
        && expiredMarker == null
        && abortDays == null
        && noncurrentDays == null) {
      // The transition is this rule's action, which LifecycleRule does not model. The rule is
      // built only to run its other checks, and then refused as not implemented: a stand-in
      // noncurrent action, which no other check of a rule looks at, takes the transition's place.
      noncurrentDays = 1;
    }
    return new LifecycleRule(
        id,
        status.equals("Enabled"),
        filter,
        days,
        date,
        expiredMarker,
        abortDays,
        noncurrentDays,
        newerNoncurrent);
  }

  /** A {@code Filter}: one condition, or several inside {@code And}; empty means every object. */
  private static LifecycleRule.Filter lifecycleFilter(XMLStreamReader r) throws XMLStreamException {
    String prefix = null;
    Map<String, String> tags = new LinkedHashMap<>();
    Long greater = null;
    Long less = null;
    int conditions = 0;
    boolean and = false;
    while (nextChild(r)) {
      conditions++;
      switch (r.getLocalName()) {
        case "Prefix" -> prefix = r.getElementText();
        case "Tag" -> lifecycleTag(r, tags);
        case "ObjectSizeGreaterThan" -> greater = positiveOrZeroLong(r.getElementText());
        case "ObjectSizeLessThan" -> less = positiveOrZeroLong(r.getElementText());
        case "And" -> {
          and = true;
          while (nextChild(r)) {
            switch (r.getLocalName()) {
              case "Prefix" -> prefix = r.getElementText();
              case "Tag" -> lifecycleTag(r, tags);
              case "ObjectSizeGreaterThan" -> greater = positiveOrZeroLong(r.getElementText());
              case "ObjectSizeLessThan" -> less = positiveOrZeroLong(r.getElementText());
              default -> throw malformed();
            }
          }
        }
        default -> throw malformed();
      }
    }
    if (conditions > 1 || (and && conditions != 1)) {
      throw malformed();
    }
    return new LifecycleRule.Filter(prefix, tags, greater, less, false);
  }

  private static void lifecycleTag(XMLStreamReader r, Map<String, String> tags)
      throws XMLStreamException {
    String key = null;
    String value = null;
    while (nextChild(r)) {
      switch (r.getLocalName()) {
        case "Key" -> key = r.getElementText();
        case "Value" -> value = r.getElementText();
        default -> throw malformed();
      }
    }
    if (key == null || value == null) {
      throw malformed();
    }
    if (tags.put(key, value) != null) {
      throw S3Exception.of(S3ErrorCode.INVALID_ARGUMENT, "Duplicate Tag Keys are not allowed.");
    }
  }

  private static int positiveOrZeroInt(String text) {
    long value = positiveOrZeroLong(text);
    if (value > Integer.MAX_VALUE) {
      throw malformed();
    }
    return (int) value;
  }

  private static long positiveOrZeroLong(String text) {
    try {
      return Long.parseLong(text.strip());
    } catch (NumberFormatException e) {
      throw malformed();
    }
  }

  /**
   * A rule's {@code Date}: ISO 8601, with or without a time (which {@link LifecycleRule} checks is
   * midnight UTC). One that does not parse is S3's {@code InvalidArgument}, as one not at midnight
   * is (s3-tests {@code test_lifecycle_set_invalid_date}).
   */
  private static Instant midnightDate(String text) {
    String t = text.strip();
    try {
      return t.length() == 10
          ? LocalDate.parse(t).atStartOfDay(ZoneOffset.UTC).toInstant()
          : OffsetDateTime.parse(t).toInstant();
    } catch (DateTimeParseException e) {
      throw S3Exception.of(
          S3ErrorCode.INVALID_ARGUMENT, "'Date' must be an ISO 8601 date at midnight GMT");
    }
  }
}
