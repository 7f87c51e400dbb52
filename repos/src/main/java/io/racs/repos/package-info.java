/**
 * The repository SPI: {@link io.racs.repos.Repository}, one flat blob namespace on one provider,
 * with its contract (keys, order, what "missing" means, atomic writes, errors), the one exception
 * it throws ({@link io.racs.repos.RepositoryException} with its kind), the values it returns, and
 * what every backend shares: key checks and S3 key order ({@link io.racs.repos.Keys}), the
 * injective, order-keeping safe names of {@link io.racs.repos.KeyCodec}, and body and listing
 * helpers.
 *
 * <p>It must not know any backend or provider (no file system layout, no AWS SDK), configuration
 * files, or what sits on top: the erasure-coded store, the proxy and the benchmark are callers, and
 * nothing here may depend on them.
 */
package io.racs.repos;
