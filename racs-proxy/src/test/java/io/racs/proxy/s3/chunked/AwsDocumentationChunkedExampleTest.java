package io.racs.proxy.s3.chunked;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.s3.auth.Authentication;
import io.racs.proxy.s3.auth.S3Authenticator;
import io.racs.proxy.s3.auth.StaticCredentialStore;
import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.s3.http.Headers;
import io.racs.proxy.s3.http.RequestHead;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Proves the signed aws-chunked decoder verifies the worked example of the S3 documentation
 * ("Signature calculations for the Authorization header: transferring payload in multiple chunks":
 * 66,560 bytes of 'a' in chunks of 65,536 and 1,024 bytes) with its published chunk signatures.
 */
class AwsDocumentationChunkedExampleTest {
  private static final String SEED =
      "4f232c4386841ef735655705268965c44a0e4690baa4adea153f7db9fa80a0a9";
  private static final String[] CHUNK_SIGNATURES = {
    "ad80c730a21e5b8d04586a2213dd63b9a0e99e0e2307b0ade35a65485a288648",
    "0055627c9e194cb4542bae2aa5492e3c1575bbb81b612b7d234b86a503ef5497",
    "b6c6ea8a5354eaf15b3cb7646744f4275b71ea724fed81ceb9323e279d449df9"
  };

  private static Authentication authenticateExample() {
    RequestHead put =
        RequestHead.of(
            "PUT",
            "/examplebucket/chunkObject.txt",
            Headers.of(
                "Host", "s3.amazonaws.com",
                "x-amz-date", "20130524T000000Z",
                "x-amz-storage-class", "REDUCED_REDUNDANCY",
                "Authorization",
                    "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,SignedHeaders=content-encoding;content-length;host;x-amz-content-sha256;x-amz-date;x-amz-decoded-content-length;x-amz-storage-class,Signature="
                        + SEED,
                "x-amz-content-sha256", "STREAMING-AWS4-HMAC-SHA256-PAYLOAD",
                "Content-Encoding", "aws-chunked",
                "x-amz-decoded-content-length", "66560",
                "Content-Length", "66824"));
    return S3Authenticator.builder(
            StaticCredentialStore.of(
                "AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"))
        .clock(Clock.fixed(Instant.parse("2013-05-24T00:00:00Z"), ZoneOffset.UTC))
        .build()
        .authenticate(put);
  }

  private static byte[] exampleBody(String[] signatures) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int[] sizes = {65_536, 1_024, 0};
    for (int i = 0; i < 3; i++) {
      out.writeBytes(
          (Integer.toHexString(sizes[i]) + ";chunk-signature=" + signatures[i] + "\r\n")
              .getBytes(StandardCharsets.US_ASCII));
      byte[] data = new byte[sizes[i]];
      Arrays.fill(data, (byte) 'a');
      out.writeBytes(data);
      out.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
    }
    return out.toByteArray();
  }

  @Test
  void decode_whenDocumentationExample_restoresSixtyFiveThousandAs() {
    byte[] body = exampleBody(CHUNK_SIGNATURES);
    assertThat(body).hasSize(66_824);
    Authentication auth = authenticateExample();
    long seed = 0xd0c5L;
    Random r = new Random(seed);
    ChunkedTestSupport.Collector out = new ChunkedTestSupport.Collector();
    BodyDecoder d =
        BodyDecoders.forRequest(
            Headers.of("x-amz-decoded-content-length", "66560"), auth, out, ChunkedLimits.DEFAULT);
    ChunkedTestSupport.feedInPieces(d, body, r);
    assertThat(d.finish().decodedLengthBytes()).isEqualTo(66_560);
    byte[] expected = new byte[66_560];
    Arrays.fill(expected, (byte) 'a');
    assertThat(out.bytes.toByteArray()).as("seed " + seed).isEqualTo(expected);
  }

  @Test
  void decode_whenDocumentationExampleByteByByte_restoresPayload() {
    byte[] body = exampleBody(CHUNK_SIGNATURES);
    long[] total = {0};
    BodyDecoder d =
        BodyDecoders.forRequest(
            Headers.of("x-amz-decoded-content-length", "66560"),
            authenticateExample(),
            b -> total[0] += b.remaining(),
            ChunkedLimits.DEFAULT);
    for (byte b : body) {
      d.feed(ByteBuffer.wrap(new byte[] {b}));
    }
    d.finish();
    assertThat(total[0]).isEqualTo(66_560);
  }

  @Test
  void decode_whenDocumentationExampleSecondAndThirdSignaturesSwapped_signatureDoesNotMatch() {
    byte[] body =
        exampleBody(new String[] {CHUNK_SIGNATURES[0], CHUNK_SIGNATURES[2], CHUNK_SIGNATURES[1]});
    BodyDecoder d =
        BodyDecoders.forRequest(
            Headers.of("x-amz-decoded-content-length", "66560"),
            authenticateExample(),
            b -> {},
            ChunkedLimits.DEFAULT);
    assertThatThrownBy(() -> d.feed(ByteBuffer.wrap(body)))
        .isInstanceOfSatisfying(
            S3Exception.class,
            e -> assertThat(e.code()).isEqualTo(S3ErrorCode.SIGNATURE_DOES_NOT_MATCH));
  }
}
