package io.racs.proxy.s3.checksum;

import java.util.HexFormat;
import java.util.Optional;

/**
 * The checksums of a body that passed verification: its MD5 when {@code Content-MD5} was announced
 * and, when one was announced, the {@code x-amz-checksum-*} value to store and return.
 *
 * @param md5 the body's MD5, if {@code Content-MD5} was announced (and matched)
 * @param algorithm the announced algorithm, if any
 * @param base64Value its verified value, if any
 */
public record ComputedChecksums(
    Optional<byte[]> md5, Optional<ChecksumAlgorithm> algorithm, Optional<String> base64Value) {
  /** The MD5 in lower-case hex, if it was computed. */
  public Optional<String> md5Hex() {
    return md5.map(HexFormat.of()::formatHex);
  }
}
