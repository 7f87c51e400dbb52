package io.racs.proxy.s3.policy;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzzes the policy parser and evaluator. Whatever the document: the parser either refuses it with
 * {@link PolicyException} or reads it; a read policy decides any request without failing; and a
 * policy grants nothing it does not say: a request is allowed only if some Allow statement applies
 * to it, so a policy of Deny statements alone never allows anything.
 */
class PolicyFuzzTest {

  @FuzzTest
  @Timeout(value = 10, unit = TimeUnit.SECONDS)
  void parseAndDecide(FuzzedDataProvider data) {
    boolean bucketPolicy = data.consumeBoolean();
    String principal = data.consumeBoolean() ? RequestContext.ANONYMOUS : data.consumeString(8);
    List<String> actions = List.copyOf(PolicyActions.ALL);
    String action = actions.get(data.consumeInt(0, actions.size() - 1));
    String resource =
        "arn:aws:s3:::b" + (data.consumeBoolean() ? "/" + data.consumeString(16) : "");
    Map<String, List<String>> values =
        Map.of(
            "aws:SourceIp", List.of(data.consumeString(20)),
            "s3:prefix", List.of(data.consumeString(10)),
            "aws:SecureTransport", List.of(data.consumeBoolean() ? "true" : "false"));
    String json = data.consumeRemainingAsString();
    Policy policy;
    try {
      policy =
          bucketPolicy ? PolicyParser.bucketPolicy(json, "b") : PolicyParser.identityPolicy(json);
    } catch (PolicyException refused) {
      assertThat(refused.getMessage()).isNotBlank().doesNotContain("\n");
      return;
    }
    RequestContext request = new RequestContext(principal, action, resource, values);
    PolicyEvaluator.Decision decision = PolicyEvaluator.decide(request, List.of(policy));
    boolean someAllowApplies =
        policy.statements().stream()
            .anyMatch(s -> s.effect() == Policy.Effect.ALLOW && s.applies(request));
    boolean someDenyApplies =
        policy.statements().stream()
            .anyMatch(s -> s.effect() == Policy.Effect.DENY && s.applies(request));
    assertThat(decision.allowed()).isEqualTo(someAllowApplies && !someDenyApplies);
    if (policy.statements().stream().noneMatch(s -> s.effect() == Policy.Effect.ALLOW)) {
      assertThat(decision.allowed()).isFalse();
    }
  }
}
