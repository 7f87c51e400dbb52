/**
 * The striping object store: objects erasure-coded across a set of repositories, with quorum
 * commits, degraded reads, garbage collection and heal.
 *
 * <p>{@link io.racs.proxy.store.ErasureStore}, the facade, is the only public class of this
 * package; it builds the store from its tiers (its package-private {@code StoreTiers}), each a
 * sub-package that depends only on the tiers below it: {@code format} (names, ids, records), {@code
 * api} (what the S3 layer sees), {@code array} (slots, health, latency, the shared context), {@code
 * stripe} (shard bytes), {@code commit} (quorum, ordering, visibility, collection), {@code bucket},
 * {@code object} and {@code heal}. An ArchUnit rule forbids cycles between any packages of the
 * proxy and of the repositories.
 *
 * <p>The store knows nothing of HTTP, Netty or S3's wire formats: the S3 layer reaches it only
 * through {@link io.racs.proxy.store.api.ObjectStore}, and it reports failures only as {@link
 * io.racs.proxy.store.api.StoreException}s.
 */
package io.racs.proxy.store;
