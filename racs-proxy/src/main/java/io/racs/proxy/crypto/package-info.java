/**
 * Encryption at the proxy, before striping: authenticated AES-256-GCM chunks ({@link SealedLayout},
 * {@link ChunkSealer}, {@link SealingInputStream}, {@link OpeningInputStream}), envelope data keys
 * wrapped by a master key ({@link MasterKey}) or a customer's key ({@link CustomerKey}).
 * Repositories and heal only ever see the sealed bytes, so they never need a key. Knows nothing of
 * HTTP, Netty, repositories or the store.
 */
package io.racs.proxy.crypto;
