/**
 * The one crossing from the S3 layer into the store: {@link io.racs.proxy.s3.bridge.StoreBridge}
 * runs every store call the handlers and the connection make, and turns every store failure into
 * the S3 error a client expects (lost quorum is a 503 that SDKs retry; a full array is 507).
 *
 * <p>It knows the store's interface and records, and the S3 error codes; it must not know HTTP,
 * Netty, signatures or XML, which stay in the S3 units that use it.
 */
package io.racs.proxy.s3.bridge;
