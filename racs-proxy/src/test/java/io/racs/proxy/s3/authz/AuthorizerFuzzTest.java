package io.racs.proxy.s3.authz;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.racs.proxy.s3.auth.AuthType;
import io.racs.proxy.s3.auth.Authentication;
import io.racs.proxy.s3.auth.ContentSha256;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.s3.http.Headers;
import io.racs.proxy.s3.http.RequestHead;
import io.racs.proxy.s3.policy.Policy;
import io.racs.proxy.s3.policy.PolicyParser;
import io.racs.proxy.s3.policy.Principal;
import io.racs.proxy.s3.route.S3Route;
import io.racs.proxy.s3.route.S3Router;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzzes the decision point with any bucket policy the parser accepts and any request the router
 * accepts: it decides without failing (an answer or AccessDenied), grants nothing the policy does
 * not say (a policy without an Allow statement allows an anonymous caller or a user without
 * identity policies nothing), and denies an administrator only where the policy has a Deny.
 */
class AuthorizerFuzzTest {
  private static final S3Router ROUTER = S3Router.pathStyle();

  @FuzzTest
  @Timeout(value = 10, unit = TimeUnit.SECONDS)
  void decide(FuzzedDataProvider data) {
    int who = data.consumeInt(0, 2); // anonymous, user, administrator
    String method = data.pickValue(new String[] {"GET", "HEAD", "PUT", "DELETE", "POST"});
    String target =
        "/bkt/"
            + data.consumeString(12)
            + data.pickValue(new String[] {"", "?tagging", "?versionId=1", "?acl"});
    String json = data.consumeRemainingAsString();
    Policy policy;
    S3Route route;
    RequestHead head;
    try {
      policy = PolicyParser.bucketPolicy(json, "bkt");
      head = RequestHead.of(method, target.replace(" ", "%20"), Headers.empty());
      route = ROUTER.route(head);
    } catch (S3Exception | IllegalArgumentException refused) {
      return;
    }
    Principal principal =
        switch (who) {
          case 1 -> new Principal("user", false, List.of());
          case 2 -> new Principal("admin", true, List.of());
          default -> null;
        };
    Authorizer authorizer =
        new Authorizer(
            key -> Optional.ofNullable(principal),
            bucket -> Optional.of(policy),
            Clock.fixed(Instant.EPOCH, java.time.ZoneOffset.UTC));
    Authentication auth =
        principal == null
            ? null
            : new Authentication(
                "key", AuthType.V4_HEADER, Instant.EPOCH, ContentSha256.UNSIGNED, Optional.empty());
    boolean allowed;
    try {
      authorizer.identify(new Authorizer.Request(head, route, auth, false, "192.0.2.1")).check();
      allowed = true;
    } catch (S3Exception e) {
      assertThat(e.code().code()).isEqualTo("AccessDenied");
      allowed = false;
    }
    boolean grants = policy.statements().stream().anyMatch(s -> s.effect() == Policy.Effect.ALLOW);
    boolean denies = policy.statements().stream().anyMatch(s -> s.effect() == Policy.Effect.DENY);
    boolean judged = route.operation().resource().ordinal() <= 2; // SERVICE, BUCKET, OBJECT
    if (principal == null || !principal.administrator()) {
      if (!grants && judged) {
        assertThat(allowed).as("%s %s by %s", method, target, who).isFalse();
      }
    } else if (!denies) {
      assertThat(allowed).as("%s %s by the administrator", method, target).isTrue();
    }
  }
}
