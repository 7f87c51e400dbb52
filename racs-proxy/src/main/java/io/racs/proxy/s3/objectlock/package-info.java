/**
 * S3 Object Lock as the wire carries it: the bucket's {@code ObjectLockConfiguration} (its default
 * retention), the {@code Retention} and {@code LegalHold} documents of a version, and the {@code
 * x-amz-object-lock-*} headers of writes, each parsed and validated as S3 validates it (the error
 * codes of the ceph s3-tests) and rendered for the answers. Pure and thread-safe; the store's side
 * (what keeps a version) is {@code store.commit.RemovalRule}.
 */
package io.racs.proxy.s3.objectlock;
