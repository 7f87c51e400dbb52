/**
 * Bucket lifecycle: the rules of a LifecycleConfiguration (expiration of current versions, and
 * abort of incomplete multipart uploads), their validation as S3 validates them, and the one rule
 * of when an object has expired ({@link io.racs.proxy.s3.lifecycle.Expiration}).
 */
package io.racs.proxy.s3.lifecycle;
