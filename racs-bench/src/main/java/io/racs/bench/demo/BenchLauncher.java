package io.racs.bench.demo;

import java.io.PrintWriter;

/**
 * Runs a {@code racs bench} command line, as {@code io.racs.bench.cli.BenchMain#run} does. The demo
 * is given one rather than calling the command tree itself, because that tree contains the demo:
 * the dependency points from the command line to the demo only.
 */
@FunctionalInterface
public interface BenchLauncher {
  /**
   * Runs {@code args} (e.g. {@code object --config ...}) and returns the exit code.
   *
   * @param out where the command prints its results
   * @param err where it prints progress, warnings and errors
   */
  int run(PrintWriter out, PrintWriter err, String... args);
}
