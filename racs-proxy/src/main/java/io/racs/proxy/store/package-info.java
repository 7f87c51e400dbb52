/**
 * The striping object store: objects erasure-coded across a set of repositories, with quorum
 * commits, degraded reads, garbage collection and heal.
 *
 * <p>{@link io.racs.proxy.store.ErasureStore} is a facade over parts that each own one concern:
 * {@code BucketCatalog} (bucket records and their cache), {@code ObjectWrites} (PUT, inline
 * objects, delete markers), {@code QuorumWriter} (the one commit-and-rollback routine every record
 * goes through), {@code VersionResolver} (which version of a key readers see), {@code ObjectReads}
 * (opening versions, ranges and parts), {@code Lister} (S3's listing rules), {@code
 * MultipartUploads}, and {@code Collector} (deleting superseded versions and leftovers, shared with
 * {@link io.racs.proxy.store.Healer}). {@code Identity} admits each repository to its slot by its
 * identity marker, {@code GuardedRepository} keeps a slot it refused out of every operation, and
 * {@code ArraySlots} holds the guards the store was opened with; {@code ArrayHealth} reports each
 * slot's state to operators. Below them, {@code PartWriter}, {@code PartReader} and {@code
 * ShardRebuilder} move shard bytes, {@code IndexMerge} merges repository listings and {@code
 * Layout} names everything stored.
 *
 * <p>The store knows nothing of HTTP, Netty or S3's wire formats: the S3 layer reaches it only
 * through {@link io.racs.proxy.store.ObjectStore}, and it reports failures only as {@link
 * io.racs.proxy.store.StoreException}s.
 */
package io.racs.proxy.store;
