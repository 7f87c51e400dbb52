/**
 * Request routing: which {@link io.racs.proxy.s3.route.S3Operation} a request is, on which bucket
 * and key ({@link io.racs.proxy.s3.route.S3Router}), with bucket-name and key-length validation
 * ({@link io.racs.proxy.s3.route.BucketNames}). Pure functions of the request head.
 */
package io.racs.proxy.s3.route;
