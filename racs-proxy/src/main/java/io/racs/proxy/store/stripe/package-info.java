/**
 * The stripe tier: shard bytes on the repositories. {@code PartWriter} cuts a part into stripes of
 * k data and m parity shards and writes them. {@code StripeLoader} is the one stripe reader: it
 * reads k shards a stripe at a time, each streamed by a {@code ShardSource} and asked for in {@code
 * ReadOrder}, hedging to another shard when one is late, failed or corrupt, and reconstructs what
 * is missing; a {@code StripePolicy} says what it is loading for. {@code PartReader} serves a GET
 * from it (a corrupt piece costs that stripe only, with a warning), and {@code ShardRebuilder}
 * rebuilds lost shards from it (the targets are never read, a corrupt source fails, nothing is
 * warned of, heal's throttle paces it). {@code ShardGuess} opens a cold read's shards before the
 * listing confirms its version. {@code PieceCodec} is the one framing of a shard piece (its bytes,
 * then their CRC32C) that all of them write and check.
 */
package io.racs.proxy.store.stripe;
