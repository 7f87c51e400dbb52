/**
 * Runs object workloads: clients on virtual threads in closed or open loop, the exact ramp cut of
 * each iteration, per-client HdrHistograms merged after every iteration, deterministic preparation
 * and verification, and the interleaved (round-robin) order of iterations across targets.
 */
package io.racs.bench.object.run;
