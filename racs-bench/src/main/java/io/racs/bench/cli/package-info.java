/**
 * The {@code racs bench} command of the bench jar (Picocli; {@link io.racs.bench.cli.BenchMain} is
 * its main class): {@code object}, {@code block dd|sweep|matrix|run}, {@code jmh}, {@code compare}
 * and {@code agent}, plus {@code demo}. Each command parses and checks its options (invalid ones
 * exit 2 before anything runs), loads the configuration file's repositories where it takes one,
 * hands a plan to the engine of its package ({@code object.run}, {@code block}, {@code agent},
 * JMH's runner) and writes the results with {@code report}, printing through Picocli's writers so
 * that tests can read them.
 *
 * <p>It must not measure anything itself: timing, statistics and I/O loops belong to the engines
 * and {@code stats}, so that they can be tested without a command line.
 */
package io.racs.bench.cli;
