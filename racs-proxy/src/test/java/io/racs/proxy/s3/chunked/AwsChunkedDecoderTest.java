package io.racs.proxy.s3.chunked;

import static io.racs.proxy.s3.chunked.ChunkedTestSupport.authenticate;
import static io.racs.proxy.s3.chunked.ChunkedTestSupport.feedInPieces;
import static io.racs.proxy.s3.chunked.ChunkedTestSupport.random;
import static io.racs.proxy.s3.chunked.ChunkedTestSupport.sdkChunked;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.s3.auth.Authentication;
import io.racs.proxy.s3.auth.ContentSha256;
import io.racs.proxy.s3.auth.SdkSigning;
import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.s3.http.Headers;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Proves the aws-chunked decoder restores exactly the payload the real AWS SDK v2 signer framed, in
 * all three modes and any fragmentation, and fails cleanly with the right S3 error on every kind of
 * tampering, truncation, oversize, overflow and length mismatch.
 */
class AwsChunkedDecoderTest {
  private static final int[] SIZES = {0, 1, 8191, 131_072, 131_073, 300_000};

  private record Run(
      SdkSigning.Signed signed, Authentication auth, ChunkedTestSupport.Collector out) {
    BodyDecoder decoder() {
      return BodyDecoders.forRequest(signed.head().headers(), auth, out, ChunkedLimits.DEFAULT);
    }
  }

  private static Run run(ChunkedTestSupport.SdkMode mode, byte[] payload) {
    SdkSigning.Signed signed = sdkChunked(mode, payload);
    return new Run(signed, authenticate(signed), new ChunkedTestSupport.Collector());
  }

  private static S3ErrorCode decodeError(Run run, byte[] body, Random r) {
    BodyDecoder d = run.decoder();
    try {
      feedInPieces(d, body, r);
      d.finish();
      return null;
    } catch (S3Exception e) {
      assertThatThrownBy(d::finish).isSameAs(e);
      return e.code();
    }
  }

  @ParameterizedTest
  @EnumSource(ChunkedTestSupport.SdkMode.class)
  void decode_whenSdkChunkedBodyInRandomPieces_restoresPayloadAndTrailers(
      ChunkedTestSupport.SdkMode mode) {
    long seed = 0xc0de_0001L + mode.ordinal();
    Random r = new Random(seed);
    for (int size : SIZES) {
      byte[] payload = random(r, size);
      Run run = run(mode, payload);
      assertThat(run.auth().contentSha256().mode().chunked()).isTrue();
      BodyDecoder d = run.decoder();
      feedInPieces(d, run.signed().body(), r);
      DecodedBody decoded = d.finish();
      String where = "seed " + seed + " size " + size + " mode " + mode;
      assertThat(decoded.decodedLengthBytes()).as(where).isEqualTo(size);
      assertThat(run.out().bytes.toByteArray()).as(where).isEqualTo(payload);
      if (mode.checksum != null) {
        String header = "x-amz-checksum-" + mode.checksum.algorithmId().toLowerCase();
        assertThat(decoded.trailers()).as(where).containsOnlyKeys(header);
      } else {
        assertThat(decoded.trailers()).as(where).isEmpty();
      }
    }
  }

  @ParameterizedTest
  @EnumSource(
      value = ChunkedTestSupport.SdkMode.class,
      names = {"SIGNED", "SIGNED_TRAILER"})
  void decode_whenAnyPayloadByteFlipped_signatureDoesNotMatch(ChunkedTestSupport.SdkMode mode) {
    long seed = 0xf1_1b00L + mode.ordinal();
    Random r = new Random(seed);
    byte[] payload = random(r, 300_000);
    Run run = run(mode, payload);
    byte[] body = run.signed().body();
    String text = new String(body, StandardCharsets.ISO_8859_1);
    int firstData = text.indexOf("\r\n") + 2;
    for (int i = 0; i < 20; i++) {
      byte[] tampered = body.clone();
      int at = firstData + r.nextInt(131_072);
      tampered[at] ^= (byte) (1 + r.nextInt(255));
      assertThat(decodeError(run, tampered, r))
          .as("seed " + seed + " flipped byte " + at)
          .isEqualTo(S3ErrorCode.SIGNATURE_DOES_NOT_MATCH);
    }
  }

