/**
 * The bucket tier: bucket records and their cache ({@code BucketCatalog}), the documents a bucket
 * carries (CORS, tags, lifecycle, default encryption: {@code BucketDocuments}), and the
 * serialisation of bucket creation and deletion across proxies ({@code BucketCoordinator}).
 */
package io.racs.proxy.store.bucket;
