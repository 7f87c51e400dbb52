/**
 * Object and bucket tags: a validated tag set, parsed from a {@code Tagging} document or from the
 * URL-encoded form of {@code x-amz-tagging}, checked against S3's limits, and rendered back.
 */
package io.racs.proxy.s3.tagging;
