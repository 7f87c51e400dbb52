/**
 * What the S3 layer sees of the store: the {@code ObjectStore} operations and their request and
 * result types, the one exception the store reports failures with ({@code StoreException}), its
 * configuration ({@code StoreConfig}), its counters ({@code StoreStats}) and streamed bodies
 * ({@code ChunkedBody}).
 *
 * <p>Above the format tier only; the tiers that implement the operations depend on it, never the
 * other way round.
 */
package io.racs.proxy.store.api;
