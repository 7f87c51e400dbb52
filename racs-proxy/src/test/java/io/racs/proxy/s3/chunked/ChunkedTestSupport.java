package io.racs.proxy.s3.chunked;

import io.racs.proxy.s3.auth.Authentication;
import io.racs.proxy.s3.auth.S3Authenticator;
import io.racs.proxy.s3.auth.SdkSigning;
import io.racs.proxy.s3.auth.StaticCredentialStore;
import io.racs.testkit.SeededBytes;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Random;
import software.amazon.awssdk.checksums.DefaultChecksumAlgorithm;
import software.amazon.awssdk.checksums.spi.ChecksumAlgorithm;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;

/** Bodies from the real SDK signer, and feeding helpers. */
final class ChunkedTestSupport {
  static final String AK = "RACSCHUNKKEY";
  static final String SK = "chunk-secret";
  static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");
  static final S3Authenticator AUTH =
      S3Authenticator.builder(StaticCredentialStore.of(AK, SK))
          .clock(Clock.fixed(NOW, ZoneOffset.UTC))
          .build();

  /** An aws-chunked mode as the SDK produces it. */
  enum SdkMode {
    SIGNED(true, null),
    SIGNED_TRAILER(true, DefaultChecksumAlgorithm.CRC32),
    UNSIGNED_TRAILER(false, DefaultChecksumAlgorithm.CRC32C);

    final boolean signed;
    final ChecksumAlgorithm checksum;

    SdkMode(boolean signed, ChecksumAlgorithm checksum) {
      this.signed = signed;
      this.checksum = checksum;
    }
  }

  private ChunkedTestSupport() {}

  static SdkSigning.Signed sdkChunked(SdkMode mode, byte[] payload) {
    return SdkSigning.sign(
        AK,
        SK,
        NOW,
        "PUT",
        "/bucket/object",
        List.of(),
        Map.of("Content-Length", Integer.toString(payload.length)),
        payload,
        b -> {
          b.putProperty(AwsV4HttpSigner.CHUNK_ENCODING_ENABLED, true);
          b.putProperty(AwsV4HttpSigner.PAYLOAD_SIGNING_ENABLED, mode.signed);
          if (mode.checksum != null) {
            b.putProperty(AwsV4HttpSigner.CHECKSUM_ALGORITHM, mode.checksum);
          }
        });
  }

  static Authentication authenticate(SdkSigning.Signed signed) {
    return AUTH.authenticate(signed.head());
  }

  static byte[] random(Random r, int size) {
    return SeededBytes.bytes(r.nextLong(), size);
  }

  /** Feeds {@code body} in random pieces (sometimes single bytes, sometimes empty buffers). */
  static void feedInPieces(BodyDecoder decoder, byte[] body, Random r) {
    int pos = 0;
    while (pos < body.length) {
      int n =
          switch (r.nextInt(4)) {
            case 0 -> 1;
            case 1 -> r.nextInt(8);
            case 2 -> r.nextInt(200);
            default -> r.nextInt(70_000);
          };
      n = Math.min(n, body.length - pos);
      // Offset views prove the decoder honours position and limit.
      byte[] padded = new byte[n + 6];
      System.arraycopy(body, pos, padded, 3, n);
      decoder.feed(ByteBuffer.wrap(padded, 3, n));
      pos += n;
    }
  }

  /** A sink collecting everything. */
  static final class Collector implements PayloadSink {
    final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

    @Override
    public void accept(ByteBuffer payload) {
      byte[] b = new byte[payload.remaining()];
      payload.get(b);
      bytes.writeBytes(b);
    }
  }
}
