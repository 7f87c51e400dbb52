/**
 * Conditional requests: {@code If-Match}, {@code If-None-Match}, {@code If-Modified-Since}, {@code
 * If-Unmodified-Since} and their {@code x-amz-copy-source-if-*} forms, evaluated with S3's
 * precedence ({@link io.racs.proxy.s3.precondition.Preconditions}).
 */
package io.racs.proxy.s3.precondition;
