/**
 * Where an object workload runs: a configured repository measured directly through the {@link
 * io.racs.repos.Repository} SPI, or an S3 endpoint (the proxy, a MinIO server) driven with the
 * bench's own S3 client ({@code s3}) or, for {@code --payload sdk}, the AWS SDK v2; one connection
 * per client. Both look alike to the runner, and failures of either become one error-kind string.
 */
package io.racs.bench.object.target;
