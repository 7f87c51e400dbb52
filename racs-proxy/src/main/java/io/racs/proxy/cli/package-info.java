/**
 * The {@code racs} command of the proxy jar (Picocli): {@code server}, {@code codec}, {@code heal}
 * and {@code recover} ({@link io.racs.proxy.cli.RacsMain} dispatches), the exit codes every RACS
 * command shares and documents ({@link io.racs.proxy.cli.ExitCodes}: 0 success, 1 failure, 2
 * invalid command line or configuration) and the version from the jar manifest. Each command turns
 * its options and configuration file into calls on the runtime, the store or the codec, and prints
 * through Picocli's writers so that tests can read them.
 *
 * <p>It must not know the S3 protocol or Netty (a server is the runtime's), and builds repositories
 * only from the configuration file or, for {@code racs server} with no file, as its six default
 * local directories.
 */
package io.racs.proxy.cli;
