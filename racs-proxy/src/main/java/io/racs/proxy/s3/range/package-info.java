/**
 * The {@code Range} header of GET and HEAD: parsing against an object's size ({@link
 * io.racs.proxy.s3.range.ByteRange}).
 */
package io.racs.proxy.s3.range;
