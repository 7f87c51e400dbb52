/**
 * Coordination of several proxies over one array through Apache ZooKeeper (by way of Apache
 * Curator): membership, the leader that alone runs background work, the serialisation of bucket
 * creates and deletes with the invalidation of every proxy's bucket cache, the registrations of
 * writes that stamp the version cache's slots, and the announcements of changes of the stored users
 * and of the array record ({@code AnnouncedNode}). Every kind of change is acknowledged the same
 * way, in the member nodes ({@code Membership}), so whoever made one can wait until every live
 * proxy has acted on it. {@code ZooKeeperCoordination} owns the session and hands each of these to
 * a class of its own. Optional: without it each proxy is still correct, and background heals are
 * kept apart by a lease on the repositories instead. The data path never goes through this package.
 */
package io.racs.proxy.coord;
