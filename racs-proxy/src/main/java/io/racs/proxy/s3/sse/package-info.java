/**
 * Server-side encryption requests as S3 clients send them: which encryption a write asks for, the
 * customer's key of an SSE-C request (and of its copy source), checked and refused the way S3
 * refuses them, and the response headers that say how an object is encrypted.
 */
package io.racs.proxy.s3.sse;
