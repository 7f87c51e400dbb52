/**
 * The CPU of other processes, read from Linux's {@code /proc}: what {@code racs bench object
 * --sample-pid} records over each measured iteration, and what {@code racs bench cpu} prints over a
 * stretch of time. A process counts with all its descendants (a launcher script, the JVM under it),
 * and its threads are grouped by name (JIT, GC, Netty event loops, ForkJoinPool carriers) so that a
 * report can say where the CPU went.
 */
package io.racs.bench.cpu;
