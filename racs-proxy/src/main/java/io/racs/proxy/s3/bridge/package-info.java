/**
 * The one crossing from the S3 layer into the store, and the S3 layer's own view of what the store
 * holds.
 *
 * <p>Three parts, one concern each: {@link io.racs.proxy.s3.bridge.StoreBridge}, the facade, runs
 * every store call the handlers make; {@link io.racs.proxy.s3.bridge.StoreErrors} is the one
 * translation of any failure into the S3 error a client expects (lost quorum is a 503 that SDKs
 * retry; a full array is 507); {@code StoreViews} maps the store's records into the S3 view below
 * and the handlers' requests into the store's forms. A request body the S3 layer refuses while the
 * store reads it keeps the S3 error it was refused with: the bridge watches the body it hands the
 * store ({@code WatchedBody}), rather than digging the error back out of the store's exception.
 *
 * <p>The handlers see the store only through the small types here, which the bridge builds from the
 * store's records and which carry only what an S3 answer needs: {@link
 * io.racs.proxy.s3.bridge.ObjectVersion} (size, ETag, dates, content type and headers, user
 * metadata, checksums, part sizes), {@link io.racs.proxy.s3.bridge.ObjectReader} and {@link
 * io.racs.proxy.s3.bridge.ChunkedStream} for bodies, {@link io.racs.proxy.s3.bridge.ObjectListing},
 * {@link io.racs.proxy.s3.bridge.UploadedPart}, {@link io.racs.proxy.s3.bridge.MultipartUpload},
 * {@link io.racs.proxy.s3.bridge.Bucket}; and what a handler asks the store with ({@link
 * io.racs.proxy.s3.bridge.PutOptions}, {@link io.racs.proxy.s3.bridge.WriteCondition}, {@link
 * io.racs.proxy.s3.bridge.CompletedPart}, {@link io.racs.proxy.s3.bridge.BucketDocument}). No
 * shard, slot, data id or layout crosses.
 *
 * <p>It is the only S3 package that knows the store ({@code S3PackagesTest} keeps it so). It knows
 * the S3 error codes, but not HTTP, Netty, signatures or XML, which stay in the S3 units that use
 * it.
 */
package io.racs.proxy.s3.bridge;
