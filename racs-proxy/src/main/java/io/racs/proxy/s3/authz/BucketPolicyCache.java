package io.racs.proxy.s3.authz;

import io.racs.proxy.s3.policy.Policy;
import io.racs.proxy.s3.policy.PolicyActions;
import io.racs.proxy.s3.policy.PolicyException;
import io.racs.proxy.s3.policy.PolicyParser;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Buckets' policies as the decision reads them: the stored document (from a source that may cache
 * it for a second, {@code StoreBridge#bucketPolicyRecently}), parsed once per document rather than
 * once per request. Thread-safe.
 *
 * <p>A stored document was validated when it was put; one that no longer parses (a later RACS that
 * judges less) denies every request to its bucket rather than being ignored, which could allow what
 * its Deny statements forbid.
 */
public final class BucketPolicyCache implements Function<String, Optional<Policy>> {
  private record Parsed(String json, Policy policy) {}

  private final Function<String, Optional<String>> documents;
  private final ConcurrentHashMap<String, Parsed> parsed = new ConcurrentHashMap<>();

  /** Policies of the documents {@code documents} answers (bucket to its policy document). */
  public BucketPolicyCache(Function<String, Optional<String>> documents) {
    this.documents = documents;
  }

  @Override
  public Optional<Policy> apply(String bucket) {
    Optional<String> document = documents.apply(bucket);
    if (document.isEmpty()) {
      parsed.remove(bucket);
      return Optional.empty();
    }
    String json = document.get();
    Parsed p = parsed.get(bucket);
    if (p == null || !p.json().equals(json)) {
      p = new Parsed(json, parse(json, bucket));
      parsed.put(bucket, p);
    }
    return Optional.of(p.policy());
  }

  /** The policy; one that denies everything when the document does not parse (see above). */
  private static Policy parse(String json, String bucket) {
    try {
      return PolicyParser.bucketPolicy(json, bucket);
    } catch (PolicyException e) {
      return new Policy(
          json,
          List.of(
              new Policy.Statement(
                  "unreadable stored policy",
                  Policy.Effect.DENY,
                  Set.of("*"),
                  PolicyActions.ALL,
                  false,
                  List.of("arn:aws:s3:::*"),
                  false,
                  List.of())));
    }
  }
}