  @ParameterizedTest
  @EnumSource(
      value = ChunkedTestSupport.SdkMode.class,
      names = {"SIGNED", "SIGNED_TRAILER"})
  void decode_whenChunkSignatureAltered_signatureDoesNotMatch(ChunkedTestSupport.SdkMode mode) {
    Random r = new Random(7);
    Run run = run(mode, random(r, 140_000));
    String body = new String(run.signed().body(), StandardCharsets.ISO_8859_1);
    int sigStart = body.lastIndexOf("chunk-signature=") + "chunk-signature=".length();
    for (int at : new int[] {body.indexOf("chunk-signature=") + 16, sigStart}) {
      char c = body.charAt(at);
      String tampered = body.substring(0, at) + (c == '0' ? '1' : '0') + body.substring(at + 1);
      assertThat(decodeError(run, tampered.getBytes(StandardCharsets.ISO_8859_1), r))
          .isEqualTo(S3ErrorCode.SIGNATURE_DOES_NOT_MATCH);
    }
    String noSig = body.replaceFirst(";chunk-signature=[0-9a-f]{64}", "");
    assertThat(decodeError(run, noSig.getBytes(StandardCharsets.ISO_8859_1), r))
        .isEqualTo(S3ErrorCode.INVALID_REQUEST);
    String shortSig = body.replaceFirst("(;chunk-signature=[0-9a-f]{63})[0-9a-f]", "$1");
    assertThat(decodeError(run, shortSig.getBytes(StandardCharsets.ISO_8859_1), r))
        .isEqualTo(S3ErrorCode.SIGNATURE_DOES_NOT_MATCH);
  }

  @Test
  void decode_whenChunksReordered_signatureDoesNotMatch() {
    Random r = new Random(11);
    Run run = run(ChunkedTestSupport.SdkMode.SIGNED, random(r, 262_144));
    String body = new String(run.signed().body(), StandardCharsets.ISO_8859_1);
    int second = body.indexOf("\r\n20000;chunk-signature=") + 2;
    int last = body.indexOf("0;chunk-signature=", body.length() - 100);
    String swapped =
        body.substring(second, last) + body.substring(0, second) + body.substring(last);
    assertThat(decodeError(run, swapped.getBytes(StandardCharsets.ISO_8859_1), r))
        .isEqualTo(S3ErrorCode.SIGNATURE_DOES_NOT_MATCH);
  }

  @ParameterizedTest
  @EnumSource(ChunkedTestSupport.SdkMode.class)
  void decode_whenTruncatedAnywhere_incompleteBodyOrInvalidRequest(
      ChunkedTestSupport.SdkMode mode) {
    long seed = 0x7a_0000L + mode.ordinal();
    Random r = new Random(seed);
    Run run = run(mode, random(r, 140_000));
    byte[] body = run.signed().body();
    for (int i = 0; i < 60; i++) {
      int cut = i < 10 ? body.length - 1 - i : r.nextInt(body.length);
      if (mode.checksum != null && cut == body.length - 2) {
        continue; // Complete but for the closing empty line: accepted, see the test below.
      }
      S3ErrorCode code = decodeError(run, Arrays.copyOf(body, cut), r);
      assertThat(code).as("seed " + seed + " cut at " + cut + " of " + body.length).isNotNull();
      assertThat(code)
          .as("seed " + seed + " cut at " + cut)
          .isIn(S3ErrorCode.INCOMPLETE_BODY, S3ErrorCode.INVALID_REQUEST);
    }
  }

  @ParameterizedTest
  @EnumSource(ChunkedTestSupport.SdkMode.class)
  void decode_whenDecodedLengthHeaderWrong_fails(ChunkedTestSupport.SdkMode mode) {
    Random r = new Random(3);
    Run run = run(mode, random(r, 10_000));
    for (long declared : new long[] {9_999, 10_001, 0, 1L << 40}) {
      Headers h =
          run.signed().head().headers().toBuilder()
              .set("x-amz-decoded-content-length", Long.toString(declared))
              .build();
      BodyDecoder d = BodyDecoders.forRequest(h, run.auth(), b -> {}, ChunkedLimits.DEFAULT);
      assertThatThrownBy(
              () -> {
                d.feed(ByteBuffer.wrap(run.signed().body()));
                d.finish();
              })
          .as("declared " + declared)
          .isInstanceOfSatisfying(
              S3Exception.class,
              e ->
                  assertThat(e.code())
                      .isIn(S3ErrorCode.INCOMPLETE_BODY, S3ErrorCode.INVALID_REQUEST));
    }
    Headers missing =
        run.signed().head().headers().toBuilder().remove("x-amz-decoded-content-length").build();
    assertThatThrownBy(
            () -> BodyDecoders.forRequest(missing, run.auth(), b -> {}, ChunkedLimits.DEFAULT))
        .isInstanceOfSatisfying(
            S3Exception.class,
            e -> assertThat(e.code()).isEqualTo(S3ErrorCode.MISSING_CONTENT_LENGTH));
    Headers negative =
        run.signed().head().headers().toBuilder().set("x-amz-decoded-content-length", "-1").build();
    assertThatThrownBy(
            () -> BodyDecoders.forRequest(negative, run.auth(), b -> {}, ChunkedLimits.DEFAULT))
        .isInstanceOfSatisfying(
            S3Exception.class, e -> assertThat(e.code()).isEqualTo(S3ErrorCode.INVALID_ARGUMENT));
  }

