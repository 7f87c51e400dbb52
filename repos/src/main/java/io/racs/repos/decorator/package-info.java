/**
 * Decorators: repositories that wrap another one and change one cross-cutting behaviour, on a
 * forwarding base ({@link io.racs.repos.decorator.ForwardingRepository}): network-like latency for
 * the benchmark's LatencyImpactRatio ({@link io.racs.repos.decorator.LatencyRepository}), scripted
 * and seeded faults for the store's quorum and repair tests ({@link
 * io.racs.repos.decorator.FaultyRepository}), and per-operation counts, bytes and latency
 * histograms ({@link io.racs.repos.decorator.MeteredRepository}).
 *
 * <p>A decorator knows only the {@link io.racs.repos.Repository} contract, never the backend it
 * wraps (no {@code instanceof}, no file or S3 specifics), and passes repository errors through
 * unchanged; the contract still holds with any stack of them.
 */
package io.racs.repos.decorator;
