package io.racs.proxy.s3.policy;

import java.util.List;
import java.util.Set;

/**
 * A parsed policy ({@link PolicyParser}): its statements, each read once into what evaluation
 * needs, and the document as it was given ({@code json}), which is what GetBucketPolicy returns.
 *
 * @param json the document as put
 * @param statements its statements, in order
 */
public record Policy(String json, List<Statement> statements) {
  /** Copies the statements. */
  public Policy {
    statements = List.copyOf(statements);
  }

  /** A statement's {@code Effect}. */
  public enum Effect {
    ALLOW,
    DENY
  }

  /**
   * One statement, read.
   *
   * @param sid its {@code Sid}, or null
   * @param effect Allow or Deny
   * @param principals the user names it names, {@code "*"} for everyone (anonymous included); null
   *     in an identity policy, which applies to the users it is attached to
   * @param actions the actions its {@code Action} (or {@code NotAction}) patterns match, in {@link
   *     PolicyActions}' spelling
   * @param notAction whether they came from {@code NotAction}
   * @param resources its {@code Resource} (or {@code NotResource}) patterns
   * @param notResource whether they came from {@code NotResource}
   * @param conditions its conditions, every one of which must hold
   */
  public record Statement(
      String sid,
      Effect effect,
      Set<String> principals,
      Set<String> actions,
      boolean notAction,
      List<String> resources,
      boolean notResource,
      List<Conditions.Condition> conditions) {
    /** Copies the collections. */
    public Statement {
      principals = principals == null ? null : Set.copyOf(principals);
      actions = Set.copyOf(actions);
      resources = List.copyOf(resources);
      conditions = List.copyOf(conditions);
    }

    /** Whether this statement speaks of {@code request}: principal, action, resource, condition. */
    boolean applies(RequestContext request) {
      if (principals != null
          && !principals.contains("*")
          && !principals.contains(request.principal())) {
        return false;
      }
      if (actions.contains(request.action()) == notAction) {
        return false;
      }
      boolean named = false;
      for (String pattern : resources) {
        if (Wildcards.matches(pattern, request.resource())) {
          named = true;
          break;
        }
      }
      if (named == notResource) {
        return false;
      }
      for (Conditions.Condition c : conditions) {
        if (!Conditions.holds(c, request)) {
          return false;
        }
      }
      return true;
    }
  }
}