  @Test
  void decode_whenTrailerValueOrSignatureAltered_signatureDoesNotMatch() {
    Random r = new Random(5);
    Run run = run(ChunkedTestSupport.SdkMode.SIGNED_TRAILER, random(r, 1000));
    String body = new String(run.signed().body(), StandardCharsets.ISO_8859_1);
    int value = body.indexOf("x-amz-checksum-crc32:") + "x-amz-checksum-crc32:".length();
    String otherValue =
        body.substring(0, value)
            + (body.charAt(value) == 'A' ? 'B' : 'A')
            + body.substring(value + 1);
    assertThat(decodeError(run, otherValue.getBytes(StandardCharsets.ISO_8859_1), r))
        .isEqualTo(S3ErrorCode.SIGNATURE_DOES_NOT_MATCH);
    int sig = body.indexOf("x-amz-trailer-signature:") + "x-amz-trailer-signature:".length();
    String otherSig =
        body.substring(0, sig) + (body.charAt(sig) == '0' ? '1' : '0') + body.substring(sig + 1);
    assertThat(decodeError(run, otherSig.getBytes(StandardCharsets.ISO_8859_1), r))
        .isEqualTo(S3ErrorCode.SIGNATURE_DOES_NOT_MATCH);
    String noSig = body.replaceFirst("x-amz-trailer-signature:[0-9a-f]{64}\r\n", "");
    assertThat(decodeError(run, noSig.getBytes(StandardCharsets.ISO_8859_1), r))
        .isEqualTo(S3ErrorCode.SIGNATURE_DOES_NOT_MATCH);
    String extra =
        body.replaceFirst(
            "x-amz-trailer-signature:", "x-amz-checksum-sha1:AAAA\r\nx-amz-trailer-signature:");
    assertThat(decodeError(run, extra.getBytes(StandardCharsets.ISO_8859_1), r))
        .isEqualTo(S3ErrorCode.INVALID_REQUEST);
  }

  @Test
  void decode_whenUnsignedTrailerMissingUndeclaredOrSigned_invalidRequest() {
    Random r = new Random(6);
    Run run = run(ChunkedTestSupport.SdkMode.UNSIGNED_TRAILER, random(r, 1000));
    String body = new String(run.signed().body(), StandardCharsets.ISO_8859_1);
    String missing = body.replaceFirst("x-amz-checksum-crc32c:[^\r]*\r\n", "");
    assertThat(decodeError(run, missing.getBytes(StandardCharsets.ISO_8859_1), r))
        .isEqualTo(S3ErrorCode.INVALID_REQUEST);
    String undeclared = body.replace("x-amz-checksum-crc32c:", "x-amz-checksum-crc32:");
    assertThat(decodeError(run, undeclared.getBytes(StandardCharsets.ISO_8859_1), r))
        .isEqualTo(S3ErrorCode.INVALID_REQUEST);
    String repeated = body.replaceFirst("(x-amz-checksum-crc32c:[^\r]*\r\n)", "$1$1");
    assertThat(decodeError(run, repeated.getBytes(StandardCharsets.ISO_8859_1), r))
        .isEqualTo(S3ErrorCode.INVALID_REQUEST);
    String signed =
        body.replaceFirst("(x-amz-checksum-crc32c:[^\r]*\r\n)", "$1x-amz-trailer-signature:00\r\n");
    assertThat(decodeError(run, signed.getBytes(StandardCharsets.ISO_8859_1), r))
        .isEqualTo(S3ErrorCode.INVALID_REQUEST);
  }

