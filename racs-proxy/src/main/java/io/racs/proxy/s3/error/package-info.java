/**
 * S3 errors: the {@link io.racs.proxy.s3.error.S3ErrorCode} enum (code, HTTP status, default
 * message), the one exception the S3 layer throws ({@link io.racs.proxy.s3.error.S3Exception}), and
 * the one translator from any failure to it ({@link io.racs.proxy.s3.error.S3ErrorTranslator}). The
 * XML body is rendered by {@code io.racs.proxy.s3.xml.ErrorXml}.
 */
package io.racs.proxy.s3.error;
