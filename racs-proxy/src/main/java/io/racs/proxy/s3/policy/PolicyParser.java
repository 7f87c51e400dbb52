package io.racs.proxy.s3.policy;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Reads a policy document and refuses, in one line, what RACS would not judge as written: JSON that
 * is not an object, a document over {@link #MAX_BYTES}, an unknown element, an Effect other than
 * Allow or Deny, an action that matches none RACS serves, a resource outside S3 (or, in a bucket
 * policy, outside that bucket), an unknown condition operator or key, a value of the wrong kind, or
 * a principal RACS cannot name. Element names and Effect values are case-sensitive, as in AWS;
 * action names are not.
 */
public final class PolicyParser {
  /** The largest document accepted, as S3 limits bucket policies: 20 KiB. */
  public static final int MAX_BYTES = 20 * 1024;

  private static final String ARN = "arn:aws:s3:::";
  private static final Set<String> TOP = Set.of("Version", "Id", "Statement");
  private static final Set<String> STATEMENT =
      Set.of(
          "Sid",
          "Effect",
          "Principal",
          "NotPrincipal",
          "Action",
          "NotAction",
          "Resource",
          "NotResource",
          "Condition");
  private static final ObjectMapper JSON =
      JsonMapper.builder(
              JsonFactory.builder()
                  .streamReadConstraints(
                      StreamReadConstraints.builder().maxNestingDepth(16).build())
                  .build())
          .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
          .build();

  private PolicyParser() {}

  /**
   * A bucket's policy: every statement names its {@code Principal}, and every resource lies in
   * {@code bucket}.
   *
   * @throws PolicyException when the document cannot be accepted
   */
  public static Policy bucketPolicy(String json, String bucket) {
    return parse(json, bucket);
  }

  /**
   * A user's identity policy: no statement names a principal (the policy applies to the users it is
   * attached to).
   *
   * @throws PolicyException when the document cannot be accepted
   */
  public static Policy identityPolicy(String json) {
    return parse(json, null);
  }

  private static Policy parse(String json, String bucket) {
    if (json.getBytes(StandardCharsets.UTF_8).length > MAX_BYTES) {
      throw new PolicyException("Policies must be no more than " + MAX_BYTES + " bytes");
    }
    JsonNode root;
    try {
      root = JSON.readTree(json);
    } catch (JsonProcessingException e) {
      throw new PolicyException("Policies must be valid JSON: " + e.getOriginalMessage());
    }
    if (root == null || !root.isObject()) {
      throw new PolicyException("Policies must be valid JSON and the first byte must be '{'");
    }
    onlyKnown(root, TOP, "the policy");
    JsonNode version = root.get("Version");
    if (version != null
        && !(version.isTextual()
            && (version.asText().equals("2012-10-17") || version.asText().equals("2008-10-17")))) {
      throw new PolicyException("The policy has an invalid Version: " + version);
    }
    JsonNode id = root.get("Id");
    if (id != null && !id.isTextual()) {
      throw new PolicyException("The policy's Id must be a string");
    }
    JsonNode statements = root.get("Statement");
    if (statements == null) {
      throw new PolicyException("Missing required field Statement");
    }
    List<JsonNode> list = listOf(statements);
    if (list.isEmpty()) {
      throw new PolicyException("Missing required field Statement");
    }
    List<Policy.Statement> out = new ArrayList<>();
    Set<String> sids = new java.util.HashSet<>();
    for (int i = 0; i < list.size(); i++) {
      Policy.Statement s = statement(list.get(i), i + 1, bucket);
      if (s.sid() != null && !s.sid().isEmpty() && !sids.add(s.sid())) {
        throw new PolicyException("Statement IDs (SID) must be unique: " + s.sid());
      }
      out.add(s);
    }
    return new Policy(json, out);
  }

  private static Policy.Statement statement(JsonNode node, int n, String bucket) {
    String where = "statement " + n;
    if (!node.isObject()) {
      throw new PolicyException("Each statement must be an object (" + where + ")");
    }
    onlyKnown(node, STATEMENT, where);
    String sid = null;
    if (node.has("Sid")) {
      if (!node.get("Sid").isTextual()) {
        throw new PolicyException("Sid must be a string (" + where + ")");
      }
      sid = node.get("Sid").asText();
    }
    JsonNode effect = node.get("Effect");
    if (effect == null
        || !effect.isTextual()
        || !(effect.asText().equals("Allow") || effect.asText().equals("Deny"))) {
      throw new PolicyException("Effect must be Allow or Deny (" + where + ")");
    }
    if (node.has("NotPrincipal")) {
      throw new PolicyException("NotPrincipal is not supported (" + where + ")");
    }
    Set<String> principals = null;
    if (bucket != null) {
      if (!node.has("Principal")) {
        throw new PolicyException("Missing required field Principal (" + where + ")");
      }
      principals = principals(node.get("Principal"), where);
    } else if (node.has("Principal")) {
      throw new PolicyException(
          "An identity policy names no Principal: it applies to its users (" + where + ")");
    }
    boolean notAction = exactlyOne(node, "Action", "NotAction", where);
    Set<String> actions = new LinkedHashSet<>();
    for (String pattern : strings(node.get(notAction ? "NotAction" : "Action"), where)) {
      Set<String> matched = pattern.equals("*") ? PolicyActions.ALL : null;
      if (matched == null && pattern.toLowerCase(Locale.ROOT).startsWith("s3:")) {
        matched = PolicyActions.matching(pattern);
      }
      if (matched == null || matched.isEmpty()) {
        throw new PolicyException("Policy has invalid action: " + pattern + " (" + where + ")");
      }
      actions.addAll(matched);
    }
    boolean notResource = exactlyOne(node, "Resource", "NotResource", where);
    List<String> resources = new ArrayList<>();
    for (String r : strings(node.get(notResource ? "NotResource" : "Resource"), where)) {
      resources.add(resource(r, bucket, where));
    }
    List<Conditions.Condition> conditions = new ArrayList<>();
    JsonNode condition = node.get("Condition");
    if (condition != null) {
      if (!condition.isObject()) {
        throw new PolicyException("Condition must be an object (" + where + ")");
      }
      for (Map.Entry<String, JsonNode> op : condition.properties()) {
        Conditions.Operator operator = Conditions.operator(op.getKey());
        if (!op.getValue().isObject() || op.getValue().isEmpty()) {
          throw new PolicyException(
              "Condition " + op.getKey() + " must map keys to values (" + where + ")");
        }
        for (Map.Entry<String, JsonNode> key : op.getValue().properties()) {
          conditions.add(
              Conditions.condition(
                  operator, key.getKey(), scalars(key.getValue(), key.getKey(), where)));
        }
      }
    }
    return new Policy.Statement(
        sid,
        effect.asText().equals("Allow") ? Policy.Effect.ALLOW : Policy.Effect.DENY,
        principals,
        actions,
        notAction,
        resources,
        notResource,
        conditions);
  }

  /** {@code "*"}, or {@code {"AWS": names}} where a name is a user or an IAM user ARN. */
  private static Set<String> principals(JsonNode node, String where) {
    if (node.isTextual()) {
      if (!node.asText().equals("*")) {
        throw new PolicyException("Invalid principal in policy: " + node + " (" + where + ")");
      }
      return Set.of("*");
    }
    if (!node.isObject() || node.size() != 1 || !node.has("AWS")) {
      throw new PolicyException(
          "Invalid principal in policy (only \"*\" and {\"AWS\": …} are supported): "
              + node
              + " ("
              + where
              + ")");
    }
    Set<String> names = new LinkedHashSet<>();
    for (String p : strings(node.get("AWS"), where)) {
      if (p.equals("*")) {
        names.add("*");
      } else if (p.startsWith("arn:aws:iam::") && p.contains(":user/")) {
        names.add(user(p.substring(p.indexOf(":user/") + 6), p, where));
      } else {
        names.add(user(p, p, where));
      }
    }
    return names;
  }

  private static String user(String name, String given, String where) {
    if (name.isEmpty() || name.length() > 64 || !name.matches("[A-Za-z0-9+=,.@_-]+")) {
      throw new PolicyException("Invalid principal in policy: " + given + " (" + where + ")");
    }
    return name;
  }

  private static String resource(String r, String bucket, String where) {
    if (r.equals("*") && bucket == null) {
      return ARN + "*";
    }
    if (!r.startsWith(ARN) || r.length() == ARN.length()) {
      throw new PolicyException("Policy has invalid resource: " + r + " (" + where + ")");
    }
    if (bucket != null) {
      String rest = r.substring(ARN.length());
      if (!(rest.equals(bucket) || rest.startsWith(bucket + "/"))) {
        throw new PolicyException(
            "Policy has invalid resource: "
                + r
                + " is not in bucket "
                + bucket
                + " ("
                + where
                + ")");
      }
    }
    return r;
  }

  /** Whether the {@code not} form is the one given; exactly one of the two must be. */
  private static boolean exactlyOne(JsonNode node, String name, String not, String where) {
    boolean has = node.has(name);
    boolean hasNot = node.has(not);
    if (has == hasNot) {
      throw new PolicyException(
          "A statement needs exactly one of " + name + " and " + not + " (" + where + ")");
    }
    return hasNot;
  }

  /** A string, or a non-empty list of strings. */
  private static List<String> strings(JsonNode node, String where) {
    List<String> out = new ArrayList<>();
    for (JsonNode n : listOf(node)) {
      if (!n.isTextual()) {
        throw new PolicyException("Expected a string, found " + n + " (" + where + ")");
      }
      out.add(n.asText());
    }
    if (out.isEmpty()) {
      throw new PolicyException("An empty list names nothing (" + where + ")");
    }
    return out;
  }

  /** A condition's values: a scalar or a non-empty list of scalars, read as their text. */
  private static List<String> scalars(JsonNode node, String key, String where) {
    List<String> out = new ArrayList<>();
    for (JsonNode n : listOf(node)) {
      if (!n.isValueNode() || n.isNull()) {
        throw new PolicyException(
            "Condition values of " + key + " must be strings, numbers or booleans (" + where + ")");
      }
      out.add(n.asText());
    }
    if (out.isEmpty()) {
      throw new PolicyException("Condition " + key + " has no value (" + where + ")");
    }
    return out;
  }

  private static List<JsonNode> listOf(JsonNode node) {
    List<JsonNode> out = new ArrayList<>();
    if (node.isArray()) {
      node.forEach(out::add);
    } else {
      out.add(node);
    }
    return out;
  }

  private static void onlyKnown(JsonNode node, Set<String> known, String where) {
    for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
      String name = it.next();
      if (!known.contains(name)) {
        throw new PolicyException("Unknown field " + name + " in " + where);
      }
    }
  }
}
