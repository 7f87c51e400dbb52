package io.racs.proxy.s3.form;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The policy of a browser form upload: an expiration and conditions every form field must meet, as
 * AWS documents them: exact matches ({@code {"field": "value"}} or {@code ["eq", "$field",
 * "value"]}), {@code ["starts-with", "$field", "prefix"]} and {@code ["content-length-range", min,
 * max]}. Every field of the form but {@code x-amz-signature}, {@code file}, {@code policy}, SigV2's
 * {@code signature} and {@code AWSAccessKeyId}, and {@code x-ignore-*} must be named by a
 * condition.
 *
 * <p>Immutable and thread-safe. Failures are {@code AccessDenied} "Invalid according to Policy:
 * ..." (as S3 words them) and {@code InvalidPolicyDocument} for a document that cannot be read.
 *
 * @param expiration when the policy stops being valid
 * @param conditions the conditions, each {@code [operator, "$field" or field, value(s)...]}
 * @param minLengthBytes the least file size {@code content-length-range} allows (0 without one)
 * @param maxLengthBytes the largest ({@code Long.MAX_VALUE} without one)
 */
public record PostPolicy(
    Instant expiration, List<List<String>> conditions, long minLengthBytes, long maxLengthBytes) {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Set<String> EXEMPT =
      Set.of("x-amz-signature", "file", "policy", "signature", "awsaccesskeyid");

  /**
   * Reads the base64 policy of a form.
   *
   * @throws S3Exception {@code InvalidPolicyDocument} for bad base64, JSON or structure
   */
  public static PostPolicy parse(String base64) {
    JsonNode root;
    try {
      root =
          JSON.readTree(
              new String(Base64.getDecoder().decode(base64.strip()), StandardCharsets.UTF_8));
    } catch (Exception e) {
      throw invalid("Invalid Policy: Invalid JSON.");
    }
    if (root == null || !root.isObject() || !root.path("expiration").isTextual()) {
      throw invalid("Invalid Policy: Policy missing expiration.");
    }
    Instant expiration;
    try {
      expiration = Instant.parse(root.get("expiration").asText());
    } catch (DateTimeParseException e) {
      throw invalid(
          "Invalid Policy: Invalid 'expiration' value: '" + root.get("expiration").asText() + "'");
    }
    JsonNode list = root.path("conditions");
    if (!list.isArray()) {
      throw invalid("Invalid Policy: Policy missing conditions.");
    }
    List<List<String>> conditions = new ArrayList<>();
    long min = 0;
    long max = Long.MAX_VALUE;
    for (JsonNode c : list) {
      if (c.isObject() && c.size() == 1) {
        Map.Entry<String, JsonNode> e = c.properties().iterator().next();
        if (!e.getValue().isTextual()) {
          throw invalid("Invalid Policy: Invalid Simple-Condition: value must be a string.");
        }
        conditions.add(List.of("eq", "$" + e.getKey(), e.getValue().asText()));
      } else if (c.isArray() && c.size() == 3 && c.get(0).isTextual()) {
        String op = c.get(0).asText().toLowerCase(Locale.ROOT);
        if (op.equals("content-length-range")) {
          if (!c.get(1).canConvertToLong() || !c.get(2).canConvertToLong()) {
            throw invalid("Invalid Policy: Invalid content-length-range.");
          }
          min = c.get(1).asLong();
          max = c.get(2).asLong();
          conditions.add(List.of(op, Long.toString(min), Long.toString(max)));
        } else if ((op.equals("eq") || op.equals("starts-with"))
            && c.get(1).isTextual()
            && c.get(1).asText().startsWith("$")
            && c.get(2).isTextual()) {
          conditions.add(List.of(op, c.get(1).asText(), c.get(2).asText()));
        } else {
          throw invalid("Invalid Policy: Invalid condition: " + c);
        }
      } else {
        throw invalid("Invalid Policy: Invalid condition: " + c);
      }
    }
    return new PostPolicy(expiration, List.copyOf(conditions), min, max);
  }

  /**
   * Checks the form against the policy at {@code now}.
   *
   * @param fields the form's fields by lower-case name (the bucket as {@code bucket})
   * @throws S3Exception {@code AccessDenied} for an expired policy, a failed condition or a field
   *     no condition names
   */
  public void check(Instant now, Map<String, String> fields) {
    if (!now.isBefore(expiration)) {
      throw denied("Invalid according to Policy: Policy expired.");
    }
    Set<String> covered = new HashSet<>();
    for (List<String> c : conditions) {
      String op = c.get(0);
      if (op.equals("content-length-range")) {
        continue; // checked against the file as it streams
      }
      String field = c.get(1).substring(1).toLowerCase(Locale.ROOT);
      covered.add(field);
      String value = fields.get(field);
      boolean holds =
          value != null && (op.equals("eq") ? value.equals(c.get(2)) : value.startsWith(c.get(2)));
      if (!holds) {
        throw denied(
            "Invalid according to Policy: Policy Condition failed: [\""
                + op
                + "\", \""
                + c.get(1)
                + "\", \""
                + c.get(2)
                + "\"]");
      }
    }
    for (String field : fields.keySet()) {
      if (!EXEMPT.contains(field)
          && !field.startsWith("x-ignore-")
          && !field.equals("bucket")
          && !covered.contains(field)) {
        throw denied("Invalid according to Policy: Extra input fields: " + field);
      }
    }
  }

  private static S3Exception denied(String message) {
    return S3Exception.of(S3ErrorCode.ACCESS_DENIED, message);
  }

  private static S3Exception invalid(String message) {
    return S3Exception.of(S3ErrorCode.INVALID_POLICY_DOCUMENT, message);
  }
}
