package io.racs.proxy.s3.chunked;

import java.util.Map;

/**
 * What a completely and validly decoded body leaves behind.
 *
 * @param decodedLengthBytes how many payload bytes reached the sink
 * @param trailers the trailer headers (names lower-case, values trimmed), without {@code
 *     x-amz-trailer-signature}; empty for bodies without trailers
 */
public record DecodedBody(long decodedLengthBytes, Map<String, String> trailers) {
  /** Copies the map. */
  public DecodedBody {
    trailers = Map.copyOf(trailers);
  }
}
