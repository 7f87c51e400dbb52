/**
 * The JMH microbenchmarks that {@code racs bench jmh} runs: the codec's encode and reconstruct for
 * the vector path, the scalar path and a plain byte-table loop as the baseline ({@link
 * io.racs.bench.jmh.CodecBenchmark}, {@link io.racs.bench.jmh.ByteTableCoder}), and the store's PUT
 * and GET over memory repositories next to the raw codec and MD5 ({@link
 * io.racs.bench.jmh.StoreBenchmark}). In-JVM code only, results sunk into JMH's {@code Blackhole}
 * or returned, forks of their own.
 *
 * <p>It must not know the command line, reports or the load generators: load over a network is the
 * object workloads' job (open loop, coordinated-omission correction), which JMH is not built for.
 */
package io.racs.bench.jmh;
