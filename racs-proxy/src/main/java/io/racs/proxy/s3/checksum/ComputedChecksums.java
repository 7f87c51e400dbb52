package io.racs.proxy.s3.checksum;

import java.util.HexFormat;
import java.util.Optional;

/**
 * The checksums of a body that passed verification: its MD5 (the ETag of a single-part object) and,
 * when one was announced, the {@code x-amz-checksum-*} value to store and return.
 *
 * @param md5 the body's MD5
 * @param algorithm the announced algorithm, if any
 * @param base64Value its verified value, if any
 */
public record ComputedChecksums(
    byte[] md5, Optional<ChecksumAlgorithm> algorithm, Optional<String> base64Value) {
  /** The quoted-less ETag: lower-case hex MD5. */
  public String md5Hex() {
    return HexFormat.of().formatHex(md5);
  }
}
