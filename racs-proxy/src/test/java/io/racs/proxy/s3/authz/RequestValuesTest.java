package io.racs.proxy.s3.authz;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.s3.auth.AuthType;
import io.racs.proxy.s3.auth.Authentication;
import io.racs.proxy.s3.auth.ContentSha256;
import io.racs.proxy.s3.http.Headers;
import io.racs.proxy.s3.http.RequestHead;
import io.racs.proxy.s3.policy.Conditions;
import io.racs.proxy.s3.policy.Principal;
import io.racs.proxy.s3.policy.RequestContext;
import io.racs.proxy.s3.route.S3Operation;
import io.racs.proxy.s3.route.S3Router;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Proves the condition values the decision point computes on demand: every condition key a policy
 * may name ({@link Conditions#KEYS}) is filled from a request that carries it, with the value AWS
 * gives it; a key the request lacks is absent, never empty; and the values a condition asks for one
 * by one are those a whole listing of them shows.
 */
class RequestValuesTest {
  private static final Instant NOW = Instant.parse("2026-06-01T12:00:00Z");
  private static final Principal USER = new Principal("alice", false, List.of());

  private static Authorizer.Request request(
      AuthType type, boolean secure, String method, String target, String... headers) {
    RequestHead head = RequestHead.of(method, target, Headers.of(headers));
    Authentication auth =
        type == null
            ? null
            : new Authentication("key", type, NOW, ContentSha256.UNSIGNED, Optional.empty());
    return new Authorizer.Request(
        head, S3Router.pathStyle().route(head), auth, secure, "192.0.2.7");
  }

  private static Map<String, List<String>> all(RequestValues values) {
    Map<String, List<String>> out = new HashMap<>();
    for (String key : Conditions.KEYS) {
      List<String> v = values.apply(key);
      if (v != null) {
        out.put(key, v);
      }
    }
    return out;
  }

  @Test
  void values_ofASignedListing_fillEveryKeyItCarries() {
    Authorizer.Request list =
        request(
            AuthType.V4_HEADER,
            true,
            "GET",
            "/bkt?list-type=2&prefix=photos/&delimiter=/&max-keys=50",
            "user-agent",
            "aws-cli/2.0",
            "referer",
            "https://example.com/");
    RequestValues values = new RequestValues(list, USER, list.route().operation(), NOW);
    assertThat(all(values))
        .containsExactlyInAnyOrderEntriesOf(
            Map.ofEntries(
                Map.entry("aws:currenttime", List.of("2026-06-01T12:00:00Z")),
                Map.entry("aws:epochtime", List.of("1780315200")),
                Map.entry("aws:securetransport", List.of("true")),
                Map.entry("aws:sourceip", List.of("192.0.2.7")),
                Map.entry("aws:useragent", List.of("aws-cli/2.0")),
                Map.entry("aws:referer", List.of("https://example.com/")),
                Map.entry("s3:prefix", List.of("photos/")),
                Map.entry("s3:delimiter", List.of("/")),
                Map.entry("s3:max-keys", List.of("50")),
                Map.entry("aws:principaltype", List.of("User")),
                Map.entry("aws:username", List.of("alice")),
                Map.entry("s3:authtype", List.of("REST-HEADER")),
                Map.entry("s3:signatureversion", List.of("AWS4-HMAC-SHA256"))));
  }

  @Test
  void values_ofEveryKey_areFilledBySomeRequest() {
    Authorizer.Request list = request(AuthType.V4_HEADER, false, "GET", "/bkt?prefix=a&max-keys=1");
    Authorizer.Request get =
        request(AuthType.V2_PRESIGNED, false, "GET", "/bkt/k?versionId=v1", "referer", "r");
    Map<String, List<String>> seen = new HashMap<>();
    seen.putAll(all(new RequestValues(list, USER, list.route().operation(), NOW)));
    seen.putAll(all(new RequestValues(get, USER, get.route().operation(), NOW)));
    seen.putAll(
        all(
            new RequestValues(
                request(
                    AuthType.V4_HEADER,
                    false,
                    "PUT",
                    "/bkt/k",
                    "user-agent",
                    "u",
                    "x-amz-server-side-encryption",
                    "AES256"),
                USER,
                S3Operation.PUT_OBJECT,
                NOW)));
    seen.putAll(
        all(
            new RequestValues(
                request(AuthType.V4_HEADER, false, "GET", "/bkt?delimiter=/"),
                USER,
                S3Operation.LIST_OBJECTS_V1,
                NOW)));
    // A key a policy may name that no request fills would make every StringNotEquals on it true.
    assertThat(seen.keySet()).containsExactlyInAnyOrderElementsOf(Conditions.KEYS);
    assertThat(all(new RequestValues(get, USER, get.route().operation(), NOW)))
        .containsEntry("s3:versionid", List.of("v1"))
        .containsEntry("s3:authtype", List.of("REST-QUERY-STRING"))
        .containsEntry("s3:signatureversion", List.of("AWS"))
        .doesNotContainKeys("s3:prefix", "s3:max-keys", "s3:delimiter");
  }

  @Test
  void values_ofAnAnonymousGet_sayAnonymousAndLackWhatItDoesNotCarry() {
    Authorizer.Request get = request(null, false, "GET", "/bkt/k");
    Map<String, List<String>> values =
        all(new RequestValues(get, null, get.route().operation(), NOW));
    assertThat(values)
        .containsEntry("aws:principaltype", List.of("Anonymous"))
        .containsEntry("aws:securetransport", List.of("false"))
        .doesNotContainKeys(
            "aws:username",
            "s3:authtype",
            "s3:signatureversion",
            "aws:useragent",
            "aws:referer",
            "s3:versionid",
            "s3:x-amz-server-side-encryption");
    Principal admin = new Principal("root-key", true, List.of());
    assertThat(all(new RequestValues(get, admin, get.route().operation(), NOW)))
        .containsEntry("aws:principaltype", List.of("Account"))
        .doesNotContainKey("aws:username");
  }

  @Test
  void computed_listsTheValuesItAnswersOneByOne() {
    Authorizer.Request list = request(AuthType.V4_HEADER, true, "GET", "/bkt?prefix=p");
    RequestValues direct = new RequestValues(list, USER, list.route().operation(), NOW);
    Map<String, List<String>> computed = RequestContext.computed(direct);
    // What a DeleteObjects key with a version copies (the whole map) is what conditions ask for.
    assertThat(computed).containsExactlyInAnyOrderEntriesOf(all(direct));
    for (String key : Conditions.KEYS) {
      assertThat(computed.get(key)).as(key).isEqualTo(direct.apply(key));
    }
    assertThat(computed.get("aws:sourcevpc")).isNull();
    assertThat(computed.containsKey("s3:versionid")).isFalse();
  }

  @Test
  void values_ofADeleteObjectsKeyOrAFormUpload_changeOnlyWhatTheyJudgeApart() {
    Authorizer.Request delete = request(AuthType.V4_HEADER, false, "POST", "/bkt?delete");
    RequestValues values = new RequestValues(delete, USER, delete.route().operation(), NOW);
    Map<String, List<String>> before = all(values);
    Map<String, List<String>> versioned = all(values.withVersionId("v7"));
    assertThat(versioned).containsEntry("s3:versionid", List.of("v7"));
    versioned.remove("s3:versionid");
    assertThat(versioned).isEqualTo(before);

    Authorizer.Request form =
        request(null, false, "POST", "/bkt", "content-type", "multipart/form-data; boundary=b");
    RequestValues unsigned = new RequestValues(form, null, form.route().operation(), NOW);
    assertThat(all(unsigned.uploadedBy(USER)))
        .containsEntry("s3:authtype", List.of("POST"))
        .containsEntry("aws:principaltype", List.of("User"))
        .containsEntry("aws:username", List.of("alice"));
    assertThat(all(unsigned.uploadedBy(new Principal("root-key", true, List.of()))))
        .containsEntry("aws:principaltype", List.of("Account"))
        .doesNotContainKey("aws:username");
    assertThat(all(unsigned.uploadedBy(null)))
        .containsEntry("s3:authtype", List.of("POST"))
        .containsEntry("aws:principaltype", List.of("Anonymous"))
        .doesNotContainKey("aws:username");
  }
}
