/**
 * The running proxy: {@link io.racs.proxy.runtime.RacsServer} wires an opened store to the S3
 * server in front of it (router, authenticator, dispatcher over the store bridge, TLS, limits),
 * starts the admin port ({@link io.racs.proxy.admin.AdminServer}: health, readiness, metrics, the
 * console), schedules the background work (the heal scrub and the lifecycle scan, {@code
 * BackgroundWork}), and on close drains requests before closing the repositories. {@link
 * io.racs.proxy.runtime.ServerConfig} is the {@code server:} section of the configuration file that
 * says how. When the array cannot be opened yet at start-up (too few repositories answer), the
 * server listens all the same and answers 503 until {@code io.racs.proxy.runtime.startup} has
 * opened it.
 *
 * <p>This is the top of the proxy: it may know every layer it assembles, and none of them may know
 * it (an ArchUnit rule keeps the codec, the store and the S3 layer from depending on it). It must
 * not know the command line, which {@code io.racs.proxy.cli} parses, nor how an S3 request is
 * handled or the store works inside.
 */
package io.racs.proxy.runtime;
