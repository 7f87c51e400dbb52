/**
 * What the operations of a run would cost at a provider's prices: a price table per repository
 * ({@link io.racs.repos.price.PriceBook}, AWS S3 Standard's published prices unless the
 * configuration file says otherwise) applied to the repository requests and bytes an in-process
 * array made, next to the same client operations sent to one repository directly ({@link
 * io.racs.bench.object.cost.Cost}).
 */
package io.racs.bench.object.cost;
