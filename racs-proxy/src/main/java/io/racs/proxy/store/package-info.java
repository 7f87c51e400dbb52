/**
 * The striping object store: objects erasure-coded across a repository set, with quorum commits,
 * degraded reads and heal. Knows nothing of HTTP or Netty.
 */
package io.racs.proxy.store;