  @Test
  void decode_whenTrailersNotClosedByEmptyLine_stillAccepts() {
    Random r = new Random(8);
    for (ChunkedTestSupport.SdkMode mode :
        new ChunkedTestSupport.SdkMode[] {
          ChunkedTestSupport.SdkMode.SIGNED_TRAILER, ChunkedTestSupport.SdkMode.UNSIGNED_TRAILER
        }) {
      byte[] payload = random(r, 5000);
      Run run = run(mode, payload);
      byte[] body = run.signed().body();
      BodyDecoder d = run.decoder();
      d.feed(ByteBuffer.wrap(body, 0, body.length - 2));
      assertThat(d.finish().trailers()).as(mode.toString()).hasSize(1);
      assertThat(run.out().bytes.toByteArray()).isEqualTo(payload);
    }
  }

  @Test
  void decode_whenDataFollowsFinalChunk_invalidRequest() {
    Random r = new Random(9);
    for (ChunkedTestSupport.SdkMode mode : ChunkedTestSupport.SdkMode.values()) {
      Run run = run(mode, random(r, 100));
      byte[] body = Arrays.copyOf(run.signed().body(), run.signed().body().length + 1);
      body[body.length - 1] = '0';
      assertThat(decodeError(run, body, r))
          .as(mode.toString())
          .isEqualTo(S3ErrorCode.INVALID_REQUEST);
    }
  }

  private static AwsChunkedDecoder unsigned(long decodedLength, ChunkedLimits limits) {
    return AwsChunkedDecoder.create(
        ContentSha256.Mode.STREAMING_UNSIGNED_TRAILER,
        null,
        decodedLength,
        Set.of(),
        b -> {},
        limits);
  }

  private static S3ErrorCode unsignedError(String body, long decodedLength) {
    AwsChunkedDecoder d = unsigned(decodedLength, ChunkedLimits.DEFAULT);
    try {
      d.feed(ByteBuffer.wrap(body.getBytes(StandardCharsets.ISO_8859_1)));
      d.finish();
      return null;
    } catch (S3Exception e) {
      return e.code();
    }
  }

  @Test
  void decode_whenFramingMalformed_invalidRequest() {
    assertThat(unsignedError("3\r\nabc\r\n0\r\n\r\n", 3)).isNull();
    assertThat(unsignedError("3;ext=1\r\nabc\r\n0\r\n\r\n", 3)).isNull();
    assertThat(unsignedError("-3\r\nabc\r\n0\r\n\r\n", 3)).isEqualTo(S3ErrorCode.INVALID_REQUEST);
    assertThat(unsignedError("\r\nabc\r\n0\r\n\r\n", 3)).isEqualTo(S3ErrorCode.INVALID_REQUEST);
    assertThat(unsignedError("0x3\r\nabc\r\n0\r\n\r\n", 3)).isEqualTo(S3ErrorCode.INVALID_REQUEST);
    assertThat(unsignedError(" 3\r\nabc\r\n0\r\n\r\n", 3)).isEqualTo(S3ErrorCode.INVALID_REQUEST);
    assertThat(unsignedError("3\nabc\r\n0\r\n\r\n", 3)).isEqualTo(S3ErrorCode.INVALID_REQUEST);
    assertThat(unsignedError("3\r\nabcX\n0\r\n\r\n", 3)).isEqualTo(S3ErrorCode.INVALID_REQUEST);
    assertThat(unsignedError("3\r\nabc\rX0\r\n\r\n", 3)).isEqualTo(S3ErrorCode.INVALID_REQUEST);
    assertThat(unsignedError("3\r\nabc\r\n0\r\nX\r\n", 3)).isEqualTo(S3ErrorCode.INVALID_REQUEST);
    assertThat(unsignedError("3\r\nabc\r\n0\r\n:v\r\n\r\n", 3))
        .isEqualTo(S3ErrorCode.INVALID_REQUEST);
  }

  @Test
  void decode_whenChunkSizeOverflowsOrExceedsDeclared_invalidRequest() {
    assertThat(unsignedError("10000000000000000\r\n", 3)).isEqualTo(S3ErrorCode.INVALID_REQUEST);
    assertThat(unsignedError("ffffffffffffffff\r\n", 3)).isEqualTo(S3ErrorCode.INVALID_REQUEST);
    assertThat(unsignedError("8000000000000000\r\n", 3)).isEqualTo(S3ErrorCode.INVALID_REQUEST);
    assertThat(unsignedError("7fffffffffffffff\r\n", Long.MAX_VALUE))
        .isEqualTo(S3ErrorCode.INCOMPLETE_BODY);
    assertThat(unsignedError("4\r\nabcd\r\n0\r\n\r\n", 3)).isEqualTo(S3ErrorCode.INVALID_REQUEST);
    assertThat(unsignedError("2\r\nab\r\n0\r\n\r\n", 3)).isEqualTo(S3ErrorCode.INCOMPLETE_BODY);
  }

