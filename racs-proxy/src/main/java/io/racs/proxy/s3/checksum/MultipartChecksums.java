package io.racs.proxy.s3.checksum;

import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;

/**
 * The checksums of a multipart object computed from its parts, as S3 computes them: the ETag is
 * {@code hex(md5(md5(part1) || md5(part2) ...)) + "-N"}; a composite checksum is {@code
 * base64(alg(checksum(part1) || checksum(part2) ...)) + "-N"}.
 */
public final class MultipartChecksums {
  private MultipartChecksums() {}

  /**
   * The multipart ETag (without quotes) from the parts' ETags (hex MD5, quotes allowed), in part
   * order.
   *
   * @throws IllegalArgumentException when a part ETag is not a hex MD5
   */
  public static String etag(List<String> partEtags) {
    if (partEtags.isEmpty()) {
      throw new IllegalArgumentException("partEtags: [] (expected: at least one part)");
    }
    var md5 = ChecksumAlgorithm.digest("MD5");
    for (String etag : partEtags) {
      String hex = etag.strip();
      if (hex.length() >= 2 && hex.startsWith("\"") && hex.endsWith("\"")) {
        hex = hex.substring(1, hex.length() - 1);
      }
      byte[] bytes;
      try {
        bytes = HexFormat.of().parseHex(hex.toLowerCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("partEtag: " + etag + " (expected: hex MD5)", e);
      }
      if (bytes.length != 16) {
        throw new IllegalArgumentException("partEtag: " + etag + " (expected: hex MD5)");
      }
      md5.update(bytes);
    }
    return HexFormat.of().formatHex(md5.digest()) + "-" + partEtags.size();
  }

  /**
   * The composite checksum from the parts' base64 checksums, in part order.
   *
   * @throws IllegalArgumentException when a part checksum is not base64 of the right length
   */
  public static String composite(ChecksumAlgorithm algorithm, List<String> partChecksumsBase64) {
    if (partChecksumsBase64.isEmpty()) {
      throw new IllegalArgumentException("partChecksums: [] (expected: at least one part)");
    }
    StreamingChecksum c = algorithm.newChecksum();
    for (String part : partChecksumsBase64) {
      byte[] bytes;
      try {
        bytes = Base64.getDecoder().decode(part.strip());
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "partChecksum: " + part + " (expected: base64 " + algorithm + ")", e);
      }
      if (bytes.length != algorithm.lengthBytes()) {
        throw new IllegalArgumentException(
            "partChecksum: " + part + " (expected: base64 " + algorithm + ")");
      }
      c.update(bytes, 0, bytes.length);
    }
    return c.base64() + "-" + partChecksumsBase64.size();
  }
}
