/**
 * The {@code memory} backend: a repository in this JVM's heap ({@link
 * io.racs.repos.memory.MemoryRepository}), for unit tests and for benchmarks of the CPU path where
 * storage should cost nothing. It keeps the full {@link io.racs.repos.Repository} contract (key
 * order, whole-object replacement, errors after close) so that tests on it hold for real backends.
 *
 * <p>It must not know anything outside the SPI: no files, no network, no configuration.
 */
package io.racs.repos.memory;
