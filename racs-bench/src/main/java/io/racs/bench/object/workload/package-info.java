/**
 * What an object workload does, independent of where it runs: operations and exact mixes, object
 * sizes, key spaces and key distributions, byte ranges, and the deterministic content every object
 * is written with and verified against. Parsing of the command-line forms lives here too, so the
 * controller and the agents read one description.
 */
package io.racs.bench.object.workload;
