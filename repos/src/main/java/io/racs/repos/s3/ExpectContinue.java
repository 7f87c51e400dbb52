package io.racs.repos.s3;

import java.util.Optional;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;

/**
 * Keeps {@code Expect: 100-continue} (which the SDK's S3 client puts on every PutObject and
 * UploadPart) only on bodies of at least {@link S3Options#expectContinueBytes()}: a large shard
 * then waits for the store's {@code 100 Continue} and is never sent to a store that refuses it at
 * once, while a small one goes with its headers, without the round trip the wait costs on every PUT
 * over a WAN. A body of unknown length keeps it. Runs after the SDK's own interceptors, which add
 * it.
 */
final class ExpectContinue implements ExecutionInterceptor {
  private final long minBytes;

  ExpectContinue(long minBytes) {
    this.minBytes = minBytes;
  }

  @Override
  public SdkHttpRequest modifyHttpRequest(
      Context.ModifyHttpRequest context, ExecutionAttributes executionAttributes) {
    SdkHttpRequest request = context.httpRequest();
    if (request.method() != SdkHttpMethod.PUT) {
      return request;
    }
    // aws-chunked bodies (flexible checksums in a trailer) carry their payload's own length apart.
    Optional<String> length =
        request
            .firstMatchingHeader("x-amz-decoded-content-length")
            .or(() -> request.firstMatchingHeader("Content-Length"));
    if (length.isEmpty()) {
      return request;
    }
    long bytes;
    try {
      bytes = Long.parseLong(length.get().strip());
    } catch (NumberFormatException e) {
      return request;
    }
    boolean asks = request.firstMatchingHeader("Expect").isPresent();
    if (bytes >= minBytes && bytes > 0 && !asks) {
      return request.toBuilder().putHeader("Expect", "100-continue").build();
    }
    if (bytes < minBytes && asks) {
      return request.toBuilder().removeHeader("Expect").build();
    }
    return request;
  }
}
