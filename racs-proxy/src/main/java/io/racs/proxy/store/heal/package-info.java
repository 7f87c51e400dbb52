/**
 * Maintenance: heal ({@code Healer}), the lease that lets one proxy heal at a time without
 * coordination ({@code HealLease}), and the clean-up of abandoned uploads. They see the store only
 * through {@code Maintenance}, which the facade implements.
 */
package io.racs.proxy.store.heal;
