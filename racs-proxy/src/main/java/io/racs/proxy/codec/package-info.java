/**
 * Reed-Solomon erasure coding over GF(2^8), byte-compatible with Backblaze JavaReedSolomon and
 * klauspost/reedsolomon. Knows nothing of HTTP, Netty or repositories.
 */
package io.racs.proxy.codec;
