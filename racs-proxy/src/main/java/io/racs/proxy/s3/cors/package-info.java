/**
 * Bucket CORS: the rules of a CORSConfiguration, their validation as S3 validates them, and the one
 * matching rule that both preflight ({@code OPTIONS}) answers and the headers of actual requests
 * come from.
 */
package io.racs.proxy.s3.cors;
