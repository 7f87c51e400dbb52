/**
 * Statistics shared by every benchmark kind (object and block): Student-t confidence intervals over
 * iterations, ratio estimates with intervals, the ramp cut of a measurement window, open-loop
 * arrival schedules with coordinated-omission correction, latency summaries from HdrHistograms, and
 * client CPU use. Pure computation: no I/O, no threads of its own.
 */
package io.racs.bench.stats;
