/**
 * The {@code array:} section of a RACS configuration file ({@link
 * io.racs.proxy.config.ArrayConfig}): how the file's repositories form an erasure-coded array, that
 * is the geometry, the slot order, and the store's settings (block size, write quorum, slow-shard
 * timeout, collection grace, inline size), checked with one-line errors naming the file, the
 * section and the field. The proxy, {@code racs heal} and {@code racs recover} read it.
 *
 * <p>The {@code repositories:} section is racs-repos' own ({@code io.racs.repos.config}), and the
 * {@code server:} section the runtime's; this package must not know either beyond the repository
 * names it orders into slots, nor anything of HTTP.
 */
package io.racs.proxy.config;
