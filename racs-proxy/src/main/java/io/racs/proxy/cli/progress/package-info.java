/**
 * How a long command shows its progress ({@code racs heal}, {@code racs recover}, {@code racs
 * reshape run} and {@code status}, {@code racs-bench object}): one renderer, {@link
 * io.racs.proxy.cli.progress.ProgressBar}, that draws a bar with rate and ETA in place on a
 * terminal and prints a plain line every few seconds otherwise; {@link
 * io.racs.proxy.cli.progress.ProgressMode} decides which, from {@code --progress} ({@link
 * io.racs.proxy.cli.progress.ProgressOption}) or the terminal.
 */
package io.racs.proxy.cli.progress;
