/**
 * Hashes the data path computes for S3 (ETags): {@link io.racs.proxy.hash.MultiMd5}, the MD5 of
 * several streams at once on vector lanes.
 */
package io.racs.proxy.hash;
