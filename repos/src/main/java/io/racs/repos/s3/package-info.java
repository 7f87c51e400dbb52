/**
 * The {@code s3} backend: a repository in one bucket (optionally under a key prefix) on AWS S3,
 * MinIO or any S3-compatible store, through the AWS SDK for Java v2 ({@link
 * io.racs.repos.s3.S3Repository}), with its settings ({@link io.racs.repos.s3.S3Options}) and where
 * its credentials come from ({@link io.racs.repos.s3.S3Credentials}). It owns the stored names
 * (safe names by default, or raw keys), single PUTs against multipart uploads and their bounded
 * buffering, retries of transient failures, and the one translation of S3 errors into repository
 * error kinds.
 *
 * <p>It is the only package of this module that knows the AWS SDK; it must not know the S3 protocol
 * the proxy serves (a different thing: RACS as an S3 server), nor configuration files or its
 * callers.
 */
package io.racs.repos.s3;
