/**
 * Report writers shared by the benchmark commands: {@code results.json} (versioned schema, see
 * {@code racs-bench/RESULTS-SCHEMA.md}), {@code results.csv}, HdrHistogram interval logs, a
 * self-contained HTML report with inline SVG charts, and the console table.
 */
package io.racs.bench.report;
