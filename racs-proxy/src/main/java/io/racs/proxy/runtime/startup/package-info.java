/**
 * Opening the array when the proxy starts: {@link io.racs.proxy.runtime.startup.ArrayOpening} tries
 * to open the store, and while too few repositories answer for the identity check to pass it keeps
 * trying with backoff, so that the proxy can start not ready (answering 503) instead of exiting, as
 * MinIO waits for its quorum. What it found at its last attempt is what {@code /health/ready}
 * reports until the array is open. It knows the store's facade and nothing of HTTP.
 */
package io.racs.proxy.runtime.startup;
