package io.racs.proxy.s3.cors;

import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import java.util.List;
import java.util.Optional;

/**
 * A bucket's CORS rules, in the order given: the first rule that matches a request decides, as in
 * S3.
 *
 * @param rules one to {@link #MAX_RULES} rules
 */
public record CorsConfiguration(List<CorsRule> rules) {
  /** The most rules of one configuration, as in S3. */
  public static final int MAX_RULES = 100;

  /** Copies the list. */
  public CorsConfiguration {
    rules = List.copyOf(rules);
  }

  /**
   * A validated configuration.
   *
   * @throws S3Exception {@code MalformedXML} for no rule or more than {@link #MAX_RULES}, and as
   *     {@link CorsRule#validate()}
   */
  public static CorsConfiguration of(List<CorsRule> rules) {
    if (rules.isEmpty() || rules.size() > MAX_RULES) {
      throw S3Exception.of(S3ErrorCode.MALFORMED_XML);
    }
    rules.forEach(CorsRule::validate);
    return new CorsConfiguration(rules);
  }

  /** The first rule that lets {@code origin} use {@code method} with {@code requestHeaders}. */
  public Optional<CorsRule> match(String origin, String method, List<String> requestHeaders) {
    return rules.stream().filter(r -> r.matches(origin, method, requestHeaders)).findFirst();
  }
}