  @Test
  void decode_whenMissingFinalChunk_incompleteBody() {
    assertThat(unsignedError("3\r\nabc\r\n", 3)).isEqualTo(S3ErrorCode.INCOMPLETE_BODY);
    assertThat(unsignedError("3\r\nabc\r\n0\r\n", 3)).isEqualTo(S3ErrorCode.INCOMPLETE_BODY);
    assertThat(unsignedError("", 0)).isEqualTo(S3ErrorCode.INCOMPLETE_BODY);
    assertThat(unsignedError("0\r\n\r\n", 0)).isNull();
  }

  @Test
  void decode_whenSizeLineNeverEnds_failsAtTheLimitWithoutBuffering() {
    ChunkedLimits limits = new ChunkedLimits(128, 1024, 4);
    AwsChunkedDecoder d = unsigned(10, limits);
    byte[] digits = new byte[127];
    Arrays.fill(digits, (byte) '0');
    d.feed(ByteBuffer.wrap(digits));
    assertThatThrownBy(() -> d.feed(ByteBuffer.wrap(new byte[] {'0', '0'})))
        .isInstanceOfSatisfying(
            S3Exception.class, e -> assertThat(e.code()).isEqualTo(S3ErrorCode.INVALID_REQUEST));
    assertThatThrownBy(() -> d.feed(ByteBuffer.wrap(new byte[] {'\r'})))
        .isInstanceOf(S3Exception.class);
  }

  @Test
  void decode_whenTrailersExceedLimits_invalidRequest() {
    ChunkedLimits limits = new ChunkedLimits(128, 256, 2);
    AwsChunkedDecoder d =
        AwsChunkedDecoder.create(
            ContentSha256.Mode.STREAMING_UNSIGNED_TRAILER,
            null,
            0,
            Set.of("a", "b", "c"),
            b -> {},
            limits);
    assertThatThrownBy(
            () ->
                d.feed(
                    ByteBuffer.wrap(
                        "0\r\na:1\r\nb:2\r\nc:3\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1))))
        .isInstanceOfSatisfying(
            S3Exception.class, e -> assertThat(e.code()).isEqualTo(S3ErrorCode.INVALID_REQUEST));
  }

  @Test
  void decode_whenSignedTrailersReachTheCountLimit_acceptsTheirSignature() {
    // Found by BodyDecoderFuzzTest: the x-amz-trailer-signature line was counted as a trailer, so
    // a signed body with exactly maxTrailers trailers was refused.
    Random r = new Random(11);
    byte[] payload = random(r, 3000);
    Run run = run(ChunkedTestSupport.SdkMode.SIGNED_TRAILER, payload);
    BodyDecoder d =
        BodyDecoders.forRequest(
            run.signed().head().headers(),
            run.auth(),
            run.out(),
            new ChunkedLimits(4096, 16384, 1));
    feedInPieces(d, run.signed().body(), r);
    assertThat(d.finish().trailers()).hasSize(1);
    assertThat(run.out().bytes.toByteArray()).isEqualTo(payload);
  }

  @Test
  void create_whenArgumentsInvalid_throwsNamingThem() {
    assertThatThrownBy(
            () ->
                AwsChunkedDecoder.create(
                    ContentSha256.Mode.SHA256, null, 0, Set.of(), b -> {}, ChunkedLimits.DEFAULT))
        .hasMessageContaining("mode: SHA256 (expected: an aws-chunked mode)");
    assertThatThrownBy(
            () ->
                AwsChunkedDecoder.create(
                    ContentSha256.Mode.STREAMING_UNSIGNED_TRAILER,
                    null,
                    -1,
                    Set.of(),
                    b -> {},
                    ChunkedLimits.DEFAULT))
        .hasMessage("decodedLengthBytes: -1 (expected: >= 0)");
    assertThatThrownBy(
            () ->
                AwsChunkedDecoder.create(
                    ContentSha256.Mode.STREAMING_SIGNED,
                    null,
                    0,
                    Set.of(),
                    b -> {},
                    ChunkedLimits.DEFAULT))
        .isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> new ChunkedLimits(10, 100, 1))
        .hasMessage("maxLineBytes: 10 (expected: >= 100)");
  }
}
