/**
 * The request head as the S3 layer sees it, independent of the server: method, the raw path and
 * query exactly as sent, and case-insensitive headers ({@link io.racs.proxy.s3.http.RequestHead}),
 * plus the percent-encoding rules S3 and SigV4 use ({@link io.racs.proxy.s3.http.PercentCodec}).
 * Pure and immutable, so auth, routing and conditionals are testable without a server.
 */
package io.racs.proxy.s3.http;
