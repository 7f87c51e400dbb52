package io.racs.proxy.s3.chunked;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.racs.proxy.s3.auth.ContentSha256;
import io.racs.proxy.s3.auth.CredentialScope;
import io.racs.proxy.s3.auth.SigningContext;
import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzzes the request body decoders: aws-chunked in its three modes, and plain bodies checked
 * against {@code Content-Length} and a SHA-256. The body comes either straight from the fuzzer or
 * from a valid framing of a fuzzed payload (chunk sizes, hex case, trailers, the signature chain),
 * optionally damaged at one place or cut short; it is fed in fuzzed pieces. Properties:
 *
 * <ul>
 *   <li>a body is accepted ({@code finish()} returns) only if {@link AwsChunkedReference}, an
 *       independent whole-body decoder, accepts it, and then exactly its payload and trailers
 *       reached the sink: a body that did not decode is never delivered as complete;
 *   <li>a valid framing is always accepted with exactly the payload framed: decode(encode(x)) = x;
 *   <li>the only failure is the S3 error {@link BodyDecoder} documents, and once failed, the
 *       decoder keeps failing with it.
 * </ul>
 */
class BodyDecoderFuzzTest {
  private static final Set<S3ErrorCode> DECODER_ERRORS =
      Set.of(
          S3ErrorCode.SIGNATURE_DOES_NOT_MATCH,
          S3ErrorCode.INCOMPLETE_BODY,
          S3ErrorCode.INVALID_REQUEST,
          S3ErrorCode.X_AMZ_CONTENT_SHA256_MISMATCH);
  private static final ContentSha256.Mode[] CHUNKED_MODES = {
    ContentSha256.Mode.STREAMING_SIGNED,
    ContentSha256.Mode.STREAMING_SIGNED_TRAILER,
    ContentSha256.Mode.STREAMING_UNSIGNED_TRAILER
  };
  private static final String[] TRAILER_NAMES = {
    "x-amz-checksum-crc32", "x-amz-checksum-crc64nvme", "x-amz-checksum-sha256", "x-amz-meta-a"
  };
  private static final byte[] KEY =
      "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.UTF_8);
  private static final CredentialScope SCOPE = new CredentialScope("20260101", "us-east-1", "s3");
  private static final String AMZ_DATE = "20260101T120000Z";
  private static final String SEED_SIGNATURE =
      "4f232c4386841ef735655705268965c44a0e4690baa4adea153f7db9fa80a0a9";

  /** A sink that keeps what it is given. */
  private static final class Collector implements PayloadSink {
    final java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();

    @Override
    public void accept(ByteBuffer payload) {
      byte[] b = new byte[payload.remaining()];
      payload.get(b);
      bytes.writeBytes(b);
    }
  }

  @FuzzTest
  @Timeout(value = 10, unit = TimeUnit.SECONDS)
  void decode(FuzzedDataProvider data) {
    if (data.consumeInt(0, 7) == 0) {
      plain(data);
    } else {
      chunked(data);
    }
  }

  private static void chunked(FuzzedDataProvider data) {
    ContentSha256.Mode mode = data.pickValue(CHUNKED_MODES);
    ChunkedLimits limits =
        data.consumeBoolean() ? ChunkedLimits.DEFAULT : new ChunkedLimits(100, 300, 2);
    Set<String> declared = new LinkedHashSet<>();
    if (mode.trailer()) {
      for (int i = data.consumeInt(0, 3); i > 0; i--) {
        declared.add(data.pickValue(TRAILER_NAMES));
      }
    }
    SigningContext signing = new SigningContext(KEY, AMZ_DATE, SCOPE, SEED_SIGNATURE);
    AwsChunkedReference.Signing reference =
        new AwsChunkedReference.Signing(KEY, AMZ_DATE, SCOPE.toString(), SEED_SIGNATURE);

    boolean generated = data.consumeBoolean();
    long decodedLength;
    byte[] body;
    boolean intact = false;
    byte[] framedPayload = null;
    List<Integer> pieces = new ArrayList<>();
    if (generated) {
      List<Integer> chunkSizes = new ArrayList<>();
      for (int i = data.consumeInt(0, 4); i > 0; i--) {
        chunkSizes.add(data.consumeInt(1, 300));
      }
      boolean upperHex = data.consumeBoolean();
      boolean closingLine = data.consumeBoolean();
      Map<String, String> trailers = new LinkedHashMap<>();
      for (String name : declared) {
        trailers.put(name, data.consumeAsciiString(20).replace("\r", "").replace("\n", "").strip());
      }
      int damage = data.consumeInt(0, 3); // 0: none, 1: one byte, 2: cut short, 3: extra bytes
      int where = data.consumeInt(0, Integer.MAX_VALUE);
      byte value = data.consumeByte();
      readPieces(data, pieces);
      framedPayload = data.consumeRemainingAsBytes();
      decodedLength = framedPayload.length;
      body =
          AwsChunkedReference.encode(
              framedPayload, chunkSizes, upperHex, mode, reference, trailers, closingLine);
      switch (damage) {
        case 1 -> body[where % body.length] = value;
        case 2 -> body = java.util.Arrays.copyOf(body, where % body.length);
        case 3 -> {
          body = java.util.Arrays.copyOf(body, body.length + 1);
          body[body.length - 1] = value;
        }
        default -> intact = true;
      }
    } else {
      decodedLength = data.consumeLong(0, 1 << 12);
      readPieces(data, pieces);
      body = data.consumeRemainingAsBytes();
    }

    Collector sink = new Collector();
    BodyDecoder decoder =
        AwsChunkedDecoder.create(mode, signing, decodedLength, declared, sink, limits);
    AwsChunkedReference.Decoded expected =
        AwsChunkedReference.decode(body, mode, decodedLength, declared, reference, limits);
    DecodedBody decoded = run(decoder, body, pieces);
    String where =
        mode
            + ", decoded length "
            + decodedLength
            + ", trailers "
            + declared
            + ", "
            + limits
            + ", body "
            + printable(body);

    if (intact && limits.equals(ChunkedLimits.DEFAULT)) {
      // Within the default limits, which no framing here comes near, every valid framing decodes.
      assertThat(expected).as("the reference decodes a valid framing: " + where).isNotNull();
      assertThat(decoded).as("a valid framing is accepted: " + where).isNotNull();
      assertThat(sink.bytes.toByteArray()).as(where).isEqualTo(framedPayload);
    }
    if (decoded == null) {
      assertThat(expected).as("the reference accepts what the decoder refused: " + where).isNull();
      return;
    }
    assertThat(expected)
        .as("the decoder accepted a body that does not decode: " + where)
        .isNotNull();
    assertThat(sink.bytes.toByteArray()).as(where).isEqualTo(expected.payload());
    assertThat(decoded.decodedLengthBytes()).as(where).isEqualTo(decodedLength);
    assertThat(decoded.trailers()).as(where).isEqualTo(expected.trailers());
  }

