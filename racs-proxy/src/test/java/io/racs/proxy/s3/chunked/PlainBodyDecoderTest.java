package io.racs.proxy.s3.chunked;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.s3.auth.AuthType;
import io.racs.proxy.s3.auth.Authentication;
import io.racs.proxy.s3.auth.ContentSha256;
import io.racs.proxy.s3.auth.SigV4;
import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.s3.http.Headers;
import java.time.Instant;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Proves plain bodies pass through unchanged, that a hex {@code x-amz-content-sha256} is verified
 * at the end of the body ({@code XAmzContentSHA256Mismatch}), and that Content-Length is enforced.
 */
class PlainBodyDecoderTest {
  private static Authentication auth(ContentSha256 payload) {
    return new Authentication("ak", AuthType.V4_HEADER, Instant.EPOCH, payload, Optional.empty());
  }

  @Test
  void decode_whenSha256Matches_passesBodyThrough() {
    long seed = 42;
    byte[] body = ChunkedTestSupport.random(new Random(seed), 100_000);
    String hex = SigV4.hex(SigV4.newSha256().digest(body));
    ChunkedTestSupport.Collector out = new ChunkedTestSupport.Collector();
    BodyDecoder d =
        BodyDecoders.forRequest(
            Headers.of("Content-Length", "100000"),
            auth(ContentSha256.parse(hex)),
            out,
            ChunkedLimits.DEFAULT);
    ChunkedTestSupport.feedInPieces(d, body, new Random(seed));
    assertThat(d.finish().decodedLengthBytes()).isEqualTo(100_000);
    assertThat(out.bytes.toByteArray()).as("seed " + seed).isEqualTo(body);
  }

  @Test
  void decode_whenSha256Differs_xAmzContentSha256Mismatch() {
    byte[] body = ChunkedTestSupport.random(new Random(1), 1000);
    BodyDecoder d =
        BodyDecoders.forRequest(
            Headers.empty(),
            auth(ContentSha256.parse(SigV4.sha256Hex("other"))),
            b -> {},
            ChunkedLimits.DEFAULT);
    d.feed(body, 0, body.length);
    assertThatThrownBy(d::finish)
        .isInstanceOfSatisfying(
            S3Exception.class,
            e -> assertThat(e.code()).isEqualTo(S3ErrorCode.X_AMZ_CONTENT_SHA256_MISMATCH));
  }

  @Test
  void decode_whenUpperCaseHexSha256_matches() {
    byte[] body = {1, 2, 3};
    String hex = SigV4.hex(SigV4.newSha256().digest(body)).toUpperCase();
    BodyDecoder d =
        BodyDecoders.forRequest(
            Headers.empty(), auth(ContentSha256.parse(hex)), b -> {}, ChunkedLimits.DEFAULT);
    d.feed(body, 0, 3);
    assertThat(d.finish().decodedLengthBytes()).isEqualTo(3);
  }

  @Test
  void decode_whenUnsignedBodyShorterOrLongerThanContentLength_fails() {
    BodyDecoder shorter =
        BodyDecoders.forRequest(
            Headers.of("Content-Length", "5"),
            auth(ContentSha256.UNSIGNED),
            b -> {},
            ChunkedLimits.DEFAULT);
    shorter.feed(new byte[4], 0, 4);
    assertThatThrownBy(shorter::finish)
        .isInstanceOfSatisfying(
            S3Exception.class, e -> assertThat(e.code()).isEqualTo(S3ErrorCode.INCOMPLETE_BODY));
    BodyDecoder longer = PlainBodyDecoder.unsigned(5, b -> {});
    assertThatThrownBy(() -> longer.feed(new byte[6], 0, 6))
        .isInstanceOfSatisfying(
            S3Exception.class, e -> assertThat(e.code()).isEqualTo(S3ErrorCode.INVALID_REQUEST));
    assertThatThrownBy(longer::finish).isInstanceOf(S3Exception.class);
  }

  @Test
  void sha256_whenExpectedNotHex_throwsNamingIt() {
    assertThatThrownBy(() -> PlainBodyDecoder.sha256("xyz", -1, b -> {}))
        .hasMessage("expectedSha256Hex: xyz (expected: 64 hex digits)");
  }
}
