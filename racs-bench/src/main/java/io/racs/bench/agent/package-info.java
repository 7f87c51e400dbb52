/**
 * Many load generators: {@code racs bench agent} serves a small JSON-over-HTTP protocol (JDK {@code
 * HttpServer}); a controller's {@link io.racs.bench.agent.RemoteEngine} ships target descriptions
 * and workloads to every agent, starts each iteration on all of them at one instant, and merges
 * their encoded HdrHistograms exactly. Agents that fail or start late are reported.
 */
package io.racs.bench.agent;
