/**
 * {@code racs demo}: the whole story on one machine ({@link io.racs.bench.demo.DemoCommand}). It
 * starts the proxy's runtime over six repositories in 4x2 (local directories, or with {@code
 * --minio 6} six MinIO server processes from {@code io.racs.repos.minio}), runs a short object
 * bench through {@code racs bench object}, takes two repositories away while reads and writes go
 * on, replaces them with empty ones and heals, and writes a configuration file that {@code racs
 * heal}, {@code racs recover} and the bench can use afterwards.
 *
 * <p>It is a client of the other packages and must not carry logic of theirs: measuring is the
 * bench command's, serving the runtime's, healing the store's, and running MinIO {@code
 * io.racs.repos.minio}'s.
 */
package io.racs.bench.demo;
