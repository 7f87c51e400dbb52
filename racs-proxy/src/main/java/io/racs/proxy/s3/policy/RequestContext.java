package io.racs.proxy.s3.policy;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * What a policy judges of one request: who asks ({@code principal}: an access key's user, or {@link
 * #ANONYMOUS}), the action, the resource's ARN, and the condition keys' values the request carries
 * ({@code aws:SourceIp}, {@code s3:prefix}, …; a key absent from {@code values} is absent from the
 * request).
 *
 * @param principal the user's name, or {@link #ANONYMOUS} for an unsigned request
 * @param action an {@code s3:} action, as {@link PolicyActions} spells it
 * @param resource {@code arn:aws:s3:::bucket} or {@code arn:aws:s3:::bucket/key}
 * @param values condition key (as policies spell it, any case) to its values
 */
public record RequestContext(
    String principal, String action, String resource, Map<String, List<String>> values) {
  /** The principal of an unsigned request: only {@code "Principal": "*"} names it. */
  public static final String ANONYMOUS = "*anonymous*";

  /** Checks the fields and copies the values. */
  public RequestContext {
    Objects.requireNonNull(principal, "principal");
    Objects.requireNonNull(action, "action");
    Objects.requireNonNull(resource, "resource");
    values = Conditions.normalize(values);
  }

  /**
   * {@code values} (condition key, any case, to its values) normalised for a {@link RequestContext}
   * once: contexts made with the result take it as it is. Immutable.
   */
  public static Map<String, List<String>> canonical(Map<String, List<String>> values) {
    return Conditions.normalize(values);
  }

  /**
   * Values computed by {@code source} when a condition first names their key: {@code source} gets a
   * canonical key of {@link Conditions#KEYS} and answers its values (immutable), or null when the
   * request carries none; it must answer the same every time. Contexts made with the result take it
   * as it is.
   */
  public static Map<String, List<String>> computed(Function<String, List<String>> source) {
    return new CanonicalValues(Objects.requireNonNull(source, "source"));
  }

  /** The values of condition key {@code key} (canonical), or null when the request has none. */
  List<String> valuesOf(String key) {
    return values.get(key);
  }
}
