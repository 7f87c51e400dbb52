/**
 * The stripe tier: shard bytes on the repositories. {@code PartWriter} cuts a part into stripes of
 * k data and m parity shards and writes them; {@code PartReader} reads them back, hedging to parity
 * when a data shard is late or corrupt; {@code ShardRebuilder} rebuilds a lost shard; {@code
 * ShardGuess} opens a cold read's shards before the listing confirms its version.
 */
package io.racs.proxy.store.stripe;
