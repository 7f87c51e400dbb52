package io.racs.proxy.s3.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Proves the request view keeps the raw path and query, decodes query parameters once with S3's
 * rules, keeps headers case-insensitive, and that percent-encoding follows SigV4 and the listing
 * {@code encoding-type=url} form.
 */
class RequestHeadTest {
  @Test
  void of_whenTargetHasQuery_splitsRawPathAndQuery() {
    RequestHead h = RequestHead.of("get", "/b/a%20b?uploads&prefix=a+b%2B&x=", Headers.empty());
    assertThat(h.method()).isEqualTo("GET");
    assertThat(h.rawPath()).isEqualTo("/b/a%20b");
    assertThat(h.rawQuery()).isEqualTo("uploads&prefix=a+b%2B&x=");
    QueryParams q = h.query();
    assertThat(q.contains("uploads")).isTrue();
    assertThat(q.get("uploads")).isEmpty();
    assertThat(q.get("prefix")).isEqualTo("a b+");
    assertThat(q.count("x")).isEqualTo(1);
    assertThat(q.toString()).doesNotContain("a b+");
    assertThat(RequestHead.of("GET", "http://h:9000/b/k?x=1", Headers.empty()).rawPath())
        .isEqualTo("/b/k");
    assertThat(RequestHead.of("GET", "http://h:9000", Headers.empty()).rawPath()).isEqualTo("/");
  }

  @Test
  void query_whenMalformedEscape_invalidUri() {
    assertThatThrownBy(() -> QueryParams.parse("a=%G1"))
        .isInstanceOfSatisfying(
            S3Exception.class, e -> assertThat(e.code()).isEqualTo(S3ErrorCode.INVALID_URI));
    assertThatThrownBy(() -> QueryParams.parse("a=%E2%82")).isInstanceOf(S3Exception.class);
  }

  @Test
  void headers_whenMixedCase_areCaseInsensitiveAndHideValues() {
    Headers h = Headers.builder().add("X-Amz-Meta-A", "1").add("x-amz-meta-a", "2").build();
    assertThat(h.all("X-AMZ-META-A")).isEqualTo(List.of("1", "2"));
    assertThat(h.get("x-amz-meta-a")).isEqualTo("1");
    assertThat(h.toString()).doesNotContain("1");
    assertThat(h.toBuilder().set("x-amz-meta-a", "3").build().all("x-amz-meta-a"))
        .containsExactly("3");
    assertThatThrownBy(() -> Headers.of("a"))
        .hasMessage("namesAndValues.length: 1 (expected: even)");
  }

  @Test
  void percentCodec_whenEncoding_followsSigV4AndFormRules() {
    assertThat(PercentCodec.uriEncodePath("a b/c~-._!*'()日"))
        .isEqualTo("a%20b/c~-._%21%2A%27%28%29%E6%97%A5");
    assertThat(PercentCodec.uriEncodeComponent("a/b")).isEqualTo("a%2Fb");
    assertThat(PercentCodec.formEncode("a b+c/d%\u0001")).isEqualTo("a+b%2Bc/d%25%01");
    assertThat(PercentCodec.decode("a+b%2B", false)).isEqualTo("a+b+");
    assertThat(PercentCodec.decode("a+b%2B", true)).isEqualTo("a b+");
    assertThat(PercentCodec.decode("日本", false)).isEqualTo("日本");
    assertThatThrownBy(() -> PercentCodec.decode("%", false))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
