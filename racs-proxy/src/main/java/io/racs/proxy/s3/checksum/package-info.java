/**
 * Data-integrity checksums of S3 requests: CRC32, CRC32C, CRC64NVME ({@link
 * io.racs.proxy.s3.checksum.Crc64Nvme}), SHA1, SHA256 and Content-MD5; parsing the headers that
 * announce them ({@link io.racs.proxy.s3.checksum.ChecksumSpec}); verifying a streamed body against
 * them ({@link io.racs.proxy.s3.checksum.ChecksumVerifier}, {@code BadDigest} on mismatch); and the
 * multipart composite forms ({@link io.racs.proxy.s3.checksum.MultipartChecksums}) and the object
 * checksum of a CompleteMultipartUpload ({@link io.racs.proxy.s3.checksum.CompletionChecksums},
 * full-object CRCs combined by {@link io.racs.proxy.s3.checksum.CrcCombine}), with the checksum an
 * upload recorded at its creation ({@link io.racs.proxy.s3.checksum.UploadChecksum}) and that its
 * parts are stored with ({@link io.racs.proxy.s3.checksum.PartChecksum}). Values are base64 of the
 * big-endian checksum bytes, as in {@code x-amz-checksum-*} headers.
 */
package io.racs.proxy.s3.checksum;
