package io.racs.proxy.s3.authz;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.s3.policy.Policy;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Proves the decision's view of stored bucket policies: a document is parsed once and reused while
 * it is unchanged, parsed anew when it changes, forgotten when it is removed, and a stored document
 * that no longer parses becomes a policy that denies everything rather than none at all.
 */
class BucketPolicyCacheTest {
  private static final String ALLOW =
      """
      {"Statement": [{"Effect": "Allow", "Principal": "*", "Action": "s3:GetObject",
        "Resource": "arn:aws:s3:::bkt/*"}]}
      """;

  private final Map<String, String> stored = new HashMap<>();
  private final BucketPolicyCache cache =
      new BucketPolicyCache(bucket -> Optional.ofNullable(stored.get(bucket)));

  @Test
  void apply_whenDocumentUnchanged_reusesTheParsedPolicy() {
    stored.put("bkt", ALLOW);
    Policy first = cache.apply("bkt").orElseThrow();

    assertThat(cache.apply("bkt")).containsSame(first);
    stored.put("bkt", ALLOW.replace("GetObject", "PutObject"));
    Policy changed = cache.apply("bkt").orElseThrow();
    assertThat(changed).isNotSameAs(first);
    assertThat(changed.statements().get(0).actions()).containsExactly("s3:PutObject");
    stored.remove("bkt");
    assertThat(cache.apply("bkt")).isEmpty();
  }

  @Test
  void apply_whenStoredDocumentDoesNotParse_deniesEverything() {
    stored.put("bkt", ALLOW.replace("s3:GetObject", "s3:NoSuchAction"));

    Policy policy = cache.apply("bkt").orElseThrow();

    assertThat(policy.statements())
        .singleElement()
        .satisfies(
            s -> {
              assertThat(s.effect()).isEqualTo(Policy.Effect.DENY);
              assertThat(s.principals()).containsExactly("*");
              assertThat(s.resources()).containsExactly("arn:aws:s3:::*");
            });
  }
}
