/**
 * The object tier: PUT, inline objects and delete markers ({@code ObjectWrites}), the writes of a
 * key as its bucket's versioning state names them ({@code VersionedWrites}), reads of versions,
 * ranges and parts ({@code ObjectReads}), S3's listing rules ({@code Lister}), multipart uploads,
 * object tags, and sealing objects for encryption ({@code ObjectSealing}, {@code KeyRotation}).
 */
package io.racs.proxy.store.object;