  private static void plain(FuzzedDataProvider data) {
    boolean lengthKnown = data.consumeBoolean();
    int declaredLength = data.consumeInt(0, 64);
    int shaChoice = data.consumeInt(0, 2); // 0: unsigned, 1: the body's SHA-256, 2: another
    List<Integer> pieces = new ArrayList<>();
    readPieces(data, pieces);
    byte[] body = data.consumeRemainingAsBytes();
    long length = lengthKnown ? declaredLength : -1;
    Collector sink = new Collector();
    String sha = sha256Hex(shaChoice == 2 ? new byte[] {1} : body);
    BodyDecoder decoder =
        shaChoice == 0
            ? PlainBodyDecoder.unsigned(length, sink)
            : PlainBodyDecoder.sha256(sha, length, sink);
    DecodedBody decoded = run(decoder, body, pieces);
    boolean valid =
        (length < 0 || length == body.length) && (shaChoice != 2 || sha.equals(sha256Hex(body)));
    if (decoded == null) {
      assertThat(valid).as("a valid plain body was refused").isFalse();
      return;
    }
    assertThat(valid).as("an invalid plain body was accepted").isTrue();
    assertThat(sink.bytes.toByteArray()).isEqualTo(body);
    assertThat(decoded.decodedLengthBytes()).isEqualTo(body.length);
  }

  /** Piece sizes to feed the body in; the last piece takes what is left. */
  private static void readPieces(FuzzedDataProvider data, List<Integer> pieces) {
    for (int i = data.consumeInt(0, 6); i > 0; i--) {
      pieces.add(data.consumeInt(0, 200));
    }
  }

  /** Feeds the body in the given pieces and finishes; null when the decoder refused it. */
  private static DecodedBody run(BodyDecoder decoder, byte[] body, List<Integer> pieces) {
    int pos = 0;
    try {
      for (int piece : pieces) {
        int n = Math.min(piece, body.length - pos);
        // An offset view proves the decoder honours position and limit.
        byte[] padded = new byte[n + 4];
        System.arraycopy(body, pos, padded, 2, n);
        decoder.feed(ByteBuffer.wrap(padded, 2, n));
        pos += n;
      }
      decoder.feed(ByteBuffer.wrap(body, pos, body.length - pos));
      return decoder.finish();
    } catch (S3Exception e) {
      assertThat(e.code()).as(e.toString()).isIn(DECODER_ERRORS);
      assertThatThrownBy(decoder::finish).isSameAs(e);
      assertThatThrownBy(() -> decoder.feed(ByteBuffer.allocate(1))).isSameAs(e);
      return null;
    }
  }

  /** The body with CR, LF and other control bytes escaped, for failure messages. */
  private static String printable(byte[] body) {
    StringBuilder b = new StringBuilder("\"");
    for (byte value : body) {
      int c = value & 0xFF;
      switch (c) {
        case '\r' -> b.append("\\r");
        case '\n' -> b.append("\\n");
        case '\\' -> b.append("\\\\");
        default -> {
          if (c < 0x20 || c >= 0x7f) {
            b.append(String.format("\\x%02x", c));
          } else {
            b.append((char) c);
          }
        }
      }
    }
    return b.append('"').toString();
  }

  private static String sha256Hex(byte[] data) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
