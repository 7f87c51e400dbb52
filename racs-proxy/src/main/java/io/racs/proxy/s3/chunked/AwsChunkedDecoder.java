package io.racs.proxy.s3.chunked;

import io.racs.proxy.s3.auth.ContentSha256;
import io.racs.proxy.s3.auth.SigV4;
import io.racs.proxy.s3.auth.SigningContext;
import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Decodes an aws-chunked body in any of its three modes, verifying every chunk signature (seeded
 * with the request signature), the trailer signature, the declared trailers and the decoded length.
 *
 * <pre>
 * signed:            hex-size;chunk-signature=sig CRLF data CRLF ... 0;chunk-signature=sig CRLF
 *                    [trailer: value CRLF ... x-amz-trailer-signature: sig CRLF] CRLF
 * unsigned trailer:  hex-size CRLF data CRLF ... 0 CRLF trailer: value CRLF ... CRLF
 * </pre>
 *
 * <p>A chunk's signature is {@code HMAC(signingKey, "AWS4-HMAC-SHA256-PAYLOAD\n" + date + "\n" +
 * scope + "\n" + previousSignature + "\n" + sha256("") + "\n" + sha256(chunkData))}; the trailer
 * signature is {@code HMAC(signingKey, "AWS4-HMAC-SHA256-TRAILER\n" + date + "\n" + scope + "\n" +
 * finalChunkSignature + "\n" + sha256(trailers as "name:value\n"...))}.
 *
 * <p>Memory is one line buffer ({@link ChunkedLimits#maxLineBytes}) plus the trailers; data bytes
 * pass straight through to the sink as views of the input. Not thread-safe. See {@link BodyDecoder}
 * for the error contract. A body that ends right after its last complete trailer line without the
 * closing empty line is accepted (some SDKs omit it); every trailer and signature is still checked.
 */
public final class AwsChunkedDecoder implements BodyDecoder {
  private static final String PAYLOAD_ALGORITHM = "AWS4-HMAC-SHA256-PAYLOAD";
  private static final String TRAILER_ALGORITHM = "AWS4-HMAC-SHA256-TRAILER";
  private static final String SIGNATURE_EXTENSION = ";chunk-signature=";
  private static final String TRAILER_SIGNATURE = "x-amz-trailer-signature";

  private enum State {
    SIZE_LINE,
    DATA,
    DATA_CR,
    DATA_LF,
    FINAL_LINE,
    TRAILER_LINE,
    DONE
  }

  private final ContentSha256.Mode mode;
  private final long decodedLengthBytes;
  private final Set<String> declaredTrailers;
  private final PayloadSink sink;
  private final ChunkedLimits limits;
  private final SigningContext signing;
  private final Mac mac;
  private final MessageDigest chunkDigest;
  private final String scope;

  private final byte[] line;
  private int lineLength;
  private State state = State.SIZE_LINE;
  private long chunkRemaining;
  private String chunkSignature;
  private String previousSignature;
  private long decodedSoFar;
  private final Map<String, String> trailers = new LinkedHashMap<>();
  private final StringBuilder canonicalTrailers = new StringBuilder();
  private int trailerBytes;
  private String trailerSignature;
  private S3Exception failure;

  private AwsChunkedDecoder(
      ContentSha256.Mode mode,
      SigningContext signing,
      long decodedLengthBytes,
      Set<String> declaredTrailers,
      PayloadSink sink,
      ChunkedLimits limits) {
    this.mode = mode;
    this.signing = signing;
    this.decodedLengthBytes = decodedLengthBytes;
    this.declaredTrailers = declaredTrailers;
    this.sink = sink;
    this.limits = limits;
    this.line = new byte[limits.maxLineBytes()];
    if (mode.signedChunks()) {
      try {
        this.mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(signing.signingKey(), "HmacSHA256"));
      } catch (GeneralSecurityException e) {
        throw new IllegalStateException("HmacSHA256 is a required JDK algorithm", e);
      }
      this.chunkDigest = SigV4.newSha256();
      this.scope = signing.scope().toString();
      this.previousSignature = signing.seedSignature();
    } else {
      this.mac = null;
      this.chunkDigest = null;
      this.scope = null;
    }
  }

  /**
   * A decoder.
   *
   * @param mode one of the three chunked modes
   * @param signing the request's signing context; required for the signed modes, ignored otherwise
   * @param decodedLengthBytes {@code x-amz-decoded-content-length}: exactly this many payload bytes
   *     must arrive
   * @param declaredTrailers the lower-case trailer names of {@code x-amz-trailer}; only these may
   *     and all of them must follow the final chunk
   * @param sink receives the payload
   * @param limits buffer bounds
   */
  public static AwsChunkedDecoder create(
      ContentSha256.Mode mode,
      SigningContext signing,
      long decodedLengthBytes,
      Set<String> declaredTrailers,
      PayloadSink sink,
      ChunkedLimits limits) {
    Objects.requireNonNull(mode, "mode");
    if (!mode.chunked()) {
      throw new IllegalArgumentException("mode: " + mode + " (expected: an aws-chunked mode)");
    }
    if (mode.signedChunks()) {
      Objects.requireNonNull(signing, "signing (required for " + mode + ")");
    }
    if (decodedLengthBytes < 0) {
      throw new IllegalArgumentException(
          "decodedLengthBytes: " + decodedLengthBytes + " (expected: >= 0)");
    }
    Set<String> trailers = mode.trailer() ? Set.copyOf(declaredTrailers) : Set.of();
    return new AwsChunkedDecoder(
        mode,
        signing,
        decodedLengthBytes,
        trailers,
        Objects.requireNonNull(sink, "sink"),
        Objects.requireNonNull(limits, "limits"));
  }

  @Override
  public void feed(ByteBuffer data) {
    if (failure != null) {
      throw failure;
    }
    try {
      while (data.hasRemaining()) {
        switch (state) {
          case SIZE_LINE, FINAL_LINE, TRAILER_LINE -> {
            if (readLine(data)) {
              onLine();
            }
          }
          case DATA -> readData(data);
          case DATA_CR -> expect(data, (byte) '\r', State.DATA_LF);
          case DATA_LF -> {
            expect(data, (byte) '\n', State.SIZE_LINE);
            onChunkEnd();
          }
          case DONE -> throw invalid("data after the final chunk");
        }
      }
    } catch (S3Exception e) {
      failure = e;
      throw e;
    }
  }

  @Override
  public DecodedBody finish() {
    if (failure != null) {
      throw failure;
    }
    if (state == State.TRAILER_LINE && lineLength == 0 && !trailers.isEmpty()) {
      try {
        onTrailersEnd();
      } catch (S3Exception e) {
        failure = e;
        throw e;
      }
    }
    if (state != State.DONE) {
      failure =
          S3Exception.of(
              S3ErrorCode.INCOMPLETE_BODY,
              "The aws-chunked body ended before its final chunk ("
                  + decodedSoFar
                  + " of "
                  + decodedLengthBytes
                  + " bytes decoded).");
      throw failure;
    }
    return new DecodedBody(decodedSoFar, Collections.unmodifiableMap(trailers));
  }

  private boolean readLine(ByteBuffer data) {
    while (data.hasRemaining()) {
      byte b = data.get();
      if (lineLength == line.length) {
        throw invalid("a chunk-size or trailer line exceeds " + line.length + " bytes");
      }
      line[lineLength++] = b;
      if (b == '\n') {
        if (lineLength < 2 || line[lineLength - 2] != '\r') {
          throw invalid("a line does not end with CRLF");
        }
        return true;
      }
    }
    return false;
  }

  private void onLine() {
    String text = new String(line, 0, lineLength - 2, StandardCharsets.ISO_8859_1);
    int length = lineLength;
    lineLength = 0;
    switch (state) {
      case SIZE_LINE -> onSizeLine(text);
      case FINAL_LINE -> {
        if (!text.isEmpty()) {
          throw invalid("the final chunk is not followed by an empty line");
        }
        state = State.DONE;
      }
      case TRAILER_LINE -> onTrailerLine(text, length);
      default -> throw new IllegalStateException(state.toString());
    }
  }

  private void onSizeLine(String text) {
    String hex;
    if (mode.signedChunks()) {
      int ext = text.indexOf(SIGNATURE_EXTENSION);
      if (ext < 0) {
        throw invalid("a chunk has no chunk-signature");
      }
      hex = text.substring(0, ext);
      chunkSignature = text.substring(ext + SIGNATURE_EXTENSION.length());
      if (chunkSignature.length() != 64) {
        throw S3Exception.of(S3ErrorCode.SIGNATURE_DOES_NOT_MATCH);
      }
    } else {
      int ext = text.indexOf(';');
      hex = ext < 0 ? text : text.substring(0, ext);
    }
    long size = parseHexSize(hex);
    long left = decodedLengthBytes - decodedSoFar;
    if (size > left) {
      throw invalid("a chunk of " + size + " bytes exceeds x-amz-decoded-content-length");
    }
    if (size > 0) {
      chunkRemaining = size;
      state = State.DATA;
      return;
    }
    if (left > 0) {
      throw S3Exception.of(
          S3ErrorCode.INCOMPLETE_BODY,
          "The aws-chunked body has "
              + decodedSoFar
              + " bytes, x-amz-decoded-content-length says "
              + decodedLengthBytes
              + ".");
    }
    if (mode.signedChunks()) {
      verifyChunkSignature(SigV4.EMPTY_SHA256);
    }
    state = mode.trailer() ? State.TRAILER_LINE : State.FINAL_LINE;
  }

  private static long parseHexSize(String hex) {
    if (hex.isEmpty() || hex.length() > 16) {
      throw invalid("a chunk size is not 1 to 16 hex digits");
    }
    long size = 0;
    for (int i = 0; i < hex.length(); i++) {
      int d = Character.digit(hex.charAt(i), 16);
      if (d < 0) {
        throw invalid("a chunk size is not hex");
      }
      if (size > (Long.MAX_VALUE >>> 4)) {
        throw invalid("a chunk size overflows");
      }
      size = (size << 4) | d;
    }
    return size;
  }

  private void readData(ByteBuffer data) {
    int n = (int) Math.min(chunkRemaining, data.remaining());
    int start = data.position();
    ByteBuffer slice = data.slice(start, n).asReadOnlyBuffer();
    if (chunkDigest != null) {
      chunkDigest.update(slice.duplicate());
    }
    data.position(start + n);
    chunkRemaining -= n;
    decodedSoFar += n;
    sink.accept(slice);
    if (chunkRemaining == 0) {
      state = State.DATA_CR;
    }
  }

  private void expect(ByteBuffer data, byte expected, State next) {
    if (data.get() != expected) {
      throw invalid("chunk data is not followed by CRLF");
    }
    state = next;
  }

  private void onChunkEnd() {
    if (chunkDigest != null) {
      verifyChunkSignature(SigV4.hex(chunkDigest.digest()));
    }
  }

  private void verifyChunkSignature(String chunkSha256) {
    String stringToSign =
        PAYLOAD_ALGORITHM
            + '\n'
            + signing.amzDate()
            + '\n'
            + scope
            + '\n'
            + previousSignature
            + '\n'
            + SigV4.EMPTY_SHA256
            + '\n'
            + chunkSha256;
    String computed = SigV4.hex(mac.doFinal(stringToSign.getBytes(StandardCharsets.UTF_8)));
    if (!SigV4.signaturesEqual(computed, chunkSignature)) {
      throw S3Exception.of(
          S3ErrorCode.SIGNATURE_DOES_NOT_MATCH,
          "The chunk signature we calculated does not match the signature you provided.");
    }
    previousSignature = computed;
  }

  private void onTrailerLine(String text, int length) {
    if (text.isEmpty()) {
      onTrailersEnd();
      return;
    }
    if (trailerSignature != null) {
      throw invalid("a trailer follows x-amz-trailer-signature");
    }
    trailerBytes += length;
    if (trailerBytes > limits.maxTrailerBytes()) {
      throw trailersTooLarge();
    }
    int colon = text.indexOf(':');
    if (colon <= 0) {
      throw invalid("a trailer line has no name");
    }
    String name = text.substring(0, colon).strip().toLowerCase(Locale.ROOT);
    String value = text.substring(colon + 1).strip();
    if (name.equals(TRAILER_SIGNATURE)) {
      if (!mode.signedChunks()) {
        throw invalid("an unsigned body carries x-amz-trailer-signature");
      }
      trailerSignature = value;
      return;
    }
    // The signature is not a trailer: maxTrailers of them may come before it.
    if (trailers.size() >= limits.maxTrailers()) {
      throw trailersTooLarge();
    }
    if (!declaredTrailers.contains(name)) {
      throw invalid("the trailer " + name + " was not declared in x-amz-trailer");
    }
    if (trailers.putIfAbsent(name, value) != null) {
      throw invalid("the trailer " + name + " is repeated");
    }
    canonicalTrailers.append(name).append(':').append(value).append('\n');
  }

  private void onTrailersEnd() {
    for (String declared : declaredTrailers) {
      if (!trailers.containsKey(declared)) {
        throw invalid("the declared trailer " + declared + " is missing");
      }
    }
    if (mode.signedChunks()) {
      if (trailerSignature == null) {
        throw S3Exception.of(
            S3ErrorCode.SIGNATURE_DOES_NOT_MATCH, "The trailer signature is missing.");
      }
      String stringToSign =
          TRAILER_ALGORITHM
              + '\n'
              + signing.amzDate()
              + '\n'
              + scope
              + '\n'
              + previousSignature
              + '\n'
              + SigV4.sha256Hex(canonicalTrailers.toString());
      String computed = SigV4.hex(mac.doFinal(stringToSign.getBytes(StandardCharsets.UTF_8)));
      if (!SigV4.signaturesEqual(computed, trailerSignature)) {
        throw S3Exception.of(
            S3ErrorCode.SIGNATURE_DOES_NOT_MATCH,
            "The trailer signature we calculated does not match the signature you provided.");
      }
    }
    state = State.DONE;
  }

  private S3Exception trailersTooLarge() {
    return invalid(
        "the trailers exceed "
            + limits.maxTrailerBytes()
            + " bytes or "
            + limits.maxTrailers()
            + " headers");
  }

  private static S3Exception invalid(String what) {
    return S3Exception.of(S3ErrorCode.INVALID_REQUEST, "Malformed aws-chunked body: " + what + ".");
  }
}
