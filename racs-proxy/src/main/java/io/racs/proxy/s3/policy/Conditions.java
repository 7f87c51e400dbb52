package io.racs.proxy.s3.policy;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A statement's {@code Condition}: operators, the keys RACS fills in a request's context, and how
 * one condition is judged, as AWS judges single-valued keys.
 *
 * <ul>
 *   <li>Every operator of a statement must hold, and within one every key; a key holds when any of
 *       its policy values matches (for a negated operator: when none does).
 *   <li>A key the request lacks: the condition is false, except for a negated operator (true), an
 *       {@code …IfExists} operator (true) and {@code Null} (which asks whether it is absent).
 * </ul>
 *
 * <p>{@link #KEYS} are exactly the keys the decision point fills when the request carries them: a
 * policy naming any other key is refused, since a key never filled would make {@code
 * StringNotEquals} always true.
 */
public final class Conditions {
  /** The condition keys policies may name (compared without regard to case, as AWS does). */
  public static final Set<String> KEYS =
      Set.of(
          "aws:currenttime",
          "aws:epochtime",
          "aws:principaltype",
          "aws:referer",
          "aws:securetransport",
          "aws:sourceip",
          "aws:useragent",
          "aws:username",
          "s3:authtype",
          "s3:delimiter",
          "s3:max-keys",
          "s3:prefix",
          "s3:signatureversion",
          "s3:versionid",
          "s3:x-amz-server-side-encryption");

  /** How an operator compares. */
  enum Kind {
    STRING,
    STRING_IGNORE_CASE,
    STRING_LIKE,
    NUMERIC,
    DATE,
    BOOL,
    IP,
    NULL
  }

  /** How an ordering operator compares the request's value with the policy's. */
  enum Order {
    EQ,
    LT,
    LE,
    GT,
    GE
  }

  /**
   * One operator as written, e.g. {@code StringNotLikeIfExists}.
   *
   * @param name as written
   * @param kind how values compare
   * @param order for numeric and date operators
   * @param negated {@code …Not…}: holds when no policy value matches
   * @param ifExists {@code …IfExists}: holds when the request lacks the key
   */
  record Operator(String name, Kind kind, Order order, boolean negated, boolean ifExists) {}

  private static final Map<String, Operator> OPERATORS = operators();

  private Conditions() {}

  private static Map<String, Operator> operators() {
    Map<String, Operator> map = new HashMap<>();
    String[][] base = {
      {"StringEquals", "STRING", "EQ", "false"},
      {"StringNotEquals", "STRING", "EQ", "true"},
      {"StringEqualsIgnoreCase", "STRING_IGNORE_CASE", "EQ", "false"},
      {"StringNotEqualsIgnoreCase", "STRING_IGNORE_CASE", "EQ", "true"},
      {"StringLike", "STRING_LIKE", "EQ", "false"},
      {"StringNotLike", "STRING_LIKE", "EQ", "true"},
      {"NumericEquals", "NUMERIC", "EQ", "false"},
      {"NumericNotEquals", "NUMERIC", "EQ", "true"},
      {"NumericLessThan", "NUMERIC", "LT", "false"},
      {"NumericLessThanEquals", "NUMERIC", "LE", "false"},
      {"NumericGreaterThan", "NUMERIC", "GT", "false"},
      {"NumericGreaterThanEquals", "NUMERIC", "GE", "false"},
      {"DateEquals", "DATE", "EQ", "false"},
      {"DateNotEquals", "DATE", "EQ", "true"},
      {"DateLessThan", "DATE", "LT", "false"},
      {"DateLessThanEquals", "DATE", "LE", "false"},
      {"DateGreaterThan", "DATE", "GT", "false"},
      {"DateGreaterThanEquals", "DATE", "GE", "false"},
      {"Bool", "BOOL", "EQ", "false"},
      {"IpAddress", "IP", "EQ", "false"},
      {"NotIpAddress", "IP", "EQ", "true"},
    };
    for (String[] b : base) {
      for (boolean ifExists : new boolean[] {false, true}) {
        String name = b[0] + (ifExists ? "IfExists" : "");
        map.put(
            name,
            new Operator(
                name,
                Kind.valueOf(b[1]),
                Order.valueOf(b[2]),
                Boolean.parseBoolean(b[3]),
                ifExists));
      }
    }
    map.put("Null", new Operator("Null", Kind.NULL, Order.EQ, false, false));
    return Map.copyOf(map);
  }

  /**
   * The operator named {@code name} (exact case, as AWS requires).
   *
   * @throws PolicyException for an operator RACS does not judge, set operators included
   */
  static Operator operator(String name) {
    Operator op = OPERATORS.get(name);
    if (op == null) {
      String why =
          name.startsWith("ForAnyValue:") || name.startsWith("ForAllValues:")
              ? " (set operators are not supported: RACS's condition keys are single-valued)"
              : "";
      throw new PolicyException("Policy has an invalid condition operator: " + name + why);
    }
    return op;
  }

  /**
   * The canonical (lower-case) form of condition key {@code key}.
   *
   * @throws PolicyException for a key RACS does not fill
   */
  static String checkedKey(String key) {
    String canonical = canonicalKey(key);
    if (!KEYS.contains(canonical)) {
      throw new PolicyException("Policy has an invalid condition key: " + key);
    }
    return canonical;
  }

  static String canonicalKey(String key) {
    return key.toLowerCase(Locale.ROOT);
  }

  /** A request's values by canonical key, copied; values normalised already are returned as is. */
  static Map<String, List<String>> normalize(Map<String, List<String>> values) {
    if (values instanceof CanonicalValues) {
      return values;
    }
    Map<String, List<String>> out = new HashMap<>();
    if (values != null) {
      values.forEach((k, v) -> out.put(canonicalKey(k), List.copyOf(v)));
    }
    return new CanonicalValues(Map.copyOf(out));
  }

  /**
   * One condition of a statement, read: {@code op} on {@code key} with the policy's values, each
   * parsed once for its kind (a {@link Cidr}, a number, an instant, or the string).
   *
   * @param op the operator
   * @param key the canonical key
   * @param values the policy's values as written
   * @param parsed the values parsed for {@code op}'s kind
   */
  record Condition(Operator op, String key, List<String> values, List<Object> parsed) {
    /** Copies the lists. */
    Condition {
      values = List.copyOf(values);
      parsed = List.copyOf(parsed);
    }
  }

  /**
   * Reads one condition.
   *
   * @throws PolicyException for a value {@code op} cannot compare (a number that is no number, a
   *     date that is none, …) or a policy variable
   */
  static Condition condition(Operator op, String key, List<String> values) {
    List<Object> parsed = new java.util.ArrayList<>();
    for (String value : values) {
      if (value.contains("${")) {
        throw new PolicyException(
            "Policy variables are not supported (" + key + ": " + value + ")");
      }
      Object p =
          switch (op.kind()) {
            case NUMERIC -> number(value);
            case DATE -> date(value);
            case BOOL, NULL ->
                value.equalsIgnoreCase("true") || value.equalsIgnoreCase("false")
                    ? value.toLowerCase(Locale.ROOT)
                    : null;
            case IP -> Cidr.parse(value);
            default -> value;
          };
      if (p == null) {
        throw new PolicyException(
            "Policy has an invalid value for " + op.name() + " on " + key + ": " + value);
      }
      parsed.add(p);
    }
    return new Condition(op, checkedKey(key), values, parsed);
  }

  /** Whether condition {@code c} holds for {@code request}. */
  static boolean holds(Condition c, RequestContext request) {
    Operator op = c.op();
    List<String> actual = request.valuesOf(c.key());
    boolean absent = actual == null || actual.isEmpty();
    if (op.kind() == Kind.NULL) {
      return c.parsed().contains(absent ? "true" : "false");
    }
    if (absent) {
      return op.ifExists() || op.negated();
    }
    boolean anyMatch = false;
    for (String a : actual) {
      for (Object p : c.parsed()) {
        anyMatch |= matches(op, p, a);
      }
    }
    return op.negated() != anyMatch;
  }

  private static boolean matches(Operator op, Object policy, String actual) {
    return switch (op.kind()) {
      case STRING -> policy.equals(actual);
      case STRING_IGNORE_CASE -> ((String) policy).equalsIgnoreCase(actual);
      case STRING_LIKE -> Wildcards.matches((String) policy, actual);
      case BOOL -> policy.equals(actual.toLowerCase(Locale.ROOT));
      case IP -> ((Cidr) policy).contains(actual);
      case NUMERIC -> ordered(op.order(), compare(number(actual), (BigDecimal) policy));
      case DATE -> ordered(op.order(), compare(date(actual), (Instant) policy));
      case NULL -> false;
    };
  }

  private static <T extends Comparable<T>> Integer compare(T actual, T policy) {
    // A request value that is not of the operator's kind matches nothing.
    return actual == null || policy == null ? null : actual.compareTo(policy);
  }

  private static boolean ordered(Order order, Integer cmp) {
    if (cmp == null) {
      return false;
    }
    return switch (order) {
      case EQ -> cmp == 0;
      case LT -> cmp < 0;
      case LE -> cmp <= 0;
      case GT -> cmp > 0;
      case GE -> cmp >= 0;
    };
  }

  private static BigDecimal number(String s) {
    try {
      return s.length() > 64 ? null : new BigDecimal(s.strip());
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** An ISO 8601 date-time (with offset), date alone, or epoch seconds. */
  private static Instant date(String s) {
    String v = s.strip();
    if (v.length() > 64) {
      return null;
    }
    if (!v.isEmpty() && v.chars().allMatch(Character::isDigit)) {
      try {
        return Instant.ofEpochSecond(Long.parseLong(v));
      } catch (NumberFormatException | java.time.DateTimeException e) {
        return null;
      }
    }
    try {
      return OffsetDateTime.parse(v).toInstant();
    } catch (DateTimeParseException e) {
      try {
        return java.time.LocalDate.parse(v).atStartOfDay(java.time.ZoneOffset.UTC).toInstant();
      } catch (DateTimeParseException e2) {
        return null;
      }
    }
  }
}
