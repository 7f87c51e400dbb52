/**
 * The bench's own S3 client for endpoint targets: SigV4 signing ({@link
 * io.racs.bench.object.target.s3.S3Signer}), one persistent HTTP/1.1 connection per benchmark
 * client ({@link io.racs.bench.object.target.s3.Http1Connection}) and the S3 operations a workload
 * uses ({@link io.racs.bench.object.target.s3.S3HttpClient}). It does only what a load generator
 * needs, so that the client costs less than the server it measures.
 */
package io.racs.bench.object.target.s3;
