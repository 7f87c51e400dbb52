package io.racs.proxy.s3.chunked;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.s3.auth.Authentication;
import io.racs.proxy.s3.auth.SdkSigning;
import io.racs.proxy.s3.checksum.ChecksumAlgorithm;
import io.racs.proxy.s3.checksum.ChecksumSpec;
import io.racs.proxy.s3.checksum.ChecksumVerifier;
import io.racs.proxy.s3.checksum.ComputedChecksums;
import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Proves the decoder and the checksum verifier together accept the trailer checksum the SDK
 * computed for its aws-chunked body, and answer {@code BadDigest} when a payload byte of an
 * unsigned body changes in transit (nothing else would notice).
 */
class ChunkedChecksumPipelineTest {
  private static ComputedChecksums decodeAndVerify(SdkSigning.Signed signed, byte[] body) {
    Authentication auth = ChunkedTestSupport.authenticate(signed);
    ChecksumVerifier verifier =
        ChecksumVerifier.create(ChecksumSpec.fromHeaders(signed.head().headers()));
    BodyDecoder d =
        BodyDecoders.forRequest(
            signed.head().headers(), auth, verifier::update, ChunkedLimits.DEFAULT);
    ChunkedTestSupport.feedInPieces(d, body, new Random(1));
    return verifier.verify(d.finish().trailers());
  }

  @Test
  void verify_whenSdkTrailerBodies_acceptsTheirChecksums() {
    long seed = 0x7e11L;
    Random r = new Random(seed);
    for (ChunkedTestSupport.SdkMode mode :
        new ChunkedTestSupport.SdkMode[] {
          ChunkedTestSupport.SdkMode.SIGNED_TRAILER, ChunkedTestSupport.SdkMode.UNSIGNED_TRAILER
        }) {
      SdkSigning.Signed signed =
          ChunkedTestSupport.sdkChunked(mode, ChunkedTestSupport.random(r, 200_000));
      ComputedChecksums c = decodeAndVerify(signed, signed.body());
      assertThat(c.algorithm())
          .as("seed " + seed + " " + mode)
          .contains(ChecksumAlgorithm.valueOf(mode.checksum.algorithmId()));
    }
  }

  @Test
  void verify_whenUnsignedTrailerBodyPayloadChanged_badDigest() {
    long seed = 0x7e12L;
    Random r = new Random(seed);
    SdkSigning.Signed signed =
        ChunkedTestSupport.sdkChunked(
            ChunkedTestSupport.SdkMode.UNSIGNED_TRAILER, ChunkedTestSupport.random(r, 10_000));
    byte[] body = signed.body().clone();
    int firstData = new String(body, StandardCharsets.ISO_8859_1).indexOf("\r\n") + 2;
    body[firstData + r.nextInt(10_000)] ^= 0x40;
    assertThatThrownBy(() -> decodeAndVerify(signed, body))
        .as("seed " + seed)
        .isInstanceOfSatisfying(
            S3Exception.class, e -> assertThat(e.code()).isEqualTo(S3ErrorCode.BAD_DIGEST));
  }
}
