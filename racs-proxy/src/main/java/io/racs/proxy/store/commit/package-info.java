/**
 * The commit tier: when a record counts and which version a key shows. {@code QuorumWriter} is the
 * one commit-and-rollback routine every record goes through, {@code CommitOrder} orders versions by
 * commit rather than by clock, {@code VersionResolver} is the one visibility rule, {@code
 * CurrentVersions} the cache of what is current, and {@code Collector} (paced by {@code
 * CollectionPace}) deletes superseded versions and leftovers.
 */
package io.racs.proxy.store.commit;
