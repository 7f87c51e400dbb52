/**
 * MinIO server processes on this machine, run from the binary {@code ./racs provision} builds:
 * {@link io.racs.repos.minio.MinioServer} starts, stops, kills and restarts one on a port it keeps,
 * and {@link io.racs.repos.minio.ProvisionedTools} finds what the provisioning script installed.
 * {@code racs demo --minio 6} runs its six repositories on these servers, and the test kit's {@code
 * MinioExtension} builds on them, so the demo and the tests start MinIO the same way.
 *
 * <p>This package owns processes, ports and directories, not storage: it must not know the
 * repository SPI or any S3 client (a caller points an {@code s3} repository or an SDK client at
 * {@link io.racs.repos.minio.MinioServer#endpoint()}), nor anything of JUnit.
 */
package io.racs.repos.minio;
