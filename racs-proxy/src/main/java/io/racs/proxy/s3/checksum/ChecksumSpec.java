package io.racs.proxy.s3.checksum;

import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.s3.http.Headers;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The checksums a request announces for its body: {@code Content-MD5}, and at most one {@code
 * x-amz-checksum-<alg>}, given either as a header value now or as a trailer ({@code x-amz-trailer})
 * after an aws-chunked body. {@code x-amz-sdk-checksum-algorithm} must agree with it.
 *
 * @param contentMd5 the 16 bytes of {@code Content-MD5}, if sent
 * @param algorithm the {@code x-amz-checksum-*} algorithm, if any
 * @param headerValue its base64 value when sent as a header (empty when it comes as a trailer)
 * @param inTrailer whether the value comes as a trailer
 */
public record ChecksumSpec(
    Optional<byte[]> contentMd5,
    Optional<ChecksumAlgorithm> algorithm,
    Optional<String> headerValue,
    boolean inTrailer) {

  /** No checksum announced. */
  public static final ChecksumSpec NONE =
      new ChecksumSpec(Optional.empty(), Optional.empty(), Optional.empty(), false);

  /** {@code x-amz-checksum-*} headers that name a mode or type, not a value. */
  private static final Set<String> NOT_VALUES =
      Set.of("x-amz-checksum-mode", "x-amz-checksum-type", "x-amz-checksum-algorithm");

  /**
   * Reads the announced checksums from request headers.
   *
   * @throws S3Exception {@code InvalidDigest} for a malformed {@code Content-MD5}; {@code
   *     InvalidRequest} for a malformed value, an unknown algorithm, more than one checksum, or an
   *     {@code x-amz-sdk-checksum-algorithm} without its checksum
   */
  public static ChecksumSpec fromHeaders(Headers headers) {
    return parse(headers, true);
  }

  /**
   * The checksums announced for a CompleteMultipartUpload's XML body: {@code Content-MD5} and
   * trailers only, since its {@code x-amz-checksum-*} headers are the object's ({@link
   * CompletionChecksums}), as is {@code x-amz-sdk-checksum-algorithm} with them.
   *
   * @throws S3Exception as {@link #fromHeaders(Headers)}
   */
  public static ChecksumSpec forCompletion(Headers headers) {
    return parse(headers, false);
  }

  private static ChecksumSpec parse(Headers headers, boolean headerValuesAreTheBodys) {
    Optional<byte[]> md5 = Optional.empty();
    String md5Header = headers.get("content-md5");
    if (md5Header != null) {
      md5 = Optional.of(parseContentMd5(md5Header));
    }
    List<ChecksumAlgorithm> inHeaders = new ArrayList<>();
    String value = null;
    if (headerValuesAreTheBodys) {
      for (Map.Entry<ChecksumAlgorithm, String> h : valueHeaders(headers).entrySet()) {
        value = h.getValue();
        checkValue(h.getKey(), value, h.getKey().headerName());
        inHeaders.add(h.getKey());
      }
    }
    List<ChecksumAlgorithm> inTrailers = new ArrayList<>();
    for (String t : headers.all("x-amz-trailer")) {
      for (String name : t.split(",")) {
        String n = name.strip().toLowerCase(Locale.ROOT);
        if (n.startsWith("x-amz-checksum-")) {
          inTrailers.add(
              ChecksumAlgorithm.fromHeaderName(n)
                  .orElseThrow(
                      () ->
                          S3Exception.of(
                              S3ErrorCode.INVALID_REQUEST,
                              "The algorithm of trailer " + n + " is not supported.")));
        }
      }
    }
    if (inHeaders.size() + inTrailers.size() > 1) {
      throw S3Exception.of(
          S3ErrorCode.INVALID_REQUEST,
          "Expecting a single x-amz-checksum- header. Multiple checksum Types are not allowed.");
    }
    Optional<ChecksumAlgorithm> algorithm =
        !inHeaders.isEmpty() ? Optional.of(inHeaders.get(0)) : inTrailers.stream().findFirst();
    String sdk = headers.get("x-amz-sdk-checksum-algorithm");
    if (sdk != null && headerValuesAreTheBodys) {
      ChecksumAlgorithm declared = namedAlgorithm(sdk);
      if (algorithm.isEmpty() || algorithm.get() != declared) {
        throw S3Exception.of(
            S3ErrorCode.INVALID_REQUEST,
            "x-amz-sdk-checksum-algorithm specified, but no corresponding x-amz-checksum-* or"
                + " x-amz-trailer headers were found.");
      }
    }
    return new ChecksumSpec(
        md5,
        algorithm,
        inHeaders.isEmpty() ? Optional.empty() : Optional.of(value),
        !inTrailers.isEmpty());
  }

  /**
   * The algorithm a header such as {@code x-amz-sdk-checksum-algorithm} names.
   *
   * @throws S3Exception {@code InvalidRequest} for an unknown one
   */
  static ChecksumAlgorithm namedAlgorithm(String name) {
    return ChecksumAlgorithm.fromName(name)
        .orElseThrow(
            () ->
                S3Exception.of(
                    S3ErrorCode.INVALID_REQUEST,
                    "Checksum algorithm provided is unsupported. Please try again with any of"
                        + " the valid types: [CRC32, CRC32C, CRC64NVME, SHA1, SHA256]"));
  }

  /**
   * The {@code x-amz-checksum-<alg>} headers that carry a value (not a mode or a type), algorithm
   * to stripped value, in the headers' order.
   *
   * @throws S3Exception {@code InvalidRequest} for an unknown algorithm
   */
  static Map<ChecksumAlgorithm, String> valueHeaders(Headers headers) {
    Map<ChecksumAlgorithm, String> values = new LinkedHashMap<>();
    for (String name : headers.asMap().keySet()) {
      if (!name.startsWith("x-amz-checksum-") || NOT_VALUES.contains(name)) {
        continue;
      }
      ChecksumAlgorithm a =
          ChecksumAlgorithm.fromHeaderName(name)
              .orElseThrow(
                  () ->
                      S3Exception.of(
                          S3ErrorCode.INVALID_REQUEST,
                          "The algorithm of " + name + " is not supported."));
      values.put(a, headers.get(name).strip());
    }
    return values;
  }

  /**
   * Decodes a {@code Content-MD5} value: base64 of exactly 16 bytes.
   *
   * @throws S3Exception {@code InvalidDigest} otherwise
   */
  public static byte[] parseContentMd5(String value) {
    try {
      byte[] md5 = Base64.getDecoder().decode(value.strip());
      if (md5.length == 16) {
        return md5;
      }
    } catch (IllegalArgumentException e) {
      // Reported below.
    }
    throw S3Exception.of(S3ErrorCode.INVALID_DIGEST);
  }

  /**
   * Checks that {@code value} is base64 of a checksum of {@code algorithm}.
   *
   * @throws S3Exception {@code InvalidRequest} naming the header otherwise
   */
  static void checkValue(ChecksumAlgorithm algorithm, String value, String headerName) {
    try {
      if (Base64.getDecoder().decode(value).length == algorithm.lengthBytes()) {
        return;
      }
    } catch (IllegalArgumentException e) {
      // Reported below.
    }
    throw S3Exception.of(
        S3ErrorCode.INVALID_REQUEST, "Value for " + headerName + " header is invalid.");
  }
}
