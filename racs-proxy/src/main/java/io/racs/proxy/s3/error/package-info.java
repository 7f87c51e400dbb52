/**
 * S3 errors: the {@link io.racs.proxy.s3.error.S3ErrorCode} enum (code, HTTP status, default
 * message) and the one exception the S3 layer throws ({@link io.racs.proxy.s3.error.S3Exception}).
 * Failures of other kinds (the store's, overload, bugs) become one in a single place, {@code
 * io.racs.proxy.s3.bridge.StoreErrors.translate}, which knows the store; this package knows nothing
 * but S3. The XML body is rendered by {@code io.racs.proxy.s3.xml.ErrorXml}.
 */
package io.racs.proxy.s3.error;
