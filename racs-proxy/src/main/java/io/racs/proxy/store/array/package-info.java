/**
 * The array tier: the repositories by slot and their state. {@code RepositoryArray} fans calls out
 * to the slots with per-repository deadlines ({@code SlotBreaker}, a circuit breaker, with {@code
 * RequestStalls} for the slots one request found stalled; {@code LatencyEstimates}), {@code
 * Identity} admits each repository to its slot by its identity marker, {@code GuardedRepository}
 * keeps a refused slot out, {@code ArraySlots} holds the guards, {@code ArrayHealth} reports each
 * slot to operators, and {@code IndexMerge} merges the slots' listings. {@code StoreContext} is
 * what every tier above shares: the array, the codec, the configuration, id minting, the record
 * cache ({@code VersionCache}) and the key stamps shared with other proxies ({@code KeyStamps}) and
 * the announcements of changes of the array record ({@code LayoutChanges}), and whether the layout
 * new writes take may be stale ({@code LayoutFreshness}).
 */
package io.racs.proxy.store.array;
