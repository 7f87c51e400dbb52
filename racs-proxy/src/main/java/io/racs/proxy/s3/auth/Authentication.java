package io.racs.proxy.s3.auth;

import java.time.Instant;
import java.util.Optional;

/**
 * A request that passed authentication.
 *
 * @param accessKeyId who signed it
 * @param type how
 * @param requestTime the signed request time ({@code x-amz-date}, {@code Date}, or for SigV2
 *     presigned URLs the expiry)
 * @param contentSha256 the declared payload mode; {@code UNSIGNED-PAYLOAD} for presigned and SigV2
 *     requests
 * @param signingContext for SigV4 requests, what verifies an aws-chunked body
 */
public record Authentication(
    String accessKeyId,
    AuthType type,
    Instant requestTime,
    ContentSha256 contentSha256,
    Optional<SigningContext> signingContext) {}
