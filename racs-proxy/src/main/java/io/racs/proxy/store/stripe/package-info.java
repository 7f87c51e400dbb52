/**
 * The stripe tier: shard bytes on the repositories. {@code PartWriter} cuts a part into stripes of
 * k data and m parity shards and writes them; {@code PartReader} reads them back, hedging to parity
 * when a data shard is late or corrupt, each shard streamed by a {@code ShardSource} and asked for
 * in {@code ReadOrder}; {@code ShardRebuilder} rebuilds a lost shard; {@code ShardGuess} opens a
 * cold read's shards before the listing confirms its version. {@code PieceCodec} is the one framing
 * of a shard piece (its bytes, then their CRC32C) that all of them write and check.
 */
package io.racs.proxy.store.stripe;
