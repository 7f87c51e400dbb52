/**
 * {@code racs status}'s summary of a running proxy: its readiness report and metrics, read over the
 * admin port and put on one screen.
 */
package io.racs.proxy.cli.status;
